#pragma once

#include <delayq/connection.h>
#include <delayq/queuereader.h>
#include <delayq/script.h>
#include <delayq/task.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace delayq {

class QueueShard;

// Every operation on one native queue.
// With an actor on the connection's options (ConnectionOptions::actor), push, cancel,
// reschedule, requeue, delete, purge and setConfig each write an audit entry in the same script
// as the change (docs/design.md, "Audit trail"); claim, ack, nack, extend and reap never do. Writes
// run as Lua scripts (lua/); reads are plain pipelined commands so a read-only ACL user can still
// look. Synchronous: the Connection's thread is the caller's thread. Throws Error.
// On a sharded queue (docs/design.md, "Sharded queues") every operation goes to the shards it
// concerns: a push to each task's home shard, an operation by id to the shard holding the id,
// an ack, nack or extend to the shard its lease token names, a claim to the shards in turn.
struct UpgradeResult
{
    long long converted = 0; // tasks of layout 1 (a hash per task) converted
    long long moved = 0;     // records moved from layout 2's fixed buckets to layout 3's table
    bool finished = false;   // nothing is left in an older layout
};

// The reads (counts, pages, find, config, audit, ...) are QueueReader's.
class Queue : public QueueReader
{
public:
    Queue(Connection& connection, const std::string& name, const std::string& prefix = "dq");

    // The queue of one shard alone (its scripts' keys, its wake channel): its lease tokens
    // name the shard, so the sharded queue routes their acks back to it.
    Queue shardQueue(size_t shard);
    // The shards a claim visits, in turn from a per-worker start (empty: all). Throws
    // InvalidArgument for a shard the queue does not have.
    void setClaimShards(std::vector<size_t> shards);

    // --- producing
    PushResult push(const PushRequest& request);
    // One script call per chunk (at most 1000 requests with the same replace flag), all in one
    // pipeline; the results are in the order of the requests. A bad request refuses them all.
    std::vector<PushResult> pushBatch(const std::vector<PushRequest>& requests);

    // --- operating on pending tasks
    std::vector<IdResult> cancel(const std::vector<std::string>& ids, bool force = false);
    // To an absolute time (ms), or (dueAtMs empty) delayMs from server now; 0 = run now.
    std::vector<IdResult> reschedule(const std::vector<std::string>& ids,
                                     std::optional<long long> dueAtMs, long long delayMs = 0);

    // --- consuming
    // leaseMs 0: the queue's lease_ms; at most 7 days (as for extend).
    ClaimResult claim(int maxTasks, long long leaseMs, const std::string& worker);
    // Many acks in one call: true = acked, false = lease lost (stale token, or the task is gone).
    std::vector<bool> ack(const std::vector<std::pair<std::string, std::string>>& idTokens);
    void ack(const std::string& id, const std::string& token); // throws LeaseLost
    // Retry after the backoff, or dead (keeping `error`) once attempts are spent.
    // retryDelayMs < 0: the task's backoff schedule (else the queue's); kNackDeadNow: dead at
    // once, attempts left or not. Throws LeaseLost.
    static constexpr long long kNackDeadNow = -2;
    NackResult nack(const std::string& id, const std::string& token, const std::string& error,
                    long long retryDelayMs = -1);
    // Returns the new lease deadline (ms). leaseMs 0: the queue's lease_ms. Throws LeaseLost.
    long long extend(const std::string& id, const std::string& token, long long leaseMs);
    // Many renewals pipelined, one round trip however many (a worker's renewals on a slow
    // link would otherwise queue behind each other past their leases): per task, in order,
    // its new deadline, or nullopt when its lease was lost. Other errors throw.
    std::vector<std::optional<long long>>
    extend(const std::vector<std::pair<std::string, std::string>>& idTokens, long long leaseMs);
    // Expired leases back to pending (due now), or to dead when attempts are spent; bounded.
    ReapResult reap(int maxTasks);

    // --- dead letters
    // requeueAll, deleteAllDead and purge repeat one script call of `batch` tasks until none
    // is left; maxCalls > 0 stops after that many calls, so a caller can spread the work out.
    std::vector<IdResult> requeue(const std::vector<std::string>& ids);
    BulkResult requeueAll(int batch = 200, int maxCalls = 0);
    std::vector<IdResult> deleteDead(const std::vector<std::string>& ids);
    BulkResult deleteAllDead(int batch = 200, int maxCalls = 0);

    // Deletes every task of the queue in bounded batches; keeps config and stats.
    BulkResult purge(int batch = 200, int maxCalls = 0);

    // --- recycle bin (docs/design/bin.md; RecycleBin lists and restores)
    // cancel, deleteDead, deleteAllDead and purge keep what they remove in the queue's bin
    // under an action id, which their audit entries record: a new id for each of these calls,
    // or, after setBinAction(id), that id for every one that follows (an operator's action
    // made of several calls is one action); setBinAction("") goes back to a new id a call.
    void setBinAction(std::string action);
    // The action id the last removal kept its tasks under ("" before any).
    const std::string& binAction() const { return m_binAction; }
    // A fresh action id: base-36 ms, '-', 8 random base-36 digits.
    static std::string newBinAction();

    // --- layout (docs/design.md, "Redis key layout")
    // Converts the tasks needsUpgrade() finds in layout 1, in calls of `batch` ids (1..1000),
    // repeating passes until one finds nothing left; then moves each shard's records from
    // layout 2's fixed buckets into layout 3's table, `batch` records a call
    // (upgrade_buckets.lua). maxCalls > 0 stops after that many calls. Resumes where an
    // interrupted upgrade stopped (its place is kept in Redis). No task is lost or doubled.
    UpgradeResult upgrade(int batch = 500, int maxCalls = 0);

    // --- config
    // key: max_attempts | backoff | lease_ms | max_payload | paused | audit_len | history (events
    // kept per task, 0 = off, which deletes the queue's task histories). Validates the
    // value. With an actor, a change writes an audit entry (config, pause or resume).
    void setConfig(const std::string& key, const std::string& value);
    // Several settings in one script call: every value is checked before any is written (one
    // refused writes none, a key given twice is refused), only the values that differ are
    // written, and with an actor they make one config entry naming just those ("lease_ms=60000
    // max_attempts=3"; paused still writes its own pause or resume). A form saves this way.
    void setConfig(const std::vector<std::pair<std::string, std::string>>& values);

    // Normalizes "5s,20s,30s" or "exp:1s:5m" to the stored ms form. Throws InvalidArgument.
    static std::string normalizeBackoff(const std::string& text);
    // The value setConfig would store for key (the same checks, no Redis), so a form can say
    // what is wrong next to the field before anything is sent. Throws InvalidArgument.
    static std::string normalizeConfig(const std::string& key, const std::string& value);

    // While a reshard runs, a task may still be in its former home shard, which a push to the
    // new home cannot see (shard_displace.lua): an nx request whose id has a task there is
    // answered `exists` from it (answered: not pushed), a replace request deletes that copy
    // (replaced: the push's `created` is a replacement) or is answered `active` when a worker
    // holds it.
    // Public for TaskImport, which imports by the same rule.
    void refuseBeforeDisplacing(const std::vector<PushRequest>& all,
                                std::vector<PushResult>& results, std::vector<bool>& answered);
    void displaceFormerCopies(const ShardLayout& shards, const std::vector<PushRequest>& all,
                              std::vector<PushResult>& results, std::vector<bool>& answered,
                              std::vector<bool>& replaced);

    // The nine KEYS every native-queue script takes, in the order of their contracts. Public
    // for scripts run beside Queue's own (TaskImport's import_tasks.lua).
    std::vector<std::string> scriptKeys() const;
    // The last ARGV of the scripts that change things on someone's behalf: the connection's
    // actor with its ACL user, or "" (no audit entry) when it has none. Public for the same.
    std::string actorArg();

private:
    // After a push during a reshard: the former homes forget the windows of the ids a replace
    // pushed (shard_displace.lua leaves them).
    void forgetFormerWindows(const ShardLayout& shards, const std::vector<PushRequest>& all,
                             const std::vector<PushResult>& results);
    // displaceFormerCopies' recently_done answers whose id has a task in its new home again:
    // no longer answered, so the push there answers for that task.
    void reopenRemembered(const ShardLayout& shards, const std::vector<PushRequest>& all,
                          const std::vector<PushResult>& results, std::vector<bool>& answered);
    Queue(Connection& connection, const Keys& shard, std::string tokenPrefix);

    void requireWritable(const char* what) const;
    // Before fair order is turned on over several shards (args: setConfig's pairs): refuses
    // a stored group cap or rate the shards cannot share, and a shard holding more pending
    // tasks than its config call indexes at once (lua/config.lua), before anything changes.
    void refuseRateBelowShards(const std::vector<std::string>& args);
    void refuseFairOnShards(const std::vector<std::string>& args);
    void registerQueue();
    static std::vector<std::string> scriptKeysOf(const Keys& keys);
    // One shard's own work (core/queue/queueshard.h): of shard `shard`, or of the shard a
    // lease token names ("sK." tokens; any other is shard 0's, which is this queue's own keys:
    // no layout read).
    QueueShard shardOps(size_t shard);
    QueueShard tokenShard(const std::string& token);
    // A script by id, routed by the shard room (ShardRouter::byIds); leading: the ARGV before
    // the ids on a shard.
    std::vector<IdResult>
    byIds(const Script& script, const std::vector<std::string>& ids,
          const std::function<std::vector<std::string>(const Keys&)>& leading);
    // Calls of `batch` until done, on every shard; the totals.
    BulkResult onEveryShard(const std::function<BulkResult(Queue&)>& run);

    // The action id of the removal about to be sent (setBinAction's, or a new one).
    std::string takeBinAction();

    bool m_registered = false;
    bool m_binActionSet = false;
    std::string m_binAction;
    std::string m_tokenPrefix; // "sK." on a shard's queue of a sharded queue
};

} // namespace delayq
