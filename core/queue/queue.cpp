#include <delayq/queue.h>

#include "queue/pushbatch.h"
#include "queue/queueshard.h"
#include "queue/scriptbatches.h"
#include "records/recordreads.h"
#include "records/taskrecord.h"
#include "records/valuechecks.h"
#include "shard/shardrouter.h"
#include "transport/replychecks.h"

#include <delayq/error.h>
#include <delayq/taskid.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <random>

namespace delayq {

Queue::Queue(Connection& connection, const std::string& name, const std::string& prefix)
    : QueueReader(connection, name, prefix)
{}

Queue::Queue(Connection& connection, const Keys& shard, std::string tokenPrefix)
    : QueueReader(connection, shard), m_tokenPrefix(std::move(tokenPrefix))
{}

Queue Queue::shardQueue(size_t shard)
{
    // A copy: reading the layout again rebuilds the shards' keys.
    const Keys keys = shardKeys(shard);
    return Queue(m_connection, keys,
                 isShardReader() ? m_tokenPrefix : m_router->tokenPrefix(shard));
}

void Queue::setClaimShards(std::vector<size_t> shards)
{
    m_router->setClaimShards(std::move(shards), name());
}

QueueShard Queue::shardOps(size_t shard)
{
    // A copy: reading the layout again rebuilds the shards' keys.
    const Keys keys = shardKeys(shard);
    const size_t shards = isShardReader() ? 1 : shardCount();
    // Its share of the flow limits (lua/claim.lua): none to give on a queue of one shard.
    const std::string share =
        shards > 1 ? std::to_string(shard) + "/" + std::to_string(shards) : std::string();
    return QueueShard(m_connection, keys,
                      isShardReader() ? m_tokenPrefix : m_router->tokenPrefix(shard), share);
}

QueueShard Queue::tokenShard(const std::string& token)
{
    // Decided by the token alone: shard 0 (an unsharded queue's only shard) is this queue's
    // own keys, so its acks and renewals never wait for a read of the layout (on a slow link
    // that read could make a renewal late).
    const size_t shard = m_router->tokenShard(token);
    return shard == 0 ? QueueShard(m_connection, m_keys, m_tokenPrefix, {}) : shardOps(shard);
}

std::vector<IdResult>
Queue::byIds(const Script& script, const std::vector<std::string>& ids,
             const std::function<std::vector<std::string>(const Keys&)>& leading)
{
    const std::string actor = actorArg();
    return m_router->byIds(
        ids, script,
        [&](const Keys& shard, const std::vector<std::string>& some) {
            return ScriptBatches::idCalls(scriptKeysOf(shard), leading(shard), some, actor);
        },
        [&](const std::vector<std::string>& some, const std::vector<Reply>& replies) {
            return ScriptBatches::idResults(script, some, replies);
        });
}

void Queue::requireWritable(const char* what) const
{
    if (m_connection.options().readOnly)
        throw Error(ErrorCode::NoPermission,
                    std::string("cannot ") + what + " on queue '" + name() +
                        "': this session is read-only (reconnect without read-only to change "
                        "things)");
}

std::string Queue::actorArg()
{
    const Actor& actor = m_connection.options().actor;
    return actor.empty() ? std::string() : actor.scriptArg(m_connection.aclUser());
}

std::vector<std::string> Queue::scriptKeys() const
{
    return scriptKeysOf(m_keys);
}

std::vector<std::string> Queue::scriptKeysOf(const Keys& keys)
{
    return {keys.pending(), keys.active(),       keys.dead(), keys.dataPrefix(), keys.config(),
            keys.stats(),   keys.minutePrefix(), keys.run(),  keys.errors()};
}

void Queue::registerQueue()
{
    // dq:queues lives outside the queue's hash slot, so it is written beside the script.
    if (m_registered)
        return;
    m_connection.command({"SADD", Keys::queues(m_keys.prefix()), name()});
    m_registered = true;
}

std::string Queue::normalizeBackoff(const std::string& text)
{
    return delayq::normalizeBackoff(text);
}

PushResult Queue::push(const PushRequest& request)
{
    return pushBatch({request}).front();
}

std::vector<PushResult> Queue::pushBatch(const std::vector<PushRequest>& requests)
{
    requireWritable("push");
    if (requests.empty())
        return {};
    const ShardLayout shards = layout();
    // Every id known first: it picks the shard.
    std::vector<PushRequest> all = requests;
    for (auto& request : all)
        if (request.id.empty())
            request.id = generateTaskId();
    // All checked before anything is sent (the shards' batches below are all built before
    // the pipeline goes; the server's now once, not per request: with the server unreachable
    // each would try to connect): one bad request refuses the whole batch. During a move the former
    // homes are asked first, and a replace deletes there, so the batch is checked before that.
    const long long now = m_connection.serverNowMs();
    std::vector<PushResult> results(all.size());
    std::vector<bool> answered(all.size(), false); // by the former home: not pushed
    std::vector<bool> replaced(all.size(), false); // a former home's copy was deleted
    if (shards.moving()) {
        (void)PushBatch(all, now);
        refuseBeforeDisplacing(all, results, answered);
        displaceFormerCopies(shards, all, results, answered, replaced);
    }
    std::vector<std::vector<PushRequest>> groups(shards.tags.size());
    std::vector<std::vector<size_t>> positions(shards.tags.size());
    for (size_t i = 0; i < all.size(); ++i) {
        if (answered[i])
            continue;
        const size_t home = static_cast<size_t>(shards.homeOf(all[i].id));
        groups[home].push_back(all[i]);
        positions[home].push_back(i);
    }
    std::vector<std::pair<size_t, PushBatch>> batches;
    for (size_t s = 0; s < groups.size(); ++s)
        if (!groups[s].empty())
            batches.emplace_back(s, PushBatch(groups[s], now));
    registerQueue();
    // One pipeline: the connection splits it per node, so each master gets its shards' calls
    // in one round trip.
    std::vector<Connection::ScriptCall> calls;
    std::vector<size_t> callsOf;
    const std::string actor = actorArg();
    for (const auto& [s, batch] : batches) {
        Queue shard = shardQueue(s);
        auto some = batch.calls(shard.scriptKeys(), shard.keys().wake(), actor);
        callsOf.push_back(some.size());
        calls.insert(calls.end(), some.begin(), some.end());
    }
    const std::vector<Reply> replies = m_connection.evalPipeline(scripts::push, calls);
    size_t at = 0;
    for (size_t b = 0; b < batches.size(); ++b) {
        const std::vector<Reply> mine(replies.begin() + static_cast<long>(at),
                                      replies.begin() + static_cast<long>(at + callsOf[b]));
        at += callsOf[b];
        const auto done = batches[b].second.results(mine);
        for (size_t j = 0; j < done.size(); ++j) {
            const size_t i = positions[batches[b].first][j];
            results[i] = done[j];
            if (replaced[i] && results[i].status == PushResult::Status::Created)
                results[i].status = PushResult::Status::Replaced;
        }
    }
    if (shards.moving())
        forgetFormerWindows(shards, all, results);
    return results;
}

// A replace overrides an id's dedup window: push.lua forgets it in the new home, and here, once
// the push succeeded, in the former home (shard_displace.lua leaves it there: a replace the new
// home refuses, "active", must change nothing).
void Queue::forgetFormerWindows(const ShardLayout& shards, const std::vector<PushRequest>& all,
                                const std::vector<PushResult>& results)
{
    std::vector<std::vector<std::string>> forgets;
    for (size_t i = 0; i < all.size(); ++i) {
        const int former = shards.formerHomeOf(all[i].id);
        const bool pushed = results[i].status == PushResult::Status::Created ||
                            results[i].status == PushResult::Status::Replaced;
        if (all[i].replace && pushed && former != shards.homeOf(all[i].id) && former >= 0 &&
            static_cast<size_t>(former) < shards.tags.size())
            forgets.push_back({"ZREM", shardKeys(static_cast<size_t>(former)).recentlyDone(),
                               all[i].id});
    }
    if (!forgets.empty())
        throwFirstError(m_connection.pipeline(forgets));
}

void Queue::refuseBeforeDisplacing(const std::vector<PushRequest>& all,
                                   std::vector<PushResult>& results, std::vector<bool>& answered)
{
    // A replace deletes the former home's copy before push.lua runs in the new home, so what
    // push.lua would refuse is refused here first, or the task would be gone: a priority or
    // group outside fair order, and a payload over max_payload.
    long long maxPayload = QueueConfig{}.maxPayload;
    const Reply stored = m_connection.command({"HMGET", keys().config(), "max_payload", "order"});
    requireArray(stored, 2, "HMGET");
    if (!stored.elements[0].isNil())
        maxPayload = wholeNumber(stored.elements[0].str).value_or(maxPayload);
    if (stored.elements[1].str != "fair")
        for (const auto& r : all)
            if (r.priority != 0 || !r.group.empty())
                throw Error(ErrorCode::InvalidArgument,
                            "queue '" + name() +
                                "' hands out tasks in due order only: a priority or group "
                                "needs its config order \"fair\"");
    for (size_t i = 0; i < all.size(); ++i)
        if (static_cast<long long>(all[i].payload.size()) > maxPayload) {
            answered[i] = true;
            results[i] = {all[i].id, PushResult::Status::TooLarge, 0};
        }
}

void Queue::displaceFormerCopies(const ShardLayout& shards, const std::vector<PushRequest>& all,
                                 std::vector<PushResult>& results, std::vector<bool>& answered,
                                 std::vector<bool>& replaced)
{
    // The requests whose task may still be in its former home, by that shard and mode.
    std::map<std::pair<size_t, bool>, std::vector<size_t>> asked;
    for (size_t i = 0; i < all.size(); ++i) {
        if (answered[i])
            continue;
        const size_t former = static_cast<size_t>(shards.formerHomeOf(all[i].id));
        if (former != static_cast<size_t>(shards.homeOf(all[i].id)) && former < shards.tags.size())
            asked[{former, all[i].replace}].push_back(i);
    }
    std::vector<Connection::ScriptCall> calls;
    std::vector<std::vector<size_t>> callIndexes;
    for (const auto& [where, indexes] : asked) {
        Queue former = shardQueue(where.first);
        auto keys = former.scriptKeys();
        keys.push_back(former.keys().moving());
        for (size_t begin = 0; begin < indexes.size(); begin += 1000) {
            const size_t end = std::min(indexes.size(), begin + 1000);
            Connection::ScriptCall call{
                keys, {where.second ? "replace" : "nx", std::to_string(end - begin)}};
            for (size_t k = begin; k < end; ++k)
                call.args.push_back(all[indexes[k]].id);
            calls.push_back(std::move(call));
            callIndexes.emplace_back(indexes.begin() + static_cast<long>(begin),
                                     indexes.begin() + static_cast<long>(end));
        }
    }
    const std::vector<Reply> replies = m_connection.evalPipeline(scripts::shardDisplace, calls);
    for (size_t c = 0; c < replies.size(); ++c) {
        if (replies[c].isError())
            throw errorFromReply(replies[c].str);
        const auto& flat = replies[c].elements;
        for (size_t k = 0; k + 2 < flat.size(); k += 3) {
            const long long place = flat[k].toInteger();
            if (place < 1 || static_cast<size_t>(place) > callIndexes[c].size())
                throw Error(ErrorCode::Protocol, "shard_displace named a task it was not given");
            const size_t i = callIndexes[c][static_cast<size_t>(place - 1)];
            const PushResult::Status status = pushStatusFromName(flat[k + 1].str);
            if (status == PushResult::Status::Replaced) {
                replaced[i] = true;
                continue;
            }
            answered[i] = true;
            results[i] = {all[i].id, status, flat[k + 2].toInteger()};
        }
    }
    reopenRemembered(shards, all, results, answered);
}

// An id its former home remembers as done may have a task again in its new home (requeued
// from dead, or restored, then moved before the remembered id was): that task answers, as
// push.lua lets a task that exists again answer (the model check found a pending task's
// debounce answered recently_done). One pipelined record read a remembered id.
void Queue::reopenRemembered(const ShardLayout& shards, const std::vector<PushRequest>& all,
                             const std::vector<PushResult>& results, std::vector<bool>& answered)
{
    std::vector<size_t> remembered;
    RecordReads reads(m_connection);
    for (size_t i = 0; i < all.size(); ++i)
        if (answered[i] && results[i].status == PushResult::Status::RecentlyDone) {
            const Keys home = shardKeys(static_cast<size_t>(shards.homeOf(all[i].id)));
            remembered.push_back(i);
            reads.addRecord(home, all[i].id);
        }
    if (reads.empty())
        return;
    const std::vector<Reply> replies = reads.run();
    for (size_t k = 0; k < remembered.size(); ++k) {
        if (replies[k].isError())
            throw errorFromReply(replies[k].str);
        if (!replies[k].isNil())
            answered[remembered[k]] = false;
    }
}

std::vector<IdResult> Queue::cancel(const std::vector<std::string>& ids, bool force)
{
    requireWritable("cancel tasks");
    const std::string action = takeBinAction();
    return byIds(scripts::cancel, ids, [force, &action](const Keys&) {
        return std::vector<std::string>{force ? "1" : "0", action};
    });
}

std::vector<IdResult> Queue::reschedule(const std::vector<std::string>& ids,
                                        std::optional<long long> dueAtMs, long long delayMs)
{
    requireWritable("reschedule tasks");
    checkDelay(delayMs, m_connection.serverNowMs());
    if (dueAtMs)
        checkDueAt(*dueAtMs);
    const std::string when = std::to_string(dueAtMs ? *dueAtMs : delayMs);
    return byIds(scripts::reschedule, ids, [&](const Keys& shard) {
        return std::vector<std::string>{dueAtMs ? "at" : "in", when, shard.wake()};
    });
}

ClaimResult Queue::claim(int maxTasks, long long leaseMs, const std::string& worker)
{
    requireWritable("claim tasks");
    if (maxTasks < 1 || maxTasks > 1000)
        throw Error(ErrorCode::InvalidArgument, "a claim takes 1 to 1000 tasks");
    checkLease(leaseMs);
    return m_router->claimInTurn(
        worker, [&](size_t shard) { return shardOps(shard).claim(maxTasks, leaseMs, worker); });
}

std::vector<bool> Queue::ack(const std::vector<std::pair<std::string, std::string>>& idTokens)
{
    requireWritable("ack tasks");
    for (const auto& idToken : idTokens)
        Keys::validateTaskId(idToken.first);
    return m_router->onTokens<bool>(idTokens, [&](size_t, const ShardRouter::IdTokens& some) {
        return tokenShard(some.front().second).ack(some);
    });
}

void Queue::ack(const std::string& id, const std::string& token)
{
    if (!ack({{id, token}}).front())
        throw Error(ErrorCode::LeaseLost, "task " + id +
                                              " is no longer leased to this worker (its lease "
                                              "expired and it was taken back or handed on)");
}

NackResult Queue::nack(const std::string& id, const std::string& token, const std::string& error,
                       long long retryDelayMs)
{
    requireWritable("nack a task");
    Keys::validateTaskId(id);
    if (retryDelayMs >= 0)
        checkDelay(retryDelayMs, m_connection.serverNowMs());
    return tokenShard(token).nack(id, token, error, retryDelayMs);
}

long long Queue::extend(const std::string& id, const std::string& token, long long leaseMs)
{
    requireWritable("extend a lease");
    Keys::validateTaskId(id);
    checkLease(leaseMs);
    return tokenShard(token).extend(id, token, leaseMs);
}

std::vector<std::optional<long long>>
Queue::extend(const std::vector<std::pair<std::string, std::string>>& idTokens, long long leaseMs)
{
    requireWritable("extend leases");
    checkLease(leaseMs);
    return m_router->onTokens<std::optional<long long>>(
        idTokens, [&](size_t, const ShardRouter::IdTokens& some) {
            return tokenShard(some.front().second).extend(some, leaseMs);
        });
}

ReapResult Queue::reap(int maxTasks)
{
    requireWritable("reap expired leases");
    if (maxTasks < 1 || maxTasks > 1000)
        throw Error(ErrorCode::InvalidArgument, "a reap takes 1 to 1000 tasks");
    return m_router->overEveryShard<ReapResult>(
        [&](size_t shard) { return shardOps(shard).reap(maxTasks); },
        [](ReapResult& total, const ReapResult& r) {
            total.requeued += r.requeued;
            total.dead += r.dead;
            total.more = total.more || r.more;
        });
}

std::vector<IdResult> Queue::requeue(const std::vector<std::string>& ids)
{
    requireWritable("requeue dead tasks");
    return byIds(scripts::requeue, ids, [](const Keys& shard) {
        return std::vector<std::string>{"ids", "1", shard.wake()};
    });
}

std::vector<IdResult> Queue::deleteDead(const std::vector<std::string>& ids)
{
    requireWritable("delete dead tasks");
    const std::string action = takeBinAction();
    return byIds(scripts::deleteDead, ids, [&action](const Keys&) {
        return std::vector<std::string>{"ids", "1", action};
    });
}

BulkResult Queue::onEveryShard(const std::function<BulkResult(Queue&)>& run)
{
    return m_router->overEveryShard<BulkResult>(
        [&](size_t shard) {
            Queue one = shardQueue(shard);
            return run(one);
        },
        [](BulkResult& total, const BulkResult& r) {
            total.done += r.done;
            total.remaining += r.remaining;
        });
}

BulkResult Queue::requeueAll(int batch, int maxCalls)
{
    requireWritable("requeue dead tasks");
    return onEveryShard([&](Queue& shard) {
        return ScriptBatches(shard).untilDone(
            scripts::requeue, {"all", std::to_string(batch), shard.keys().wake()}, batch, maxCalls);
    });
}

BulkResult Queue::deleteAllDead(int batch, int maxCalls)
{
    requireWritable("delete dead tasks");
    const std::string action = takeBinAction();
    return onEveryShard([&](Queue& shard) {
        return ScriptBatches(shard).untilDone(
            scripts::deleteDead, {"all", std::to_string(batch), action}, batch, maxCalls);
    });
}

BulkResult Queue::purge(int batch, int maxCalls)
{
    requireWritable("purge the queue");
    const std::string action = takeBinAction();
    return onEveryShard([&](Queue& shard) {
        return ScriptBatches(shard).untilDone(scripts::purge, {std::to_string(batch), action},
                                              batch, maxCalls);
    });
}

void Queue::setBinAction(std::string action)
{
    if (!action.empty()) {
        const bool ok =
            action.size() <= 64 && std::all_of(action.begin(), action.end(), [](unsigned char c) {
                return std::isalnum(c) || c == '.' || c == '-' || c == '_';
            });
        if (!ok)
            throw Error(ErrorCode::InvalidArgument,
                        "a recycle bin action id is 1 to 64 of letters, digits and '.-_'");
    }
    m_binActionSet = !action.empty();
    m_binAction = std::move(action);
}

std::string Queue::newBinAction()
{
    static const char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    auto ms =
        static_cast<unsigned long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                            std::chrono::system_clock::now().time_since_epoch())
                                            .count());
    std::string head;
    do {
        head.insert(head.begin(), kDigits[ms % 36]);
        ms /= 36;
    } while (ms > 0);
    thread_local std::mt19937_64 random{std::random_device{}()};
    std::string tail(8, '0');
    for (char& c : tail)
        c = kDigits[random() % 36];
    return head + "-" + tail;
}

std::string Queue::takeBinAction()
{
    if (!m_binActionSet)
        m_binAction = newBinAction();
    return m_binAction;
}

void Queue::setConfig(const std::string& key, const std::string& value)
{
    setConfig({{key, value}});
}

void Queue::setConfig(const std::vector<std::pair<std::string, std::string>>& values)
{
    requireWritable("change the queue's config");
    if (values.empty())
        return;
    std::vector<std::string> args;
    for (const auto& [key, value] : values) {
        for (size_t i = 0; i < args.size(); i += 2)
            if (args[i] == key)
                throw Error(ErrorCode::InvalidArgument, key + " is given twice");
        args.push_back(key);
        args.push_back(normalizeConfig(key, value));
    }
    registerQueue();
    // The dead bound is the queue's: each shard keeps its share, the bound divided by the shard
    // count written beside it (dead_trim in lua/common.lua).
    for (size_t i = 0; i < args.size(); i += 2)
        if (args[i] == "dead_max" || args[i] == "dead_max_bytes") {
            args.push_back("dead_shards");
            args.push_back(std::to_string(shardCount()));
            break;
        }
    // Each shard keeps its share of a group's cap and rate (lua/claim.lua), as of the queue's.
    for (size_t i = 0; i < args.size(); i += 2)
        if (const std::string problem = groupShareProblem(args[i], args[i + 1], shardCount());
            !problem.empty())
            throw Error(ErrorCode::InvalidArgument,
                        "queue '" + name() + "' has " + std::to_string(shardCount()) +
                            " shards: " + problem +
                            (args[i] == "group_cap" ? " (delayq reshard " + name() + " --shards 1)"
                                                    : std::string()));
    for (size_t i = 0; i < args.size(); i += 2)
        if (args[i] == "order" && args[i + 1] == "fair" && shardCount() > 1)
            refuseFairOnShards(args);
    for (size_t i = 0; i < args.size(); i += 2)
        if (args[i] == "cap" && args[i + 1] != "0" &&
            std::stoll(args[i + 1]) < static_cast<long long>(shardCount()))
            // Each shard starts its share (lua/claim.lua): a share of 0 would never start.
            throw Error(ErrorCode::InvalidArgument,
                        "a cap of " + args[i + 1] + " is below the queue's " +
                            std::to_string(shardCount()) +
                            " shards: each shard needs at least one slot");
    refuseRateBelowShards(args);
    // A script, so that the changes and their audit entry are one atomic step. Every shard
    // keeps its own copy (its scripts read it); only shard 0's call writes the audit entry.
    std::vector<Connection::ScriptCall> calls;
    for (size_t s = 0; s < shardCount(); ++s) {
        calls.push_back({shardQueue(s).scriptKeys(), args});
        calls.back().args.push_back(s == 0 ? actorArg() : std::string());
    }
    for (const auto& reply : m_connection.evalPipeline(scripts::config, calls))
        if (reply.isError())
            throw errorFromReply(reply.str);
}

void Queue::refuseRateBelowShards(const std::vector<std::string>& args)
{
    // The rate and burst as they will be: given in this call, else stored.
    std::optional<std::string> rate, burst;
    for (size_t i = 0; i < args.size(); i += 2) {
        if (args[i] == "rate")
            rate = args[i + 1];
        if (args[i] == "burst")
            burst = args[i + 1];
    }
    if (shardCount() < 2 || (!rate && !burst))
        return;
    const Reply stored = m_connection.command({"HMGET", keys().config(), "rate", "burst"});
    requireArray(stored, 2, "HMGET");
    const std::string problem =
        rateShareProblem(rate.value_or(stored.elements[0].str),
                         burst.value_or(stored.elements[1].str), shardCount(), name());
    if (!problem.empty())
        throw Error(ErrorCode::InvalidArgument,
                    "queue '" + name() + "' has " + std::to_string(shardCount()) +
                        " shards: " + problem);
}

void Queue::refuseFairOnShards(const std::vector<std::string>& args)
{
    // Turning fair order on indexes each shard's pending tasks in that shard's config call, at
    // most FAIR_INDEX_AT_ONCE (lua/config.lua) a shard. All shards are asked first: one that
    // refused in the pipeline would leave the others changed. And a group cap or rate stored
    // before (allowed in due order only when it was kept) is judged as a new one would be.
    constexpr long long kIndexedAtOnce = 100000;
    std::vector<std::vector<std::string>> reads{
        {"HMGET", keys().config(), "group_cap", "group_rate"}};
    for (size_t s = 0; s < shardCount(); ++s) {
        reads.push_back({"HGET", shardKeys(s).config(), "order"});
        reads.push_back({"ZCARD", shardKeys(s).pending()});
    }
    const std::vector<Reply> replies = m_connection.pipeline(reads);
    throwFirstError(replies);
    requireArray(replies[0], 2, "HMGET");
    for (size_t f = 0; f < 2; ++f) {
        const std::string field = f == 0 ? "group_cap" : "group_rate";
        bool given = false;
        for (size_t i = 0; i < args.size(); i += 2)
            given = given || args[i] == field;
        const Reply& stored = replies[0].elements[f];
        if (given || stored.isNil())
            continue;
        if (const std::string problem = groupShareProblem(field, stored.str, shardCount());
            !problem.empty())
            throw Error(ErrorCode::InvalidArgument,
                        "queue '" + name() + "' has " + std::to_string(shardCount()) +
                            " shards: " + problem + "; change its " + field +
                            " in the same call to turn fair order on");
    }
    for (size_t s = 0; s < shardCount(); ++s) {
        const long long pending = replies[2 + 2 * s].toInteger();
        if (replies[1 + 2 * s].str != "fair" && pending > kIndexedAtOnce)
            throw Error(ErrorCode::InvalidArgument,
                        "shard " + std::to_string(s) + " of queue '" + name() + "' has " +
                            std::to_string(pending) +
                            " pending tasks: fair order indexes them when it is turned on, at "
                            "most " +
                            std::to_string(kIndexedAtOnce) + " in each shard at once");
    }
}

std::string Queue::normalizeConfig(const std::string& key, const std::string& value)
{
    return normalizeConfigValue(key, value);
}

UpgradeResult Queue::upgrade(int batch, int maxCalls)
{
    requireWritable("upgrade the queue");
    if (batch < 1 || batch > 1000)
        throw Error(ErrorCode::InvalidArgument, "an upgrade step looks at 1 to 1000 tasks");
    UpgradeResult result;
    int calls = 0;
    const auto callsLeft = [&] { return maxCalls <= 0 || calls < maxCalls; };
    // Layout 1 first: its scripts refuse old tasks until they are converted.
    if (needsUpgrade()) {
        auto keys = scriptKeys();
        keys.push_back(m_keys.oldTaskPrefix());
        bool converted = false;
        for (; callsLeft() && !converted; ++calls) {
            Reply reply = m_connection.evalScript(scripts::upgrade, keys, {std::to_string(batch)});
            requireArray(reply, 2, "upgrade");
            result.converted += reply.elements[0].toInteger();
            converted = reply.elements[1].toInteger() == 1;
        }
        if (!converted)
            return result;
    }
    for (size_t s = 0; s < shardCount(); ++s) {
        bool moved = false;
        for (; callsLeft() && !moved; ++calls) {
            Reply reply = m_connection.evalScript(scripts::upgradeBuckets, scriptKeysOf(shardKeys(s)),
                                                  {std::to_string(batch)});
            requireArray(reply, 2, "upgrade_buckets");
            result.moved += reply.elements[0].toInteger();
            moved = reply.elements[1].toInteger() == 1;
        }
        if (!moved)
            return result;
    }
    result.finished = true;
    return result;
}

} // namespace delayq
