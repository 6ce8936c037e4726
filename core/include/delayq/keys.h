#pragma once

#include <string>
#include <vector>

namespace delayq {

enum class TaskSet;

// The Redis key names of one native queue (docs/design.md, "Redis key layout"). The braces are a
// Redis Cluster hash tag: every key of a queue lands in one slot.
class Keys
{
public:
    // Throws Error(InvalidArgument) for a bad prefix or queue name.
    Keys(std::string prefix, std::string queue);
    // The keys of one shard of a sharded queue (docs/design.md, "Sharded queues"): `tag` is
    // the shard's hash tag, the queue's name for shard 0, "QUEUE#K" or "QUEUE#K.S" for the
    // others ('#' is not allowed in a queue name, so no queue's keys can be a shard's).
    // Throws Error(InvalidArgument) for a tag that is not one of the queue's.
    Keys(std::string prefix, std::string queue, const std::string& tag);

    const std::string& queue() const { return m_queue; }
    const std::string& prefix() const { return m_prefix; }
    // The hash tag between the braces: the queue's name, or a shard's tag.
    const std::string& tag() const { return m_tag; }
    // Whether `tag` names a shard of `queue` (see the constructor).
    static bool isShardTag(const std::string& queue, const std::string& tag);

    std::string pending() const { return m_base + "pending"; }
    std::string active() const { return m_base + "active"; }
    std::string dead() const { return m_base + "dead"; }
    // One of the three above.
    std::string setKey(TaskSet set) const;
    std::string config() const { return m_base + "config"; }
    std::string stats() const { return m_base + "stats"; }
    std::string wake() const { return m_base + "wake"; }
    // The worker registry (heartbeat.lua): name -> live until (ms), and name -> its record.
    std::string workers() const { return m_base + "workers"; }
    std::string workerRecords() const { return m_base + "worker_records"; }
    // The audit trail, a capped stream: scripts build it from config() (docs/design.md).
    std::string audit() const { return m_base + "audit"; }
    // Task data: "created|max_attempts|backoff|payload" in small hashes whose number grows with
    // the queue (lua/buckets.lua; RecordTable computes which one holds an id); run: id ->
    // "attempts|due|token|claimed|worker" once claimed; errors: id -> last error.
    std::string dataPrefix() const { return m_base + "d:"; }
    // The record table's state (lua/buckets.lua): base, level, split, load, migrated.
    std::string dataLayout() const { return m_base + "d:layout"; }
    // A command reading id's record (read_record.lua by EVAL), for a pipeline or a transaction:
    // its reply is the record, or nil, as an HGET's would be. delayq's readers use RecordReads
    // instead (plain HGETs: no +eval for a read-only user).
    std::vector<std::string> recordRead(const std::string& id) const;
    std::string run() const { return m_base + "run"; }
    std::string errors() const { return m_base + "errors"; }
    // Fair order's tags (docs/design/flow.md): id -> "PRIORITY|GROUP", for the tasks pushed
    // with either (lua/common.lua's fair_key('tags')).
    std::string fairTags() const { return m_base + "fl:tags"; }
    // The rest of fair order's index (lua/common.lua's fair_key): "ring", "blocked", "later",
    // "known", "r:" + GROUP (its due tasks), "act:" + GROUP (its running tasks under a cap).
    std::string fair(const std::string& suffix) const { return m_base + "fl:" + suffix; }
    // Expiry (docs/design/bounds.md, since 2.9): id -> start-by ms (0 = never) for the tasks
    // pushed with one (lua/common.lua's expires_key).
    std::string expires() const { return m_base + "expires"; }
    // The dead bound's state (since 2.9, lua/common.lua's dead_key): bytes (the dead tasks'),
    // at and unaudited (its audit entries' pacing).
    std::string deadBound() const { return m_base + "deadbound"; }
    // Finished ids still in their dedup window: id -> ms the window ends (docs/design/keep.md).
    std::string recentlyDone() const { return m_base + "done"; }
    // A push's own dedup window (id -> window ms) and a debounced task's first push (id -> ms),
    // kept while the task lives (lua/common.lua's keep_key('dedup'), keep_key('debounce')).
    std::string dedupWindows() const { return m_base + "dedup"; }
    std::string debounceStarts() const { return m_base + "debounce"; }
    // Task history (docs/design.md, "Task history"): id -> its events, one a line, for the tasks
    // in the queue; the same for the last finished ones, and when each finished (ZSET).
    std::string taskHistory() const { return m_base + "history"; }
    std::string finishedHistory() const { return m_base + "history_done"; }
    std::string finishedHistoryOrder() const { return m_base + "history_done_at"; }
    // Schedules (docs/schedules.md): name -> rule record; name -> next fire (ZSET, those not
    // paused); "NAME|fired", "NAME|skipped", "NAME|last" -> what the fires did (since 2.8 also
    // "NAME|overlapped", "NAME|task", "NAME|open", "NAME|forgot": lua/common.lua); the ranges
    // of fire times a schedule has made (ZSET first fire -> last fire), so a backfill never
    // makes one twice.
    std::string schedules() const { return m_base + "schedules"; }
    std::string scheduleNext() const { return m_base + "schedule_next"; }
    std::string scheduleStats() const { return m_base + "schedule_stats"; }
    std::string scheduleMade(const std::string& name) const
    {
        return m_base + "schedule_made:" + name;
    }
    // Scripts append a minute number to this.
    std::string minutePrefix() const { return m_base + "m:"; }
    std::string minute(long long minuteNumber) const
    {
        return minutePrefix() + std::to_string(minuteNumber);
    }
    // Where delayq before layout 2 kept each task (a hash per task); only `upgrade` reads it.
    std::string oldTaskPrefix() const { return m_base + "t:"; }
    // Tasks a reshard holds while it copies them to their new shard: id -> target shard
    // (shard_take.lua, shard_release.lua).
    std::string moving() const { return m_base + "moving"; }
    // The recycle bin (docs/design/bin.md, lua/common.lua's bin_key): id -> entry; id ->
    // removed ms (ZSET); action -> "kind|removed ms|audit entry"; an action's ids (ZSET).
    std::string bin() const { return m_base + "bin"; }
    std::string binAt() const { return m_base + "bin_at"; }
    std::string binActions() const { return m_base + "bin_actions"; }
    std::string binAction(const std::string& action) const { return m_base + "bin:a:" + action; }

    // The set of known queue names (outside any queue's slot).
    static std::string queues(const std::string& prefix) { return prefix + ":queues"; }

    // Each throws Error(InvalidArgument) saying what is wrong.
    static void validateQueueName(const std::string& name);
    static void validateTaskId(const std::string& id);
    static void validatePrefix(const std::string& prefix);

private:
    std::string m_prefix;
    std::string m_queue;
    std::string m_tag;
    std::string m_base;
};

} // namespace delayq
