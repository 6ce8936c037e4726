#include <delayq/queue.h>

#include "queue/pushbatch.h"
#include "queue/scriptbatches.h"
#include "queue/valuechecks.h"
#include "records/taskrecord.h"
#include "transport/replychecks.h"

#include <delayq/error.h>
#include <delayq/taskid.h>

#include <algorithm>
#include <map>

namespace delayq {

Queue::Queue(Connection& connection, const std::string& name, const std::string& prefix)
    : QueueReader(connection, name, prefix)
{}

Queue::Queue(Connection& connection, const Keys& shard, std::string tokenPrefix)
    : QueueReader(connection, shard), m_tokenPrefix(std::move(tokenPrefix))
{}

Queue Queue::shardQueue(size_t shard)
{
    const Keys& keys = shardKeys(shard);
    return Queue(m_connection, keys, layout().sharded() ? "s" + std::to_string(shard) + "." : "");
}

void Queue::setClaimShards(std::vector<size_t> shards)
{
    for (size_t shard : shards)
        if (shard >= shardCount())
            throw Error(ErrorCode::InvalidArgument,
                        "queue '" + name() + "' has " + std::to_string(shardCount()) +
                            " shards (0 to " + std::to_string(shardCount() - 1) + "), not " +
                            std::to_string(shard));
    m_claimShards = std::move(shards);
    m_claimCursor.reset();
}

size_t Queue::shardOfToken(const std::string& token)
{
    // "sK." then the random part (hex, so it never starts with 's').
    if (token.size() < 3 || token[0] != 's')
        return 0;
    const size_t dot = token.find('.');
    if (dot == std::string::npos || dot == 1 || dot > 4)
        return 0;
    size_t shard = 0;
    for (size_t i = 1; i < dot; ++i) {
        if (token[i] < '0' || token[i] > '9')
            return 0;
        shard = shard * 10 + static_cast<size_t>(token[i] - '0');
    }
    return shard;
}

bool Queue::namesOtherShards(const std::vector<std::pair<std::string, std::string>>& idTokens) const
{
    // Decided by the tokens alone, so an unsharded queue's acks and renewals never wait for a
    // read of the layout (on a slow link that read could make a renewal late).
    if (isShardReader())
        return false;
    return std::any_of(idTokens.begin(), idTokens.end(),
                       [](const auto& idToken) { return shardOfToken(idToken.second) != 0; });
}

template <typename Result>
std::vector<Result>
Queue::onTokenShards(const IdTokens& idTokens,
                     const std::function<std::vector<Result>(Queue&, const IdTokens&)>& run)
{
    std::map<size_t, std::vector<size_t>> positions;
    for (size_t i = 0; i < idTokens.size(); ++i)
        positions[shardOfToken(idTokens[i].second)].push_back(i);
    std::vector<Result> results(idTokens.size());
    for (const auto& [shard, mine] : positions) {
        IdTokens some;
        some.reserve(mine.size());
        for (size_t i : mine)
            some.push_back(idTokens[i]);
        Queue one = shardQueue(shard);
        const auto done = run(one, some);
        for (size_t j = 0; j < mine.size() && j < done.size(); ++j)
            results[mine[j]] = done[j];
    }
    return results;
}

std::vector<IdResult> Queue::byIdsOnShards(
    const std::vector<std::string>& ids,
    const std::function<std::vector<IdResult>(Queue&, const std::vector<std::string>&)>& run)
{
    for (const auto& id : ids)
        Keys::validateTaskId(id);
    std::vector<size_t> homes;
    for (const auto& id : ids)
        homes.push_back(static_cast<size_t>(layout().homeOf(id)));
    // Round 0 asks each shard about its home ids; round 1 asks the other shards about the
    // ids still not found (a task a reshard has not moved yet).
    std::vector<IdResult> results(ids.size());
    for (int round = 0; round < 2; ++round) {
        for (size_t s = 0; s < shardCount(); ++s) {
            std::vector<size_t> asked;
            std::vector<std::string> some;
            for (size_t i = 0; i < ids.size(); ++i) {
                const bool ask =
                    round == 0 ? homes[i] == s
                               : homes[i] != s && results[i].status == IdResult::Status::NotFound;
                if (ask) {
                    asked.push_back(i);
                    some.push_back(ids[i]);
                }
            }
            if (some.empty())
                continue;
            Queue shard = shardQueue(s);
            const auto done = run(shard, some);
            for (size_t j = 0; j < asked.size() && j < done.size(); ++j)
                if (round == 0 || done[j].status != IdResult::Status::NotFound)
                    results[asked[j]] = done[j];
        }
    }
    return results;
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
    return {m_keys.pending(),      m_keys.active(), m_keys.dead(),
            m_keys.dataPrefix(),   m_keys.config(), m_keys.stats(),
            m_keys.minutePrefix(), m_keys.run(),    m_keys.errors()};
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
    if (shardCount() > 1)
        return pushSharded(requests);
    // The server's now once, not per request: with the server unreachable each would try to
    // connect.
    const PushBatch batch(requests, m_connection.serverNowMs());
    registerQueue();
    const auto calls = batch.calls(scriptKeys(), m_keys.wake(), actorArg());
    return batch.results(m_connection.evalPipeline(scripts::push, calls));
}

std::vector<PushResult> Queue::pushSharded(const std::vector<PushRequest>& requests)
{
    const ShardLayout shards = layout();
    // Every id known first: it picks the shard.
    std::vector<PushRequest> all = requests;
    for (auto& request : all)
        if (request.id.empty())
            request.id = generateTaskId();
    // All checked before anything is sent (the shards' batches below are all built before
    // the pipeline goes): one bad request refuses the whole batch. During a move the former
    // homes are asked first, and a replace deletes there, so the batch is checked before that.
    const long long now = m_connection.serverNowMs();
    std::vector<PushResult> results(all.size());
    std::vector<bool> answered(all.size(), false); // by the former home: not pushed
    std::vector<bool> replaced(all.size(), false); // a former home's copy was deleted
    if (shards.moving()) {
        (void)PushBatch(all, now);
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
    return results;
}

void Queue::displaceFormerCopies(const ShardLayout& shards, const std::vector<PushRequest>& all,
                                 std::vector<PushResult>& results, std::vector<bool>& answered,
                                 std::vector<bool>& replaced)
{
    // The requests whose task may still be in its former home, by that shard and mode.
    std::map<std::pair<size_t, bool>, std::vector<size_t>> asked;
    for (size_t i = 0; i < all.size(); ++i) {
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
}

std::vector<IdResult> Queue::cancel(const std::vector<std::string>& ids, bool force)
{
    requireWritable("cancel tasks");
    if (shardCount() > 1)
        return byIdsOnShards(
            ids, [force](Queue& shard, const auto& some) { return shard.cancel(some, force); });
    return ScriptBatches(*this).byIds(scripts::cancel, {force ? "1" : "0"}, ids);
}

std::vector<IdResult> Queue::reschedule(const std::vector<std::string>& ids,
                                        std::optional<long long> dueAtMs, long long delayMs)
{
    requireWritable("reschedule tasks");
    checkDelay(delayMs, m_connection.serverNowMs());
    if (dueAtMs)
        checkDueAt(*dueAtMs);
    if (shardCount() > 1)
        return byIdsOnShards(ids, [&](Queue& shard, const auto& some) {
            return shard.reschedule(some, dueAtMs, delayMs);
        });
    return ScriptBatches(*this).byIds(
        scripts::reschedule,
        {dueAtMs ? "at" : "in", std::to_string(dueAtMs ? *dueAtMs : delayMs), m_keys.wake()}, ids);
}

ClaimResult Queue::claim(int maxTasks, long long leaseMs, const std::string& worker)
{
    requireWritable("claim tasks");
    if (maxTasks < 1 || maxTasks > 1000)
        throw Error(ErrorCode::InvalidArgument, "a claim takes 1 to 1000 tasks");
    checkLease(leaseMs);
    if (shardCount() == 1)
        return claimHere(maxTasks, leaseMs, worker);
    std::vector<size_t> shards = m_claimShards;
    if (shards.empty())
        for (size_t s = 0; s < shardCount(); ++s)
            shards.push_back(s);
    // Each worker starts at its own shard (by its name), then takes them in turn: one claim
    // asks one shard, and the next shard when that one has nothing due, so an empty shard
    // never costs a poll interval.
    if (!m_claimCursor || *m_claimCursor >= shards.size())
        m_claimCursor = static_cast<size_t>(ShardLayout::hashOf(worker)) % shards.size();
    ClaimResult out;
    for (size_t k = 0; k < shards.size(); ++k) {
        const size_t index = (*m_claimCursor + k) % shards.size();
        Queue shard = shardQueue(shards[index]);
        ClaimResult r = shard.claimHere(maxTasks, leaseMs, worker);
        out.serverNow = r.serverNow;
        out.paused = out.paused || r.paused;
        if (r.nextDue)
            out.nextDue = out.nextDue ? std::min(*out.nextDue, *r.nextDue) : *r.nextDue;
        if (!r.tasks.empty()) {
            out.tasks = std::move(r.tasks);
            m_claimCursor = (index + 1) % shards.size();
            // The shards not asked may hold due tasks: look again at once, not at nextDue.
            if (k + 1 < shards.size())
                out.nextDue = out.serverNow;
            return out;
        }
    }
    return out;
}

ClaimResult Queue::claimHere(int maxTasks, long long leaseMs, const std::string& worker)
{
    const auto keys = scriptKeys();
    std::vector<Connection::ScriptCall> calls;
    for (int left = maxTasks; left > 0; left -= kTasksPerCall)
        calls.push_back({keys,
                         {std::to_string(std::min(left, kTasksPerCall)), std::to_string(leaseMs),
                          worker, m_tokenPrefix + randomToken(8)}});
    ClaimResult result;
    const std::vector<Reply> replies = m_connection.evalPipeline(scripts::claim, calls);
    for (size_t callIndex = 0; callIndex < replies.size(); ++callIndex) {
        const Reply& reply = replies[callIndex];
        if (reply.isError()) {
            // Tasks an earlier call of the pipeline handed out are this worker's now: they go
            // back to it (the error comes again with its next claim) rather than sit leased
            // to nobody until their leases run out.
            if (!result.tasks.empty())
                break;
            throw errorFromReply(reply.str);
        }
        requireArray(reply, 4, "claim");
        // The last call saw what the earlier ones left: its next due time is the one.
        result.serverNow = reply.elements[0].toInteger();
        long long next = reply.elements[1].toInteger();
        result.nextDue = next >= 0 ? std::optional<long long>(next) : std::nullopt;
        result.paused = reply.elements[2].toInteger() != 0;
        if (reply.elements[3].elements.empty())
            continue;
        requireArray(reply, 5, "claim");
        const long long deadline = reply.elements[4].toInteger();
        const auto& flat = reply.elements[3].elements;
        if (flat.size() % 4 != 0)
            throw Error(ErrorCode::Protocol, "claim replied tasks that are not four values each");
        const std::string& token = calls[callIndex].args[3]; // every task of a call has it
        for (size_t i = 0; i < flat.size(); i += 4) {
            // The script checked the record's shape; what it holds is read here, off Redis.
            // A record the script let through but that does not read (a hand-written one with
            // an absurd number) still reaches the worker, whole, rather than stalling the batch.
            std::optional<TaskRecord> record = parseTaskRecord(flat[i + 1].str);
            if (!record)
                record = TaskRecord{0, 0, {}, flat[i + 1].str};
            ClaimedTask t;
            t.id = flat[i].str;
            t.payload = std::move(record->payload);
            t.due = flat[i + 2].toInteger();
            t.attempts = static_cast<int>(flat[i + 3].toInteger());
            t.maxAttempts = record->maxAttempts;
            t.token = token;
            t.leaseDeadline = deadline;
            result.tasks.push_back(std::move(t));
        }
    }
    return result;
}

std::vector<bool> Queue::ack(const std::vector<std::pair<std::string, std::string>>& idTokens)
{
    requireWritable("ack tasks");
    for (const auto& idToken : idTokens)
        Keys::validateTaskId(idToken.first);
    if (namesOtherShards(idTokens))
        return onTokenShards<bool>(
            idTokens, [](Queue& shard, const IdTokens& some) { return shard.ack(some); });
    std::vector<Connection::ScriptCall> calls;
    const auto keys = scriptKeys();
    for (size_t begin = 0; begin < idTokens.size(); begin += kTasksPerCall) {
        size_t end = std::min(idTokens.size(), begin + kTasksPerCall);
        Connection::ScriptCall call{keys, {std::to_string(end - begin)}};
        for (size_t i = begin; i < end; ++i) {
            call.args.push_back(idTokens[i].first);
            call.args.push_back(idTokens[i].second);
        }
        calls.push_back(std::move(call));
    }
    std::vector<bool> results;
    results.reserve(idTokens.size());
    for (const auto& reply : m_connection.evalPipeline(scripts::ack, calls)) {
        if (reply.isError())
            throw errorFromReply(reply.str);
        for (const auto& item : reply.elements)
            results.push_back(item.toInteger() == 1);
    }
    return results;
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
    if (!isShardReader() && shardOfToken(token) != 0)
        return shardQueue(shardOfToken(token)).nack(id, token, error, retryDelayMs);
    if (retryDelayMs >= 0)
        checkDelay(retryDelayMs, m_connection.serverNowMs());
    Reply reply =
        m_connection.evalScript(scripts::nack, scriptKeys(),
                                {id, token, error,
                                 std::to_string(retryDelayMs == kNackDeadNow ? kNackDeadNow
                                                : retryDelayMs < 0           ? -1
                                                                             : retryDelayMs),
                                 m_keys.wake()});
    requireArray(reply, 2, "nack");
    return {reply.elements[0].str == "dead", reply.elements[1].toInteger()};
}

long long Queue::extend(const std::string& id, const std::string& token, long long leaseMs)
{
    requireWritable("extend a lease");
    Keys::validateTaskId(id);
    checkLease(leaseMs);
    if (!isShardReader() && shardOfToken(token) != 0)
        return shardQueue(shardOfToken(token)).extend(id, token, leaseMs);
    return m_connection
        .evalScript(scripts::extend, scriptKeys(), {id, token, std::to_string(leaseMs)})
        .toInteger();
}

std::vector<std::optional<long long>>
Queue::extend(const std::vector<std::pair<std::string, std::string>>& idTokens, long long leaseMs)
{
    requireWritable("extend leases");
    checkLease(leaseMs);
    if (namesOtherShards(idTokens))
        return onTokenShards<std::optional<long long>>(
            idTokens,
            [leaseMs](Queue& shard, const IdTokens& some) { return shard.extend(some, leaseMs); });
    std::vector<Connection::ScriptCall> calls;
    const auto keys = scriptKeys();
    for (const auto& [id, token] : idTokens) {
        Keys::validateTaskId(id);
        calls.push_back({keys, {id, token, std::to_string(leaseMs)}});
    }
    std::vector<std::optional<long long>> deadlines;
    for (const auto& reply : m_connection.evalPipeline(scripts::extend, calls)) {
        if (!reply.isError()) {
            deadlines.emplace_back(reply.toInteger());
            continue;
        }
        Error error = errorFromReply(reply.str);
        if (error.code() != ErrorCode::LeaseLost)
            throw error;
        deadlines.emplace_back(std::nullopt);
    }
    return deadlines;
}

ReapResult Queue::reap(int maxTasks)
{
    requireWritable("reap expired leases");
    if (maxTasks < 1 || maxTasks > 1000)
        throw Error(ErrorCode::InvalidArgument, "a reap takes 1 to 1000 tasks");
    if (shardCount() > 1) {
        ReapResult total;
        for (size_t s = 0; s < shardCount(); ++s) {
            const ReapResult r = shardQueue(s).reap(maxTasks);
            total.requeued += r.requeued;
            total.dead += r.dead;
            total.more = total.more || r.more;
        }
        return total;
    }
    const auto keys = scriptKeys();
    std::vector<Connection::ScriptCall> calls;
    for (int left = maxTasks; left > 0; left -= kTasksPerCall)
        calls.push_back({keys, {std::to_string(std::min(left, kTasksPerCall)), m_keys.wake()}});
    ReapResult result;
    for (const auto& reply : m_connection.evalPipeline(scripts::reap, calls)) {
        requireArray(reply, 3, "reap");
        result.requeued += static_cast<int>(reply.elements[0].toInteger());
        result.dead += static_cast<int>(reply.elements[1].toInteger());
        result.more = reply.elements[2].toInteger() != 0;
    }
    return result;
}

std::vector<IdResult> Queue::requeue(const std::vector<std::string>& ids)
{
    requireWritable("requeue dead tasks");
    if (shardCount() > 1)
        return byIdsOnShards(ids,
                             [](Queue& shard, const auto& some) { return shard.requeue(some); });
    return ScriptBatches(*this).byIds(scripts::requeue, {"ids", "1", m_keys.wake()}, ids);
}

std::vector<IdResult> Queue::deleteDead(const std::vector<std::string>& ids)
{
    requireWritable("delete dead tasks");
    if (shardCount() > 1)
        return byIdsOnShards(ids,
                             [](Queue& shard, const auto& some) { return shard.deleteDead(some); });
    return ScriptBatches(*this).byIds(scripts::deleteDead, {"ids", "1"}, ids);
}

BulkResult Queue::requeueAll(int batch, int maxCalls)
{
    requireWritable("requeue dead tasks");
    if (shardCount() > 1)
        return onEveryShard([&](Queue& shard) { return shard.requeueAll(batch, maxCalls); });
    return ScriptBatches(*this).untilDone(
        scripts::requeue, {"all", std::to_string(batch), m_keys.wake()}, batch, maxCalls);
}

BulkResult Queue::deleteAllDead(int batch, int maxCalls)
{
    requireWritable("delete dead tasks");
    if (shardCount() > 1)
        return onEveryShard([&](Queue& shard) { return shard.deleteAllDead(batch, maxCalls); });
    return ScriptBatches(*this).untilDone(scripts::deleteDead, {"all", std::to_string(batch)},
                                          batch, maxCalls);
}

BulkResult Queue::purge(int batch, int maxCalls)
{
    requireWritable("purge the queue");
    if (shardCount() > 1)
        return onEveryShard([&](Queue& shard) { return shard.purge(batch, maxCalls); });
    return ScriptBatches(*this).untilDone(scripts::purge, {std::to_string(batch)}, batch, maxCalls);
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

BulkResult Queue::onEveryShard(const std::function<BulkResult(Queue&)>& run)
{
    BulkResult total;
    for (size_t s = 0; s < shardCount(); ++s) {
        Queue shard = shardQueue(s);
        const BulkResult r = run(shard);
        total.done += r.done;
        total.remaining += r.remaining;
    }
    return total;
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
    auto keys = scriptKeys();
    keys.push_back(m_keys.oldTaskPrefix());
    UpgradeResult result;
    for (int calls = 0; maxCalls <= 0 || calls < maxCalls; ++calls) {
        Reply reply = m_connection.evalScript(scripts::upgrade, keys, {std::to_string(batch)});
        requireArray(reply, 2, "upgrade");
        result.converted += reply.elements[0].toInteger();
        if (reply.elements[1].toInteger() == 1) {
            result.finished = true;
            break;
        }
    }
    return result;
}

} // namespace delayq
