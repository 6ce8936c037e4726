// Measures the slowest call of each Lua script on a large queue, as Redis itself times it
// (SLOWLOG, microseconds), at the batch sizes the core uses. The target is < 5 ms for every
// script on a 1,000,000-task queue. ctest runs it on a small queue to keep it working:
//   tests/limits/scriptlimits --tasks 1000000
#include "redisserver.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/recyclebin.h>
#include <delayq/schedules.h>
#include <delayq/shardmover.h>

#include <QCommandLineParser>
#include <QCoreApplication>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <thread>

using namespace delayq;

namespace {

// EVALSHA names a script by its SHA1, EVAL (the fallback after NOSCRIPT) by its body.
std::map<std::string, std::string> scriptNames()
{
    std::map<std::string, std::string> names;
    for (const Script* s : scripts::all()) {
        names[std::string(s->sha1)] = std::string(s->name);
        names["-- delayq script: " + std::string(s->name)] = std::string(s->name);
    }
    return names;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Slowest Lua script call per script (SLOWLOG)"));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("tasks"), QStringLiteral("Tasks in the queue."),
                      QStringLiteral("N"), QStringLiteral("1000000")});
    parser.process(app);
    const long long total = parser.value(QStringLiteral("tasks")).toLongLong();
    if (total < 10000) {
        std::fprintf(stderr, "scriptlimits: --tasks must be at least 10000\n");
        return 2;
    }

    RedisServer server;
    if (!server.start()) {
        std::fprintf(stderr, "scriptlimits: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    try {
        Connection conn(ConnectionOptions::fromUrl(server.unixUrl()));
        Queue q(conn, "big");
        std::printf("filling %lld tasks...\n", total);
        std::vector<PushRequest> chunk;
        for (long long i = 0; i < total; ++i) {
            PushRequest r;
            r.payload = "{\"order\":" + std::to_string(i) + ",\"action\":\"cancel-unpaid\"}";
            // Half overdue, half spread over the next day.
            r.delayMs = i % 2 ? (i * 86'400'000LL / total) : 0;
            chunk.push_back(std::move(r));
            if (chunk.size() == 10000 || i + 1 == total) {
                q.pushBatch(chunk);
                chunk.clear();
            }
        }
        // Redis 7 logs the commands a script runs too, and logging each of them would slow the
        // script it measures: only calls over 0.1 ms are logged (a command inside a script
        // takes microseconds), and the log is read and reset after each step.
        auto names = scriptNames();
        std::map<std::string, std::vector<long long>> worst; // name -> durations (us) over 0.1 ms
        auto collect = [&] {
            Reply log = conn.command({"SLOWLOG", "GET", "-1"});
            for (const auto& entry : log.elements) {
                if (entry.elements.size() < 4 || entry.elements[3].elements.size() < 2)
                    continue;
                const auto& args = entry.elements[3].elements;
                std::string verb = args[0].str;
                std::transform(verb.begin(), verb.end(), verb.begin(), ::toupper);
                if (verb != "EVALSHA" && verb != "EVAL")
                    continue;
                auto it = names.find(args[1].str.substr(0, args[1].str.find('\n')));
                worst[it != names.end() ? it->second : "eval"].push_back(
                    entry.elements[2].toInteger());
            }
            conn.command({"SLOWLOG", "RESET"});
        };
        conn.command({"CONFIG", "SET", "slowlog-max-len", "1000000"});
        conn.command({"CONFIG", "SET", "slowlog-log-slower-than", "100"});
        conn.command({"SLOWLOG", "RESET"});

        // Each operation at the largest batch the core sends in one call.
        auto claim = q.claim(1000, 60000, "limits");
        collect();
        std::vector<std::pair<std::string, std::string>> acks;
        for (const auto& t : claim.tasks)
            acks.emplace_back(t.id, t.token);
        q.ack(std::vector(acks.begin(), acks.begin() + 500));
        for (size_t i = 500; i < 510; ++i)
            q.nack(acks[i].first, acks[i].second, "failed on purpose", 0);
        q.extend(acks[600].first, acks[600].second, 60000);
        collect();
        auto expiring = q.claim(1000, 300, "limits");
        std::vector<PushRequest> more(1000);
        q.pushBatch(more);
        collect();
        auto page = q.page(TaskSet::Pending, total / 2, 1000);
        std::vector<std::string> ids;
        for (const auto& t : page)
            ids.push_back(t.id);
        q.reschedule(std::vector(ids.begin(), ids.begin() + 500), std::nullopt, 3'600'000);
        q.cancel(std::vector(ids.begin() + 500, ids.end()));
        collect();
        // Let the short leases run out, then reap them all.
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        while (q.reap(1000).more) {
        }
        collect();
        // Fill dead with 1000, then requeue and delete them in bounded calls.
        q.setConfig("max_attempts", "1");
        auto toKill = q.claim(1000, 60000, "limits");
        for (const auto& t : toKill.tasks)
            q.nack(t.id, t.token, "dead on purpose");
        collect();
        q.requeueAll();
        collect();
        toKill = q.claim(1000, 60000, "limits");
        for (const auto& t : toKill.tasks)
            q.nack(t.id, t.token, "dead on purpose");
        q.deleteAllDead();
        collect();
        // A schedule's backfill of the most fires one call makes (1000, each checked against
        // the ranges of fires made and given its jitter), and a run-now.
        Schedules schedules(conn, "big");
        ScheduleRule beat;
        beat.name = "beat";
        beat.everyMs = 1000;
        beat.jitterMs = 500;
        const long long now = conn.serverTimeMs();
        beat.anchorMs = now - 2'000'000;
        schedules.add(beat);
        schedules.backfill("beat", now - 1'001'000, now - 1000);
        schedules.runNow("beat", "limits");
        collect();
        std::printf("purging (bounded calls of the default batch)...\n");
        q.purge();
        collect();
        // The purge kept its tasks in the recycle bin (up to bin_max): a reshard carries the
        // bin's entries to their new homes in calls of 100 (bin_take, bin_put, bin_release),
        // then restore puts them all back in calls of 500 (ScriptBatches).
        std::printf("resharding to 3 (the recycle bin's entries), then restoring them...\n");
        ShardMover mover(q);
        MoveProgress moving = mover.start(3);
        while (!moving.finished) {
            moving = mover.step(100);
            std::this_thread::sleep_for(std::chrono::milliseconds(moving.waitMs));
        }
        q.reloadLayout();
        collect();
        RecycleBin(q).restoreAll();
        collect();

        std::printf("\nslowest call per script on a %lld-task queue (Redis SLOWLOG):\n", total);
        // The machine is shared: one descheduled moment shows up as a max, so the p99 is
        // printed beside it.
        std::printf("%-14s %10s %10s %12s\n", "script", "max (ms)", "p99 (ms)", "calls >0.1ms");
        long long overall = 0;
        std::set<std::string> scriptsRun;
        // Not measured here: the plain-queue scripts, and those that do not run over a batch.
        const std::set<std::string> notMeasured = {
            "plain_pop", "plain_reschedule", "plain_lease",  "plain_settle",
            "config",    "upgrade",          "import_tasks", "heartbeat"};
        for (const auto& [key, name] : names)
            if (!notMeasured.count(name))
                scriptsRun.insert(name);
        for (const auto& name : scriptsRun) {
            auto it = worst.find(name);
            if (it == worst.end()) {
                std::printf("%-14s %10s %10s %12d\n", name.c_str(), "< 0.100", "< 0.100", 0);
                continue;
            }
            auto d = it->second;
            std::sort(d.begin(), d.end());
            const long long p99 = d[std::min(d.size() - 1, d.size() * 99 / 100)];
            std::printf("%-14s %10.3f %10.3f %12zu\n", name.c_str(), d.back() / 1000.0,
                        p99 / 1000.0, d.size());
            overall = std::max(overall, d.back());
        }
        std::printf("slowest: %.3f ms (target < 5 ms)\n", overall / 1000.0);
        if (worst.empty()) {
            std::fprintf(stderr, "scriptlimits: SLOWLOG recorded no script call at all\n");
            return 1;
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "scriptlimits: %s\n", e.what());
        return 1;
    }
    return 0;
}
