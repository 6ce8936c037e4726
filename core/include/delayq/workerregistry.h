#pragma once

#include <delayq/connection.h>
#include <delayq/queuesnapshot.h>

#include <string>
#include <vector>

namespace delayq {

// One worker of a queue as its last heartbeat described it (docs/design.md, "Workers").
// Times are ms on the Redis clock; figures are since the worker started.
struct WorkerInfo
{
    std::string queue;
    std::string name;
    std::string host;
    std::string version;
    std::string handler; // what it runs: ack, exec, amqp, webhook, pipe, simulated, library...
    long long pid = 0;
    int threads = 0;
    long long startedMs = 0;
    long long lastSeenMs = 0;
    long long liveUntilMs = 0; // no beat by then: gone
    long long intervalMs = 0;  // between its beats
    long long held = 0;        // tasks claimed and not finished
    long long acked = 0;
    long long failed = 0;
    long long lastAckMs = 0; // about when its acked count last grew (to a beat); 0: never
    long long latenessP99Ms = 0;
    bool live = false; // liveUntilMs is still ahead of the server's now
    // A plain key's consumer (WorkerRegistry::readPlain): `queue` is the key's name, and
    // `handler` says how it consumes: "lease:KIND" (a forwarder: at least once) or "pop:KIND"
    // (at most once).
    bool plain = false;
    bool atLeastOnce() const { return plain && handler.rfind("lease:", 0) == 0; }

    // Live, holding tasks, and nothing acked for WorkerRegistry::kStalledMs since it started
    // or last acked.
    bool stalled(long long nowMs) const;
};

// The record a heartbeat stores after its last_seen (heartbeat.lua): every field but the host
// is free of '|', and the host comes last.
std::string workerRecordText(const WorkerInfo& info);
// Fills info from a stored "last_seen|record"; false when the text is not one.
bool parseWorkerRecord(const std::string& stored, WorkerInfo& info);

// Reads the worker registries of queues: two commands per queue in one pipeline, never a
// SCAN, so the cost grows with the number of queues and of their listed workers only. A
// worker gone for more than kGoneKeptIntervals of its interval is left out, whether or not a
// beat of another worker has removed it from Redis yet.
class WorkerRegistry
{
public:
    // A worker is gone once it missed this many beats in a row, and dropped this many after.
    static constexpr int kLiveIntervals = 3;
    static constexpr int kGoneKeptIntervals = 20;
    // A live worker that holds tasks and acked none for this long is stalled.
    static constexpr long long kStalledMs = 5 * 60 * 1000;

    WorkerRegistry(Connection& connection, std::string prefix = "dq");

    // The workers of each queue, live ones first, then by name; a name that is no queue
    // name is skipped. Throws delayq::Error when Redis cannot be read.
    std::vector<WorkerInfo> read(const std::vector<std::string>& queues);
    // The same for plain keys (PlainKeys::workers()): their consumers, with `plain` set.
    std::vector<WorkerInfo> readPlain(const std::vector<std::string>& plainKeys);
    // The plain keys whose consumers beat lately (PlainKeys::plainKeys), sorted.
    static std::vector<std::string> plainKeysWithWorkers(Connection& connection,
                                                         const std::string& prefix = "dq");
    // The server's now of the last read (ms), to say how long ago a worker was seen.
    long long nowMs() const { return m_nowMs; }

private:
    struct Registry
    {
        std::string name; // the queue's, or the plain key's
        std::string workers;
        std::string records;
    };
    std::vector<WorkerInfo> readRegistries(const std::vector<Registry>& registries, bool plain);

    Connection& m_connection;
    std::string m_prefix;
    long long m_nowMs = 0;
};

// What a queue's consumers say about it (docs/design.md, "Workers"): NoConsumer when tasks are
// due, the queue is not paused, no flow limit holds them back (queue.flow.heldNow) and no
// worker is live; Stalled when a live worker of it is.
enum class ConsumerState
{
    Ok,
    NoConsumer,
    Stalled
};
// workers: those of this queue (others are ignored).
ConsumerState consumerState(const QueueSnapshot& queue, const std::vector<WorkerInfo>& workers,
                            long long nowMs);
const char* consumerStateName(ConsumerState state); // "ok", "no_consumer", "stalled"

} // namespace delayq
