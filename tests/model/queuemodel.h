#pragma once

#include "modelop.h"
#include "plainmodel.h"

#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/schedule.h>
#include <delayq/task.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// A reference model of one native queue, kept beside a real one: every op is applied to the
// server through the public API, its reply is checked against what the model says it must be,
// the model takes the change, and then the whole server (every shard's sets, run entries,
// records and counters) is compared with the model. Three workers ("w0".."w2") hold leases;
// nothing runs in the background, so every expectation is exact: a lease runs out only when
// a Kill op shortens it and reaps.
//
// The promises checked after every op:
//  - each id is at most once in pending ∪ active ∪ dead over every shard;
//  - the server holds exactly the model's tasks, each in the model's set, with its due time,
//    lease token, attempts and payload (so `nx` never changed one and `replace` replaced one);
//  - nothing is claimed before it is due or claimed twice while a lease holds;
//  - with no reshard under way, every task is in its home shard (a schedule's fires are
//    written to shard 0: docs/protocol.md, section 8);
//  - the counters equal the model's;
//  - keep (docs/design/keep.md): a finished id is refused (recently_done) while its dedup window
//    runs, through reshards too; a debounced push moves a pending task never earlier
//    and never past its first push + the maximum wait, and a task a worker holds gets exactly
//    one follow-up, started when it is acked or in its place when it fails;
//  - a task past its start-by time is never handed out: it goes to dead, counted;
//  - dead keeps at most its bound, the oldest dropped first and counted (one shard);
//  - cancel, delete dead and purge keep what they remove in the recycle bin, and a restore
//    brings back exactly that task (payload, attempts, set, due time or time of death), never
//    over a task that has its id again.
class QueueModel
{
public:
    QueueModel(delayq::Connection& connection, const std::string& queue);

    // Empty when the op did what the model said and the server then equalled the model;
    // else what differed.
    std::string apply(const ModelOp& op);
    // Finishes a reshard under way, lets every pending task fall due, claims and acks them
    // all: every one must come out exactly once. Same reply as apply().
    std::string drain();

    static constexpr int kWorkers = 3;
    static constexpr int kMaxAttempts = 3;

private:
    struct Task
    {
        std::string payload;
        std::string state; // pending | active | dead
        long long due = 0;
        int attempts = 0;
        std::string token; // while active
        int worker = -1;   // while active
        std::string group; // fair order's group ("" = none) and priority
        int priority = 0;
        bool groupSlot = false; // while active: claimed under a group cap (holds a slot)
        int groupEpoch = 0;     // ... and the m_groupEpoch it was claimed in
        size_t shard = 0;       // where verify() last found it
        bool ownWindow = false; // pushed with its own dedup window
        // A debounced task's first push, between lo and hi (server ms); unknown (0, 0) when
        // the task was never debounced or moved shards since (the start does not travel).
        long long firstLo = 0, firstHi = 0;
        struct FollowUp
        {
            std::string payload;
            long long due = 0;
            long long firstLo = 0, firstHi = 0;
        };
        std::optional<FollowUp> follow; // while active
        long long expiresAt = 0;        // start-by ms (0 = none)
        long long diedAt = 0;           // while dead: its time of death (the dead set's score)
    };
    struct BinEntry
    {
        Task task; // as it was when removed
        size_t shard = 0;
        uint64_t removal = 0; // the model's order of removals: a newer one wins
    };
    uint64_t m_removals = 0;
    using Pair = std::pair<std::string, std::string>; // id, lease token

    void run(const ModelOp& op);
    void push(const ModelOp& op, bool replace);
    void import(const ModelOp& op);
    void claim(const ModelOp& op);
    void ack(const ModelOp& op);
    void nack(const ModelOp& op);
    void extend(const ModelOp& op);
    void kill(const ModelOp& op);
    void byIds(const ModelOp& op);
    void purge();
    void reshardStart(const ModelOp& op);
    void reshardSteps(int steps, int batch);
    void scheduleTick();
    void pauseOrResume();
    void limit(const ModelOp& op);
    void order(const ModelOp& op);
    void pushDebounce(const ModelOp& op);
    void dedupWindow(const ModelOp& op);
    void trace(const ModelOp& op) const;
    void deadBound(const ModelOp& op);
    void restore(const ModelOp& op);
    void upgrade(const ModelOp& op);
    // Claim's expired tasks: those the server sent to dead (read back), checked and taken.
    // Returns how many.
    long long takeExpired(long long now);
    // The task died at the server's score for it; the bound then drops the oldest.
    void died(const std::string& id, long long at);
    void deadTrim();
    long long deadScore(const std::string& id);
    void toBin(const std::string& id);
    // The task finished (acked or dead): refused from now on in its shard, if a window holds.
    void remember(const std::string& id);
    // Its follow-up becomes the pending task (ack, or in its place when it fails).
    void startFollowUp(const std::string& id);
    // A push of an id the model does not hold: whether the server must refuse it as recently done.
    bool refusedAsDone(const std::string& id);
    // Fair order, after a claim on one shard: a group's tasks went highest rank first, none
    // over its cap, and a claim that took fewer than allowed left only tasks of full groups.
    void checkFairClaim(const delayq::ClaimResult& r, long long allowed, bool oneShard);
    void resyncBucket();
    void restartRateWindow(long long since);
    // How many tasks a claim of `max` may take on a queue of one shard by the flow limits
    // (claimed tasks before it: `live`), with the rate's bucket brought to `now`.
    long long flowAllows(long long max, long long live, long long now);
    // After a claim: the one-shard bucket as claim.lua leaves it; on any layout, the shard
    // that handed out tasks is within its share of the cap.
    void checkFlowAfterClaim(const delayq::ClaimResult& r, long long allowed, bool limited,
                             long long due);
    void verify();
    void verifyPayloads();
    void verifyCounters();

    // The id pool: short ids and two of the longest allowed (256 bytes).
    const std::string& pickId(uint32_t r) const;
    // A lease the worker holds or held: its held ones first, then ones it lost.
    std::vector<Pair> pairsOf(int worker) const;
    // One of the pairs of worker op.a (mod kWorkers), by op.b; none when it has none.
    std::optional<Pair> pickPair(const ModelOp& op) const;
    bool holds(const Pair& pair) const;
    void lose(const std::string& id);
    // The pending score of the id on the server (requeue and reap set "now").
    long long pendingScore(const std::string& id);
    void count(const std::string& counter, long long n = 1) { m_counters[counter] += n; }

    delayq::Connection& m_connection;
    delayq::Queue m_queue;
    std::vector<std::string> m_ids;
    std::map<std::string, Task> m_tasks;
    std::map<std::string, long long> m_counters;
    std::vector<Pair> m_lost[kWorkers]; // leases each worker lost: its acks must be refused
    long long m_now = 0;                // the latest server time seen
    delayq::ScheduleRule m_schedule;    // fires every second into the queue
    long long m_nextFire = 0;
    bool m_paused = false;
    // The queue's flow limits (0 = none) and, on one shard, its rate's token bucket as
    // claim.lua keeps it (bucketKnown false while it cannot be followed: sharded or moving).
    struct Flow
    {
        long long cap = 0;
        long long rateTasks = 0;
        long long rateMs = 0;
        long long burst = 0;
        bool bucketKnown = true;
        bool bucketSet = false;
        double tokens = 0;
        double nowTokens = 0; // the bucket brought to the claim's now (flowAllows)
        long long at = 0;
        long long since = 0;   // server ms from which `started` counts
        long long started = 0; // tasks started since then
        bool fair = false;     // order "fair"
        long long groupCap = 0;
    } m_flow;
    // Bumped when a reshard starts or the group cap changes: on several shards, only the tasks
    // claimed since are bounded by the cap as a whole (each shard keeps to its share).
    int m_groupEpoch = 0;
    PlainModel m_plain; // a plain key beside the queue
    long long m_window = 0;                   // the queue's dedup window, ms (0 = off)
    std::map<std::string, size_t> m_finished; // id -> shard it finished in, within a window
    long long m_deadMax = 0;                  // the dead bound the model follows (0 = none)
    long long m_expiredInClaim = 0; // the last claim's expired tasks: it may have taken fewer
    std::map<std::string, std::vector<BinEntry>> m_bin; // id -> its entries, by shard
};
