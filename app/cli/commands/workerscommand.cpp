#include "commands/commands.h"
#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/queuesnapshot.h>
#include <delayq/timeparse.h>
#include <delayq/workerregistry.h>

#include <algorithm>

namespace cli {

namespace {

// The line a queue gets under the table when its consumers need a look; "" when they do not.
std::string consumerWarning(const delayq::QueueSnapshot& s, delayq::ConsumerState state)
{
    switch (state) {
    case delayq::ConsumerState::NoConsumer:
        return printable(s.name) + ": no consumer: " + std::to_string(s.counts.dueNow) +
               " due, oldest " + delayq::formatDuration(s.oldestOverdueMs) + " late";
    case delayq::ConsumerState::Stalled:
        return printable(s.name) + ": stalled: a live worker holds tasks and acked none for " +
               delayq::formatDuration(delayq::WorkerRegistry::kStalledMs);
    case delayq::ConsumerState::Ok:
        break;
    }
    return {};
}

void writeJson(Context& ctx, const std::vector<delayq::WorkerInfo>& workers,
               const std::vector<delayq::QueueSnapshot>& snapshots,
               const std::vector<delayq::ConsumerState>& states, long long now)
{
    JsonWriter j;
    j.beginObject().field("server_now", now).key("workers").beginArray();
    for (const auto& w : workers)
        j.beginObject()
            .field("queue", w.queue)
            .field("plain", w.plain)
            .field("name", w.name)
            .field("live", w.live)
            .field("host", w.host)
            .field("pid", w.pid)
            .field("version", w.version)
            .field("handler", w.handler)
            .field("threads", static_cast<long long>(w.threads))
            .field("started", w.startedMs)
            .field("last_seen", w.lastSeenMs)
            .field("held", w.held)
            .field("acked", w.acked)
            .field("failed", w.failed)
            .field("last_ack", w.lastAckMs)
            .field("stalled", w.stalled(now))
            .field("lateness_p99_ms", w.latenessP99Ms)
            .endObject();
    j.endArray().key("queues").beginArray();
    for (size_t i = 0; i < snapshots.size(); ++i)
        j.beginObject()
            .field("queue", snapshots[i].name)
            .field("consumers", snapshots[i].consumers)
            .field("due_now", snapshots[i].counts.dueNow)
            .field("oldest_overdue_ms", snapshots[i].oldestOverdueMs)
            .field("consumer_state", delayq::consumerStateName(states[i]))
            .endObject();
    j.endArray().endObject();
    ctx.printJson(j);
}

// Whole seconds: a worker seen once has been up "<1s", not "0ms".
std::string upTime(long long ms)
{
    return ms < 1000 ? "<1s" : delayq::formatDuration(ms / 1000 * 1000);
}

std::string workerTable(const std::vector<delayq::WorkerInfo>& workers, long long now)
{
    TextTable table({"QUEUE", "WORKER", "STATE", "HOST", "PID", "HANDLER", "THREADS", "UP", "SEEN",
                     "HELD", "ACKED", "FAILED", "LATE P99"});
    for (const auto& w : workers)
        table.addRow({printable(w.queue) + (w.plain ? " (plain)" : ""), printable(w.name),
                      w.stalled(now) ? "stalled"
                      : w.live       ? "live"
                                     : "gone",
                      printable(w.host), std::to_string(w.pid), printable(w.handler),
                      std::to_string(w.threads),
                      upTime((w.live ? now : w.lastSeenMs) - w.startedMs),
                      formatAgo(w.lastSeenMs, now), std::to_string(w.held), std::to_string(w.acked),
                      std::to_string(w.failed), delayq::formatDuration(w.latenessP99Ms)});
    return table.render();
}

} // namespace

int runWorkers(Context& ctx)
{
    ctx.args().parse({}, ctx.global().plain ? 1 : 0, 1);
    auto& conn = ctx.connection();
    const std::string& prefix = ctx.global().prefix;
    // Plain keys' consumers are listed after the queues': every plain key with a consumer
    // that beat lately when no name is given, or the one --plain names.
    std::vector<std::string> names;
    std::vector<std::string> plainKeys;
    if (ctx.global().plain) {
        plainKeys = ctx.args().positional();
    } else if (ctx.args().positional().empty()) {
        names = delayq::Queue::listQueues(conn, prefix);
        std::sort(names.begin(), names.end());
        plainKeys = delayq::WorkerRegistry::plainKeysWithWorkers(conn, prefix);
    } else {
        names = ctx.args().positional();
        delayq::Keys::validateQueueName(names.front());
    }
    delayq::WorkerRegistry registry(conn, prefix);
    auto workers = registry.read(names);
    const auto plainWorkers = registry.readPlain(plainKeys);
    workers.insert(workers.end(), plainWorkers.begin(), plainWorkers.end());
    delayq::QueueSnapshotReader reader(conn, prefix);
    const auto snapshots = reader.read(names, false);
    const long long now = registry.nowMs();
    std::vector<delayq::ConsumerState> states;
    std::string warnings;
    for (const auto& s : snapshots) {
        states.push_back(delayq::consumerState(s, workers, now));
        const std::string warning = consumerWarning(s, states.back());
        if (!warning.empty())
            warnings += warning + "\n";
    }
    const bool needsLook = !warnings.empty();
    if (ctx.json()) {
        writeJson(ctx, workers, snapshots, states, now);
    } else {
        ctx.print(workers.empty() ? std::string("no workers\n") : workerTable(workers, now));
        if (!warnings.empty())
            ctx.print(warnings);
    }
    return needsLook ? ExitRefused : ExitOk;
}

} // namespace cli
