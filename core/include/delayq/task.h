#pragma once

#include <delayq/flowstatus.h>
#include <delayq/taskhistory.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace delayq {

// Where a task is in its life (docs/design.md, "Task life").
enum class TaskSet
{
    Pending,
    Active,
    Dead
};
const char* taskSetName(TaskSet set);

// One task as read back from Redis. Times are ms since the Unix epoch (UTC).
struct Task
{
    std::string id;
    std::string payload; // binary-safe
    long long score = 0; // in the set it was read from: due / lease deadline / time died
    long long due = 0;
    long long created = 0;
    int attempts = 0;
    int maxAttempts = 0;
    std::string backoff; // normalized: "5000,20000" (ms) or "exp:BASE_MS:MAX_MS"
    std::string worker;
    std::string lastError;
    std::string state; // pending | active | dead
    // The id is in a set but its hash is missing or holds garbage: shown, deletable, never a crash.
    bool broken = false;
    // Fair order's tags (PushRequest::priority, group), read from fl:tags: 0 and "" when the
    // task was pushed without them.
    int priority = 0;
    std::string group;
    // Read only where asked for (an export, `show --history`): the page reads leave it empty.
    std::vector<TaskEvent> history;
    // When a claim would no longer start it (since layout 2.9): its own start-by time, else
    // created + the queue's max_age; empty when it never expires.
    std::optional<long long> expiresAt;
};

struct PushRequest
{
    std::string payload;
    std::optional<long long> dueAtMs; // absolute due time; else delayMs from server now
    long long delayMs = 0;
    std::string id;       // empty: generated (time-sortable)
    bool replace = false; // an existing id is replaced instead of reported as exists
    int maxAttempts = 0;  // 0: the queue's default
    std::string backoff;  // user form ("5s,20s,30s" or "exp:1s:5m"); empty: the queue's default
    // Fair order (docs/design/flow.md), for a queue whose config order is "fair": among due
    // tasks a higher priority (-9..9) goes first; groups (up to 128 bytes of letters, digits
    // and _.:@/-; empty = none) are handed out in turn.
    int priority = 0;
    std::string group;
    // Keep (docs/design/keep.md, since layout 2.9). dedupMs > 0: the id stays refused
    // (RecentlyDone) that long after the task is acked or dies (0: the queue's dedup_window).
    long long dedupMs = 0;
    // debounceMaxWaitMs > 0: an existing pending task moves to this push's due time, never
    // earlier and never past its first push + this; a held one gets one follow-up. With
    // debouncePayload its payload becomes this push's too. Not with replace.
    long long debounceMaxWaitMs = 0;
    bool debouncePayload = false;
    // Expiry (docs/design/bounds.md, since layout 2.9): a task claimed after its start-by time
    // never runs (dead with "expired before it started", or dropped: the queue's expired_to).
    // expiresAtMs: an absolute start-by time; maxAgeMs > 0: server now at the push + this.
    // At most one of them; either must come after the due time.
    std::optional<long long> expiresAtMs;
    long long maxAgeMs = 0;
};

struct PushResult
{
    // Active: replace refused because a worker holds the task.
    enum class Status
    {
        Created,
        Exists,
        Replaced,
        TooLarge,
        Active,
        RecentlyDone, // the id finished within its dedup window: due is when the window ends
        Debounced,    // the pending task moved: due is its new due time
        FollowUp      // a worker holds the task: due is its one follow-up's
    };
    std::string id;
    Status status = Status::Created;
    long long due = 0;
};
const char* pushStatusName(PushResult::Status status);
// The status a script reply names ("exists"); an unknown word reads as Created.
PushResult::Status pushStatusFromName(const std::string& name);

// A task handed to a worker. The token proves the lease in ack/nack/extend.
struct ClaimedTask
{
    std::string id;
    std::string payload;
    long long due = 0;
    int attempts = 0; // including this one
    int maxAttempts = 0;
    std::string token;
    long long leaseDeadline = 0;
};

struct ClaimResult
{
    std::vector<ClaimedTask> tasks;
    std::optional<long long> nextDue; // earliest due time still pending, if any
    long long serverNow = 0;
    bool paused = false;
};

// Per-id result of a bulk operation (cancel, reschedule, requeue, delete dead).
struct IdResult
{
    enum class Status
    {
        Done,
        NotFound,
        Active,
        Dead,
        Pending,
        Exists, // restore: a task with this id is in the queue again (refused)
        Moved   // restore: a reshard since the removal made another shard the id's home (refused)
    };
    std::string id;
    Status status = Status::Done;
};
const char* idStatusName(IdResult::Status status);
// A script's status word back to the status; anything unknown is NotFound.
IdResult::Status idStatusFromName(const std::string& name);

struct NackResult
{
    bool dead = false;
    long long when = 0; // retry due time, or time died
};

struct ReapResult
{
    int requeued = 0;
    int dead = 0;
    bool more = false; // the bound was hit: call again
};

struct BulkResult
{
    long long done = 0;
    long long remaining = 0;
};

struct QueueCounts
{
    long long pending = 0;
    long long dueNow = 0;
    long long active = 0;
    long long dead = 0;
    // The part of active whose lease deadline has passed (server now): its worker died or
    // hung, and no reap has taken it back yet. Not a state of its own, as dueNow is not.
    long long leaseExpired = 0;
};

struct QueueConfig
{
    int maxAttempts = 5;
    std::string backoff = "5000,20000,30000"; // normalized form
    long long leaseMs = 30000;
    long long maxPayload = 1024 * 1024;
    bool paused = false;
    long long auditLen = 10000; // the audit trail is trimmed to about this many entries
    int history = 0;            // events kept per task (docs/design.md, "Task history"); 0 = off
    int shards = 1;             // shards new tasks spread over (docs/design.md, "Sharded queues")
    // Flow control (docs/design/flow.md): at most rateTasks started per rateMs (0 = no rate),
    // at most burst at once (0 = rateTasks); at most cap tasks active at once (0 = no cap).
    long long rateTasks = 0;
    long long rateMs = 0;
    long long burst = 0;
    long long cap = 0;
    bool fair = false;            // order "fair": groups in turn, then priority, then due time
    long long groupCap = 0;       // tasks of one group active at once (0 = none)
    long long groupRateTasks = 0; // each group: at most this many started per groupRateMs
    long long groupRateMs = 0;    // (burst: groupRateTasks); 0 = no group rate
    // Keep (docs/design/keep.md): finished ids refused this long (0 = off), at most dedupMax.
    long long dedupWindowMs = 0;
    long long dedupMax = 1000000;
    // Dead tasks bounded (docs/design/bounds.md): at most deadMax tasks and deadMaxBytes bytes
    // (id + record + last error) in dead, the oldest dropped first; 0 = no bound. On a sharded
    // queue each shard keeps its share (the bound / shards).
    long long deadMax = 100000;
    long long deadMaxBytes = 64LL * 1024 * 1024;
    // Expiry: a task not started within maxAgeMs of its push never runs (0 = none); it goes
    // to dead with the reason, or is dropped when expiredToDrop.
    long long maxAgeMs = 0;
    bool expiredToDrop = false;
    // The recycle bin (docs/design/bin.md): what cancel, purge and delete of dead tasks remove
    // stays restorable binKeepMs, at most binMax tasks and binBytes bytes; any 0 = off.
    long long binKeepMs = 86400000;
    long long binMax = 100000;
    long long binBytes = 64LL * 1024 * 1024;
};

// Counters: pushed, claimed, acked, retried, died, cancelled, expired (leases that ran out),
// and broken (ids whose data was missing or garbled when they came due; they went to dead);
// since 2.9 dead_dropped (dead tasks the dead bound dropped), expired_unstarted (tasks claimed
// after their start-by time: never run). The dead tasks' bytes are QueueReader::deadBytes().
using Counters = std::map<std::string, long long>;

struct MinuteCounters
{
    long long minute = 0; // ms since epoch / 60000
    Counters counters;
};

struct QueueSummary
{
    std::string name;
    QueueCounts counts;
    // The flow limits, fair order's settings and what holds the queue back now, judged as
    // QueueReader::flowStatus() judges them (startsPerMinute is not read: 0).
    FlowStatus flow;
};

} // namespace delayq
