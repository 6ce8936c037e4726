#pragma once

#include <delayq/queue.h>
#include <delayq/task.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace delayq {

// One removal an operator made (a cancel, purge or delete of dead tasks) whose tasks are still
// in the queue's recycle bin.
struct BinAction
{
    std::string action;      // the action id (Queue::binAction), also in its audit entries' `bin`
    std::string kind;        // cancel | purge | delete
    long long removedMs = 0; // when its first call ran (server clock)
    std::string auditEntry;  // the audit entry of its first call ("" without an actor)
    long long tasks = 0;     // still restorable, over every shard
};

// One task in the bin.
struct BinTask
{
    std::string id;
    std::string action;
    std::string state; // what it was when removed: pending | active | dead
    long long removedMs = 0;
};

// The queue's recycle bin (docs/design/bin.md): what cancel, purge and delete of dead tasks
// removed, kept for the config's bin_keep (24 h) up to bin_max tasks and bin_bytes bytes, and
// restored exactly (lua/restore.lua). Each shard keeps the bin of what was removed from it;
// every read and restore goes over all shards. Synchronous, on the queue's connection; throws
// Error.
class RecycleBin
{
public:
    explicit RecycleBin(Queue& queue);

    // The actions with tasks still restorable, newest first.
    std::vector<BinAction> actions();
    // The tasks held (of one action, or all), newest first, at most `limit`.
    std::vector<BinTask> tasks(const std::string& action = {}, size_t limit = 1000);
    // The action an audit entry ("MS-SEQ") of the queue recorded. Throws NotFound when no shard
    // has the entry, InvalidArgument when the entry is not a removal that kept its tasks.
    std::string actionOfAuditEntry(const std::string& entry);

    // Puts tasks back (each shard restores what it holds). dueAtMs: pending and formerly
    // running tasks are due then; nullopt: each as it was (running ones due now). Per id:
    // done, not_found (not in the bin, or past bin_keep), exists (a task with the id is in
    // the queue again: refused, kept in the bin).
    std::vector<IdResult> restore(const std::vector<std::string>& ids,
                                  std::optional<long long> dueAtMs = std::nullopt);
    // Everything one action removed, or everything in the bin.
    std::vector<IdResult> restoreAction(const std::string& action,
                                        std::optional<long long> dueAtMs = std::nullopt);
    std::vector<IdResult> restoreAll(std::optional<long long> dueAtMs = std::nullopt);

private:
    // A restored task must land in its home shard: nothing is restored while a reshard runs
    // (it carries the bin's entries to their new homes, docs/design/bin.md).
    void refuseWhileMoving();
    // Why a restore is refused during a reshard; begun: it began after the restore did.
    std::string reshardingText(const ShardLayout& layout, bool begun);
    // The restore script on one shard over ids, in calls of at most 500.
    std::vector<IdResult> restoreOn(size_t shard, const std::vector<std::string>& ids,
                                    std::optional<long long> dueAtMs);
    // Every shard's ids of one ZSET key (binAt, or an action's), oldest first.
    std::vector<IdResult> restoreSets(const std::function<std::string(const Keys&)>& key,
                                      std::optional<long long> dueAtMs);
    // The oldest removed ms still restorable (server now less bin_keep).
    long long oldestKept();

    Queue& m_queue;
    long long m_restored = 0; // by the restore under way, before a reshard may stop it
};

} // namespace delayq
