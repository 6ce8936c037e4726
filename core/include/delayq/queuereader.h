#pragma once

#include <delayq/auditentry.h>
#include <delayq/connection.h>
#include <delayq/flowstatus.h>
#include <delayq/groupload.h>
#include <delayq/keys.h>
#include <delayq/shardlayout.h>
#include <delayq/task.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace delayq {

class ShardRouter;

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
    // The dead tasks' bytes the dead bound counts (id + record + last error), every shard's
    // (docs/design/bounds.md, since 2.9).
    long long deadBytes();
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
    // The busiest groups of a queue in fair order (at most `limit`, 1..1000), with the counts
    // of its groups: two pipelined round trips of plain reads, bounded whatever the number of
    // groups (GroupLoads::kExamined, kActiveRead). In due order only the first is made and
    // GroupLoads::fair is false. Due tasks are those the index holds: tasks fallen due since
    // the last claim join their group at the next one.
    GroupLoads busyGroups(int limit = 20);
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
    // The tasks with their fields, each read from the shard of the same index, in one round trip.
    std::vector<Task> loadTasks(TaskSet set,
                                const std::vector<std::pair<std::string, long long>>& members,
                                const std::vector<Keys>& shards);
};

} // namespace delayq
