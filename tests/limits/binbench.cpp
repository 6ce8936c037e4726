// The recycle bin measured (docs/design/bin.md, "Measured"): pushes N tasks with random binary
// payloads, cancels them all in one action, restores them all (RecycleBin::restoreAll), checks
// every record, due time and run entry came back byte-exact, and prints the wall time and
// Redis CPU (INFO cpu) of each step, restore as a multiple of the push in the same run, and
// the bin's memory. A figure for the docs, not a timed test:
//   tests/limits/binbench --tasks 100000
#include "redisserver.h"
#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/recyclebin.h>

#include <QCommandLineParser>
#include <QCoreApplication>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <vector>

using namespace delayq;

namespace {

double infoField(Connection& c, const char* section, const char* name)
{
    const std::string info = c.command({"INFO", section}).str;
    const auto at = info.find(name);
    return at == std::string::npos ? 0.0 : std::strtod(info.c_str() + at + strlen(name), nullptr);
}

double redisCpuMs(Connection& c)
{
    return (infoField(c, "cpu", "used_cpu_sys:") + infoField(c, "cpu", "used_cpu_user:")) * 1000;
}

// Everything a task is made of in Redis: each bucket's records, the pending set with its
// scores, the run hash. Compared before the cancel and after the restore.
std::map<std::string, std::string> stateOf(Connection& c, const Keys& keys)
{
    std::map<std::string, std::string> out;
    std::vector<std::vector<std::string>> reads;
    for (int b = 0; b < 8192; ++b)
        reads.push_back({"HGETALL", keys.dataPrefix() + std::to_string(b)});
    for (const auto& r : c.pipeline(reads))
        for (size_t i = 0; i + 1 < r.elements.size(); i += 2)
            out["record " + r.elements[i].str] = r.elements[i + 1].str;
    const Reply pending = c.command({"ZRANGE", keys.pending(), "0", "-1", "WITHSCORES"});
    for (size_t i = 0; i + 1 < pending.elements.size(); i += 2)
        out["due " + pending.elements[i].str] = pending.elements[i + 1].str;
    const Reply run = c.command({"HGETALL", keys.run()});
    for (size_t i = 0; i + 1 < run.elements.size(); i += 2)
        out["run " + run.elements[i].str] = run.elements[i + 1].str;
    return out;
}

struct Step
{
    double wallMs = 0;
    double cpuMs = 0;
};

template <typename F> Step timed(Connection& c, F f)
{
    const double cpu = redisCpuMs(c);
    const auto start = std::chrono::steady_clock::now();
    f();
    const std::chrono::duration<double, std::milli> wall = std::chrono::steady_clock::now() - start;
    return {wall.count(), redisCpuMs(c) - cpu};
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({"tasks", "tasks to push, cancel and restore", "N", "100000"});
    parser.addOption({"payload", "payload bytes (random, binary)", "BYTES", "32"});
    parser.process(app);
    const int n = parser.value("tasks").toInt();
    const int payloadBytes = parser.value("payload").toInt();
    if (n < 1 || n > 1000000 || payloadBytes < 0 || payloadBytes > 100000) {
        std::fprintf(stderr, "binbench: --tasks 1..1000000, --payload 0..100000\n");
        return 2;
    }
    RedisServer server;
    if (!server.start()) {
        std::fprintf(stderr, "binbench: redis-server did not start\n");
        return 1;
    }
    Connection c(ConnectionOptions::fromUrl(server.unixUrl()));
    Queue queue(c, "bench");
    queue.setConfig("bin_max", std::to_string(std::max(n, 100000)));

    std::mt19937 random(42);
    std::vector<PushRequest> requests(static_cast<size_t>(n));
    std::vector<std::string> ids;
    for (int i = 0; i < n; ++i) {
        PushRequest& r = requests[static_cast<size_t>(i)];
        r.id = "bench-" + std::to_string(i);
        r.payload.resize(static_cast<size_t>(payloadBytes));
        for (char& ch : r.payload)
            ch = static_cast<char>(random() & 0xff);
        r.delayMs = 3'600'000 + i;
        ids.push_back(r.id);
    }
    const Step push = timed(c, [&] {
        for (size_t at = 0; at < requests.size(); at += 1000)
            queue.pushBatch(
                {requests.begin() + static_cast<long>(at),
                 requests.begin() + static_cast<long>(std::min(at + 1000, requests.size()))});
    });
    const auto before = stateOf(c, queue.keys());
    const double memoryBefore = infoField(c, "memory", "used_memory:");
    const Step cancel = timed(c, [&] { queue.cancel(ids); });
    const double binBytes = infoField(c, "memory", "used_memory:") - memoryBefore;
    RecycleBin bin(queue);
    std::vector<IdResult> restored;
    const Step restore = timed(c, [&] { restored = bin.restoreAll(); });
    long long done = 0;
    for (const auto& r : restored)
        done += r.status == IdResult::Status::Done;
    const auto after = stateOf(c, queue.keys());
    const bool exact = before == after && done == n;
    std::printf(
        "tasks %d, payload %d random bytes, one cancel action, redis %s\n", n, payloadBytes,
        c.command({"INFO", "server"}).str.find("redis_version:7") != std::string::npos ? "7" : "?");
    std::printf("push     %9.1f ms wall  %9.1f ms Redis CPU\n", push.wallMs, push.cpuMs);
    std::printf("cancel   %9.1f ms wall  %9.1f ms Redis CPU  (used_memory %+.0f B a task: the "
                "bin's entry less the task it replaces)\n",
                cancel.wallMs, cancel.cpuMs, binBytes / n);
    std::printf("restore  %9.1f ms wall  %9.1f ms Redis CPU  (%.2fx the push's wall, %.2fx its "
                "CPU)\n",
                restore.wallMs, restore.cpuMs, restore.wallMs / push.wallMs,
                restore.cpuMs / std::max(push.cpuMs, 0.001));
    std::printf("restored %lld of %d; records, due times and run entries byte-exact: %s\n", done, n,
                exact ? "yes" : "NO");
    return exact ? 0 : 1;
}
