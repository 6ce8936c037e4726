// What one overview snapshot costs Redis with many queues (docs/admin.md, "Overview"): fills
// N queues, each with pending tasks, a few acks and failures and an hour of minute counters,
// then reads every queue K times with QueueSnapshotReader (with and without the 60 minute
// reads) and prints Redis's CPU per snapshot (INFO cpu, user + sys) and the slowest commands
// (SLOWLOG, microseconds). A figure for the docs, not a timed test:
//   tests/limits/overviewcost --queues 500 --rounds 20
#include "redisserver.h"
#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/queuesnapshot.h>

#include <QCommandLineParser>
#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace delayq;

namespace {

double redisCpuSeconds(Connection& c)
{
    const std::string info = c.command({"INFO", "cpu"}).str;
    auto field = [&](const char* name) {
        const auto at = info.find(name);
        return at == std::string::npos ? 0.0
                                       : std::strtod(info.c_str() + at + strlen(name), nullptr);
    };
    return field("used_cpu_sys:") + field("used_cpu_user:");
}

void fill(Connection& c, int queues)
{
    const long long minute = c.serverNowMs() / 60000;
    for (int i = 0; i < queues; ++i) {
        const std::string name = "q" + std::to_string(i);
        Queue q(c, name);
        std::vector<PushRequest> tasks(20);
        for (auto& t : tasks) {
            t.payload = "{}";
            t.delayMs = 60000;
        }
        q.pushBatch(tasks);
        // An hour of traffic: every minute key the snapshot reads exists.
        std::vector<std::vector<std::string>> commands;
        for (long long m = minute - 59; m <= minute; ++m)
            commands.push_back({"HSET", "dq:{" + name + "}:m:" + std::to_string(m), "acked", "40",
                                "died", "1", "retried", "3"});
        c.pipeline(commands);
    }
}

void measure(Connection& c, bool withHistory, int rounds, int queues)
{
    c.command({"SLOWLOG", "RESET"});
    const double before = redisCpuSeconds(c);
    const auto start = std::chrono::steady_clock::now();
    QueueSnapshotReader reader(c, "dq");
    size_t rows = 0;
    for (int r = 0; r < rounds; ++r)
        rows = reader.readAll(withHistory).size();
    const std::chrono::duration<double, std::milli> wall = std::chrono::steady_clock::now() - start;
    const double cpuMs = (redisCpuSeconds(c) - before) * 1000.0 / rounds;
    const Reply log = c.command({"SLOWLOG", "GET", "1000000"});
    // The snapshot's own commands: not INFO, SLOWLOG or CONFIG around it.
    std::vector<std::pair<long long, std::string>> calls;
    long long totalUs = 0;
    for (const auto& entry : log.elements) {
        const std::string name =
            entry.elements[3].elements.empty() ? std::string() : entry.elements[3].elements[0].str;
        if (name == "INFO" || name == "SLOWLOG" || name == "CONFIG")
            continue;
        calls.emplace_back(entry.elements[2].integer, name);
        totalUs += entry.elements[2].integer;
    }
    std::sort(calls.begin(), calls.end());
    auto at = [&](double q) {
        return calls.empty() ? 0LL : calls[static_cast<size_t>(q * double(calls.size() - 1))].first;
    };
    std::printf("%d queues, %s: %zu rows, %d commands per snapshot\n"
                "  Redis CPU (INFO cpu) %.1f ms per snapshot; SLOWLOG: commands %.1f ms per "
                "snapshot in all, per command median %lld us, p99 %lld us, max %lld us (%s)\n"
                "  wall %.1f ms per snapshot, client included\n",
                queues, withHistory ? "with 60 minutes" : "counts only", rows,
                queues * (withHistory ? 67 : 7), cpuMs, double(totalUs) / 1000.0 / rounds, at(0.5),
                at(0.99), calls.empty() ? 0LL : calls.back().first,
                calls.empty() ? "" : calls.back().second.c_str(), wall.count() / rounds);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Redis cost of one overview snapshot"));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("queues"), QStringLiteral("Queues."), QStringLiteral("N"),
                      QStringLiteral("500")});
    parser.addOption({QStringLiteral("rounds"), QStringLiteral("Snapshots measured."),
                      QStringLiteral("K"), QStringLiteral("20")});
    parser.process(app);
    const int queues = parser.value(QStringLiteral("queues")).toInt();
    const int rounds = std::max(1, parser.value(QStringLiteral("rounds")).toInt());
    RedisServer server;
    if (!server.start()) {
        std::fprintf(stderr, "overviewcost: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    Connection c(ConnectionOptions::fromUrl(server.unixUrl()));
    fill(c, queues);
    // Every command logged, so the slowest one of a snapshot is seen.
    c.command({"CONFIG", "SET", "slowlog-log-slower-than", "0"});
    c.command({"CONFIG", "SET", "slowlog-max-len", "1000000"});
    measure(c, true, rounds, queues);
    measure(c, false, rounds, queues);
    return 0;
}
