#include "commands/commands.h"
#include "exporter/metricsscraper.h"
#include "exporter/metricsserver.h"
#include "output/textoutput.h"

#include <delayq/keys.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <pthread.h>

namespace cli {

namespace {

// "HOST:PORT" or "[V6]:PORT" into host and port; the port a number from 0 (any free) to 65535.
std::pair<std::string, std::string> splitListen(const std::string& text)
{
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
        throw UsageError("--listen must be HOST:PORT, e.g. 127.0.0.1:9464 (got '" +
                         printable(text.substr(0, 100)) + "')");
    std::string host = text.substr(0, colon);
    const std::string port = text.substr(colon + 1);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    const bool digits = port.size() <= 5 && std::all_of(port.begin(), port.end(), [](char c) {
                            return c >= '0' && c <= '9';
                        });
    if (!digits || std::stol(port) > 65535)
        throw UsageError("--listen: the port must be a number from 0 to 65535 (got '" +
                         printable(port.substr(0, 100)) + "')");
    return {host, port};
}

// "a,b,c" into checked queue names, each once; a bad name is refused (exit 2) before anything
// listens.
std::vector<std::string> splitQueues(const std::string& text)
{
    std::vector<std::string> names;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string name = text.substr(start, comma - start);
        if (name.empty())
            throw UsageError("--queues: an empty queue name (write a,b,c)");
        delayq::Keys::validateQueueName(name);
        if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name);
        start = comma + 1;
    }
    return names;
}

} // namespace

int runExporter(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"listen", true}, {"queues", true}, {"client-timeout", true}}, 0, 0);
    const auto [host, port] = splitListen(a.value("listen", "127.0.0.1:9464"));
    const std::vector<std::string> queues =
        a.has("queues") ? splitQueues(a.value("queues")) : std::vector<std::string>{};
    const long long timeoutMs = a.duration("client-timeout", 10000);
    if (timeoutMs < 1000 || timeoutMs > 3600 * 1000)
        throw UsageError("--client-timeout must be from 1s to 1h");

    // Connected now, so a wrong URL or password fails at start (exit 3); an outage after
    // this is delayq_up 0 and the connection retries at the next scrape.
    delayq::Connection& conn = ctx.connection();
    MetricsScraper scraper(conn, ctx.global().prefix, queues);

    // Signals are taken synchronously below; the server's threads inherit the mask.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    MetricsServer server([&scraper] { return scraper.scrape(); },
                         std::chrono::seconds((timeoutMs + 999) / 1000));
    server.start(host, port);
    std::string which = "every queue under the prefix " + ctx.global().prefix;
    if (!queues.empty()) {
        which = "queue";
        for (size_t i = 0; i < queues.size(); ++i)
            which += (i == 0 ? (queues.size() > 1 ? "s " : " ") : ", ") + queues[i];
    }
    const std::string banner =
        "delayq: exporter on " + connectedTo(conn) + ": " + which + ", at " + server.url() + "\n";
    std::fputs(banner.c_str(), stderr);
    std::fflush(stderr);

    int sig = 0;
    sigwait(&stopSignals, &sig);
    std::fputs("delayq: exporter stopping\n", stderr);
    server.stop();
    return ExitOk;
}

} // namespace cli
