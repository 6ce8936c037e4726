#pragma once

#include <delayq/keys.h>

#include <delayq/connection.h>
#include <delayq/flowstatus.h>
#include <delayq/plainqueue.h>
#include <delayq/task.h>

#include <array>
#include <string>
#include <vector>

namespace delayq {

// What a dashboard shows of one queue: its counts, how late the earliest pending task is,
// its counters, whether it is paused, and (when asked) what it acked and failed per minute
// over the last hour.
struct QueueSnapshot
{
    static constexpr int kMinutes = 60;

    std::string name;
    std::string node; // on a Redis Cluster: host:port of the master holding the queue's slot
    QueueCounts counts;
    long long oldestOverdueMs = 0; // 0 when nothing is overdue
    // Schedules (docs/schedules.md): whether one will fire, and how late the earliest unfired
    // fire is (0 when none is late).
    bool hasSchedules = false;
    long long scheduleLagMs = 0;
    Counters counters; // cumulative, every counter present (0 when never written)
    bool paused = false;
    // Workers whose last heartbeat is still live (<delayq/workerregistry.h>).
    long long consumers = 0;
    // Oldest minute first, the current (partial) minute last. Failed = died + retried: every
    // attempt a worker did not finish, whether or not the task gets another one.
    std::array<long long, kMinutes> ackedPerMinute{};
    std::array<long long, kMinutes> failedPerMinute{};
    bool hasHistory = false;
    // The flow limits and what they hold back now (issue 51), judged as
    // QueueReader::flowStatus() judges them; startsPerMinute is not read here (0). Fair order
    // and its group limits too (flow.fair), but not the groups (QueueReader::busyGroups).
    FlowStatus flow;
    // The dead bound (docs/design/bounds.md, since 2.9): 0 = none; deadBytes, the dead tasks'
    // bytes it counts now; deadBoundUse() is how full the fuller of the two is.
    long long deadMax = 100000;
    long long deadMaxBytes = 64LL * 1024 * 1024;
    long long deadBytes = 0;
    double deadBoundUse() const;

    long long ackedLastMinute() const { return ackedPerMinute.back(); }
    long long failedLastMinute() const { return failedPerMinute.back(); }
    long long ackedLastHour() const;
    long long failedLastHour() const;
};

// Reads many queues in one pipeline (split per master on a cluster, every batch sent before
// any is read): per queue 8 O(1) or O(log n) commands a shard and 3 more, plus 60 HMGETs of
// the minute counters with history, so the cost grows with the number of queues and never
// with their sizes.
class QueueSnapshotReader
{
public:
    // At most this many queues per call: 67 commands each with history is ~4,000 commands,
    // a few hundred KiB of replies at most, still one write and one read per master.
    static constexpr size_t kMaxQueuesPerCall = 10000;

    QueueSnapshotReader(Connection& connection, std::string prefix);

    // Names that are no queue name, or whose keys have another type, are left out and
    // counted in skipped(). Throws delayq::Error when Redis cannot be read at all.
    std::vector<QueueSnapshot> read(const std::vector<std::string>& names, bool withHistory);
    // Every queue registered under the prefix (up to `limit`), in name order.
    std::vector<QueueSnapshot> readAll(bool withHistory, int limit = 10000);
    // Plain sorted sets (key, unit of its scores), 3 commands each in one pipeline: the
    // snapshot's name is the key, and only counts.pending (ZCARD), counts.dueNow and
    // oldestOverdueMs are set. A key that is no longer a sorted set is left out and counted
    // in skipped().
    using PlainKey = std::pair<std::string, PlainQueue::ScoreUnit>;
    std::vector<QueueSnapshot> readPlain(const std::vector<PlainKey>& keys);
    size_t skipped() const { return m_skipped; }

private:
    void requireBounded(size_t count) const;
    void parse(const std::string& name, const Reply* r, long long nowMs, bool withHistory,
               QueueSnapshot& out) const;
    // A shard's counts, counters and (withHistory) minute counters added to the snapshot.
    void addShard(const Reply* r, long long nowMs, bool withHistory, QueueSnapshot& out) const;
    static void addMinuteCounters(const Reply* r, QueueSnapshot& out);
    static void addShardReads(std::vector<std::vector<std::string>>& commands, const Keys& keys,
                              const std::string& now);
    static void addMinutes(std::vector<std::vector<std::string>>& commands, const Keys& keys,
                           long long currentMinute, size_t minutes);

    Connection& m_connection;
    std::string m_prefix;
    size_t m_skipped = 0;
};

} // namespace delayq
