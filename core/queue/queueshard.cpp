#include "queue/queueshard.h"

#include "records/taskrecord.h"
#include "records/valuechecks.h"
#include "transport/replychecks.h"

#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/script.h>
#include <delayq/taskid.h>

#include <algorithm>

namespace delayq {

QueueShard::QueueShard(Connection& connection, const Keys& keys, std::string tokenPrefix,
                       std::string share)
    : m_connection(connection), m_keys(keys), m_tokenPrefix(std::move(tokenPrefix)),
      m_share(std::move(share))
{}

std::vector<std::string> QueueShard::scriptKeys() const
{
    return {m_keys.pending(),      m_keys.active(), m_keys.dead(),
            m_keys.dataPrefix(),   m_keys.config(), m_keys.stats(),
            m_keys.minutePrefix(), m_keys.run(),    m_keys.errors()};
}

long long QueueShard::extend(const std::string& id, const std::string& token, long long leaseMs)
{
    return m_connection
        .evalScript(scripts::extend, scriptKeys(), {id, token, std::to_string(leaseMs)})
        .toInteger();
}

ClaimResult QueueShard::claim(int maxTasks, long long leaseMs, const std::string& worker)
{
    const auto keys = scriptKeys();
    std::vector<Connection::ScriptCall> calls;
    for (int left = maxTasks; left > 0; left -= kTasksPerCall) {
        calls.push_back({keys,
                         {std::to_string(std::min(left, kTasksPerCall)), std::to_string(leaseMs),
                          worker, m_tokenPrefix + randomToken(8)}});
        if (!m_share.empty())
            calls.back().args.push_back(m_share);
    }
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

std::vector<bool> QueueShard::ack(const IdTokens& idTokens)
{
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

NackResult QueueShard::nack(const std::string& id, const std::string& token,
                            const std::string& error, long long retryDelayMs)
{
    Reply reply = m_connection.evalScript(
        scripts::nack, scriptKeys(),
        {id, token, error,
         std::to_string(retryDelayMs == Queue::kNackDeadNow ? Queue::kNackDeadNow
                        : retryDelayMs < 0                  ? -1
                                                            : retryDelayMs),
         m_keys.wake()});
    requireArray(reply, 2, "nack");
    return {reply.elements[0].str == "dead", reply.elements[1].toInteger()};
}

std::vector<std::optional<long long>> QueueShard::extend(const IdTokens& idTokens,
                                                         long long leaseMs)
{
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

ReapResult QueueShard::reap(int maxTasks)
{
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

} // namespace delayq
