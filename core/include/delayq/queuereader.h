#pragma once

#include <delayq/auditentry.h>
#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/shardlayout.h>
#include <delayq/task.h>
#include <delayq/timeparse.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace delayq {

class ShardRouter;

// What a queue's flow limits (its rate and cap, docs/design/flow.md) are doing now, for stats,
// the exporter and the app's Overview: QueueReader::flowStatus().
struct FlowStatus
{
    long long serverNowMs = 0;
    // The limits as configured (0 = none): rateTasks per rateMs, burst (0 = rateTasks), cap.
    long long rateTasks = 0;
    long long rateMs = 0;
    long long burst = 0;
    long long cap = 0;
    bool paused = false;
    // The most recent claim a limit held back (any shard): "rate" | "cap", and when (server
    // ms); "" and 0 when none has yet.
    std::string heldBy;
    long long heldAtMs = 0;
    // Held back now: a limit held a due task within the last max(2 s, 2 x the rate's
    // interval), or the cap is taken by live leases while tasks are due; never while paused,
    // nothing is due, or the limit named is off. heldNowBy: "rate" | "cap" ("" when not held).
    bool heldNow = false;
    std::string heldNowBy;
    // Due tasks waiting (pending, due at or before now) and live leases (active, deadline
    // after now), summed over the shards.
    long long dueWaiting = 0;
    long long activeLive = 0;
    // Tasks started in the last 60 s, estimated from the per-minute "claimed" counters: the
    // current minute's and the share of the previous minute still inside the window.
    long long startsPerMinute = 0;

    bool limited() const { return rateTasks > 0 || cap > 0; }
    long long effectiveBurst() const { return burst > 0 ? burst : rateTasks; }
    // Tasks per second the rate allows (0 without one).
    double ratePerSecond() const
    {
        return rateTasks > 0 && rateMs > 0 ? static_cast<double>(rateTasks) * 1000.0 / rateMs : 0;
    }
    // The rate as people write it: "50/s", "3000/m", "2/h", "5/250ms", "1/1m 30s"; "" when off.
    static std::string rateText(long long tasks, long long ms)
    {
        if (tasks <= 0 || ms <= 0)
            return {};
        const std::string n = std::to_string(tasks) + "/";
        if (ms == 1000)
            return n + "s";
        if (ms == 60000)
            return n + "m";
        if (ms == 3600000)
            return n + "h";
        return n + formatDuration(ms);
    }
    std::string rateText() const { return rateText(rateTasks, rateMs); }
};

// The reads of one native queue, for the admin app and the CLI: plain pipelined commands,
// never scripts, so a read-only ACL user can still look. Queue (queue.h) adds the writes.
// Synchronous: the Connection's thread is the caller's thread. Throws Error.
// A sharded queue (docs/design.md, "Sharded queues") reads as one: counts and counters are
// summed over its shards, pages merged in due order, and a task is looked for in its home
// shard first, then in the others.
class QueueReader
{
public:
    // Throws Error(InvalidArgument) for a bad name or prefix (Keys).
    QueueReader(Connection& connection, const std::string& name, const std::string& prefix = "dq");
    QueueReader(const QueueReader& other);
    QueueReader(QueueReader&& other) noexcept;
    ~QueueReader();

    // The keys of shard 0: those of the queue itself when it is not sharded.
    const Keys& keys() const { return m_keys; }
    const std::string& name() const { return m_keys.queue(); }
    Connection& connection() { return m_connection; }

    // --- shards
    // The layout the queue's config records, read again when the copy is over a second old
    // (pages, counts and operations by id route by the last copy any of the process's queues
    // read, and read the layout beside: docs/design/sharding.md).
    const ShardLayout& layout();
    // Read again now.
    const ShardLayout& reloadLayout();
    // Shards to look at: every one in layout().tags (1 when not sharded).
    size_t shardCount();
    const Keys& shardKeys(size_t shard);
    // A reader of that shard alone, as if it were an unsharded queue.
    QueueReader shardReader(size_t shard);

    QueueCounts counts();
    Counters stats();
    // Per-minute counters for [fromMinute, toMinute] (minute = ms / 60000), pipelined.
    std::vector<MinuteCounters> history(long long fromMinute, long long toMinute);
    // Pending tasks per bucket: `buckets` equal buckets between fromMs and toMs, one ZCOUNT
    // each in one pipeline, so the cost does not grow with the queue.
    std::vector<long long> histogram(long long fromMs, long long toMs, int buckets);
    // Pending tasks due at or before ms: with the server's now, the overdue ones (counted as
    // "due now" counts them).
    long long dueBy(long long ms);
    // Tasks of a set by rank (0 = earliest), with their fields.
    std::vector<Task> page(TaskSet set, long long offset, long long limit);
    // Tasks of a set with score >= fromScore.
    std::vector<Task> pageFromScore(TaskSet set, long long fromScore, long long limit);
    // Rank of the first task with score >= score (for "jump to time").
    long long rankOfScore(TaskSet set, long long score);
    // Rank of the task in its set; nullopt when the set does not hold it.
    std::optional<long long> rankOf(TaskSet set, const std::string& id);
    // Score of the task in the set (pending: its due ms); nullopt when the set does not hold it.
    std::optional<long long> scoreOf(TaskSet set, const std::string& id);
    long long size(TaskSet set);
    std::optional<long long> earliest(TaskSet set);
    // Which set holds the id, and all its fields; nullopt when it is nowhere.
    std::optional<std::pair<TaskSet, Task>> find(const std::string& id);
    // The task's recorded events (docs/design.md, "Task history"): those of the task in the
    // queue, else those kept since it finished; none when history was off or it is unknown.
    TaskHistory taskHistory(const std::string& id);

    // Queue names registered under a prefix (SSCAN, bounded).
    static std::vector<std::string> listQueues(Connection& connection,
                                               const std::string& prefix = "dq", int limit = 10000);
    static std::vector<QueueSummary> summaries(Connection& connection,
                                               const std::vector<std::string>& names,
                                               const std::string& prefix = "dq");

    // --- config
    QueueConfig config();
    // The flow limits and what they hold back now (FlowStatus), every shard read in one
    // pipelined round trip (with the layout read beside it).
    FlowStatus flowStatus();
    // The audit trail, newest first (AuditLog::read): entries at or after sinceMs, at most limit.
    std::vector<AuditEntry> audit(long long sinceMs = 0, int limit = 100);

    // --- layout (docs/design.md, "Redis key layout")
    // True when tasks of the queue are stored in the layout of an older delayq (a hash per
    // task), or an upgrade was started and not finished. Looks at the first and last task of
    // each set: a bounded check, not a scan.
    bool needsUpgrade();
    // Throws Error(OldLayout), saying how to upgrade, when needsUpgrade().
    void requireCurrentLayout();

protected:
    // A reader of one shard: its layout is that shard alone.
    QueueReader(Connection& connection, const Keys& shard);
    // A reader of one shard (shardReader, Queue::shardQueue), not of the whole queue.
    bool isShardReader() const;
    // The shards in the order to look for an id: its home first.
    std::vector<size_t> searchOrder(const std::string& id);

    Connection& m_connection;
    Keys m_keys;
    // The layout and the routing over it (core/shard/shardrouter.h).
    std::unique_ptr<ShardRouter> m_router;

private:
    // HGETs of a task's record, run entry and last error, in the order fillTask takes them.
    static std::vector<std::vector<std::string>> taskReads(const Keys& keys, const std::string& id);
    // The tasks with their fields, each read from the shard of the same index, in one round trip.
    std::vector<Task> loadTasks(TaskSet set,
                                const std::vector<std::pair<std::string, long long>>& members,
                                const std::vector<Keys>& shards);
};

} // namespace delayq
