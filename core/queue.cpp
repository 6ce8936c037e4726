#include <delayq/queue.h>

#include "taskrecord.h"

#include <delayq/auditlog.h>
#include <delayq/error.h>
#include <delayq/taskid.h>
#include <delayq/timeparse.h>

#include <algorithm>
#include <charconv>

namespace delayq {

namespace {

// Script calls take at most this many ids, or tasks for the scripts that do several
// commands per task (push, claim, ack, reap), so no call runs long on the server (the
// target is under 5 ms on a queue of millions: tests/limits/scriptlimits). Larger requests
// become several calls, pipelined in one round trip.
constexpr size_t kChunk = 500;
constexpr int kTasksPerCall = 100;
// 9999-12-31T23:59:59.999Z: the latest due time, so every time stays a valid date.
constexpr long long kLatestDueMs = 253402300799999LL;
// The longest lease, as for the lease_ms config: a week.
constexpr long long kMaxLeaseMs = 7LL * 86'400'000;

void checkLease(long long leaseMs)
{
    if (leaseMs < 0 || leaseMs > kMaxLeaseMs)
        throw Error(ErrorCode::InvalidArgument,
                    "the lease must be 0 (the queue's lease_ms) to 7 days, in ms");
}

long long toLong(const std::string& text, long long fallback, bool* ok = nullptr)
{
    long long value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    bool good = !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
    if (ok)
        *ok = good;
    return good ? value : fallback;
}

IdResult::Status idStatusFromWord(const std::string& word)
{
    if (word == "done")
        return IdResult::Status::Done;
    if (word == "active")
        return IdResult::Status::Active;
    if (word == "dead")
        return IdResult::Status::Dead;
    if (word == "pending")
        return IdResult::Status::Pending;
    return IdResult::Status::NotFound;
}

void requireArray(const Reply& reply, size_t minSize, const char* what)
{
    if (!reply.isArray() || reply.elements.size() < minSize)
        throw Error(ErrorCode::Protocol, std::string("unexpected reply shape from ") + what);
}

} // namespace

Queue::Queue(Connection& connection, const std::string& name, const std::string& prefix)
    : m_connection(connection), m_keys(prefix, name)
{}

void Queue::checkDelay(long long delayMs, long long nowMs)
{
    if (delayMs < 0)
        throw Error(ErrorCode::InvalidArgument, "the delay must not be negative");
    if (delayMs > kLatestDueMs - nowMs)
        throw Error(ErrorCode::InvalidArgument, "the delay reaches past the year 9999");
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

std::string Queue::setKey(TaskSet set) const
{
    switch (set) {
    case TaskSet::Pending:
        return m_keys.pending();
    case TaskSet::Active:
        return m_keys.active();
    case TaskSet::Dead:
        return m_keys.dead();
    }
    return m_keys.pending();
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
    if (text.empty())
        return "";
    auto refuse = [&](const std::string& why) {
        throw Error(ErrorCode::InvalidArgument,
                    "invalid backoff '" + text.substr(0, 64) + "': " + why +
                        " (expected a list like 5s,20s,30s or exp:BASE:MAX like exp:1s:5m)");
    };
    if (text.size() > 512)
        refuse("it is too long");
    if (text.rfind("exp:", 0) == 0) {
        std::string rest = text.substr(4);
        auto colon = rest.find(':');
        if (colon == std::string::npos)
            refuse("exp needs a base and a maximum");
        long long base = 0, max = 0;
        try {
            base = parseDuration(rest.substr(0, colon));
            max = parseDuration(rest.substr(colon + 1));
        } catch (const Error& e) {
            refuse(e.what());
        }
        if (base <= 0 || max < base)
            refuse("the base must be above 0 and the maximum at least the base");
        return "exp:" + std::to_string(base) + ":" + std::to_string(max);
    }
    std::string out;
    size_t start = 0;
    int count = 0;
    while (start <= text.size()) {
        size_t comma = text.find(',', start);
        std::string part = text.substr(start, comma == std::string::npos ? comma : comma - start);
        long long ms = 0;
        try {
            ms = parseDuration(part);
        } catch (const Error& e) {
            refuse(e.what());
        }
        if (++count > 32)
            refuse("at most 32 steps");
        if (!out.empty())
            out += ',';
        out += std::to_string(ms);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out;
}

PushResult Queue::push(const PushRequest& request)
{
    return pushBatch({request}).front();
}

std::vector<PushResult> Queue::pushBatch(const std::vector<PushRequest>& requests)
{
    requireWritable("push");
    std::vector<PushResult> results;
    if (requests.empty())
        return results;
    results.reserve(requests.size());

    // Validate everything first: a bad request refuses the whole batch and changes nothing.
    std::vector<std::string> ids;
    std::vector<std::string> settings; // push.lua's "" or "MAX_ATTEMPTS|BACKOFF"
    ids.reserve(requests.size());
    settings.reserve(requests.size());
    // Once, not per request: with the server unreachable each call would try to connect.
    const long long nowMs = m_connection.serverNowMs();
    for (const auto& r : requests) {
        std::string id = r.id.empty() ? generateTaskId() : r.id;
        Keys::validateTaskId(id);
        checkDelay(r.delayMs, nowMs);
        if (r.dueAtMs && (*r.dueAtMs < 0 || *r.dueAtMs > kLatestDueMs))
            throw Error(ErrorCode::InvalidArgument, "the due time must be between 1970 and 9999");
        if (r.maxAttempts < 0 || r.maxAttempts > 1000000)
            throw Error(ErrorCode::InvalidArgument, "max attempts must be 0 to 1000000");
        std::string backoff = normalizeBackoff(r.backoff);
        settings.push_back(r.maxAttempts == 0 && backoff.empty()
                               ? std::string()
                               : std::to_string(r.maxAttempts) + "|" + backoff);
        ids.push_back(std::move(id));
    }
    registerQueue();

    const auto keys = scriptKeys();
    const std::string actor = actorArg();
    std::vector<Connection::ScriptCall> calls;
    for (size_t begin = 0, end = 0; begin < requests.size(); begin = end) {
        // The script takes one mode and one due kind per call: a chunk ends where either
        // changes.
        const auto sameCall = [&](const PushRequest& a, const PushRequest& b) {
            return a.replace == b.replace && a.dueAtMs.has_value() == b.dueAtMs.has_value();
        };
        end = begin + 1;
        while (end < requests.size() && end - begin < static_cast<size_t>(kTasksPerCall) &&
               sameCall(requests[end], requests[begin]))
            ++end;
        Connection::ScriptCall call{keys, {}};
        call.args.reserve(5 + (end - begin) * 4);
        call.args.push_back(requests[begin].replace ? "replace" : "nx");
        call.args.push_back(m_keys.wake());
        call.args.push_back(requests[begin].dueAtMs ? "at" : "in");
        call.args.push_back(std::to_string(end - begin));
        for (size_t i = begin; i < end; ++i) {
            const auto& r = requests[i];
            call.args.push_back(ids[i]);
            call.args.push_back(r.payload);
            call.args.push_back(std::to_string(r.dueAtMs ? *r.dueAtMs : r.delayMs));
            call.args.push_back(settings[i]);
        }
        call.args.push_back(actor);
        calls.push_back(std::move(call));
    }
    auto replies = m_connection.evalPipeline(scripts::push, calls);
    size_t index = 0;
    for (const auto& reply : replies) {
        if (reply.isError())
            throw Connection::errorFromReply(reply.str);
        requireArray(reply, 0, "push");
        for (size_t k = 0; k + 1 < reply.elements.size() && index < ids.size(); k += 2) {
            PushResult result;
            result.id = ids[index++];
            result.status = pushStatusFromName(reply.elements[k].str);
            result.due = reply.elements[k + 1].toInteger();
            results.push_back(std::move(result));
        }
    }
    return results;
}

std::vector<IdResult> Queue::idScript(const Script& script, const std::vector<std::string>& keys,
                                      const std::vector<std::string>& leadingArgs,
                                      const std::vector<std::string>& ids)
{
    for (const auto& id : ids)
        Keys::validateTaskId(id);
    // Every script called by id changes tasks on someone's behalf: each takes the actor last.
    const std::string actor = actorArg();
    std::vector<Connection::ScriptCall> calls;
    for (size_t begin = 0; begin < ids.size(); begin += kChunk) {
        size_t end = std::min(ids.size(), begin + kChunk);
        Connection::ScriptCall call{keys, leadingArgs};
        call.args.insert(call.args.end(), ids.begin() + static_cast<long>(begin),
                         ids.begin() + static_cast<long>(end));
        call.args.push_back(actor);
        calls.push_back(std::move(call));
    }
    auto replies = m_connection.evalPipeline(script, calls);
    std::vector<IdResult> results;
    results.reserve(ids.size());
    size_t index = 0;
    for (const auto& reply : replies) {
        if (reply.isError())
            throw Connection::errorFromReply(reply.str);
        // cancel replies with the statuses; reschedule/requeue/delete_dead nest them.
        const Reply* statuses = &reply;
        if (reply.isArray() && !reply.elements.empty() && reply.elements.back().isArray())
            statuses = &reply.elements.back();
        requireArray(*statuses, 0, script.name.data());
        for (const auto& word : statuses->elements)
            if (index < ids.size())
                results.push_back({ids[index++], idStatusFromWord(word.str)});
    }
    return results;
}

std::vector<IdResult> Queue::cancel(const std::vector<std::string>& ids, bool force)
{
    requireWritable("cancel tasks");
    return idScript(scripts::cancel, scriptKeys(), {force ? "1" : "0"}, ids);
}

std::vector<IdResult> Queue::reschedule(const std::vector<std::string>& ids,
                                        std::optional<long long> dueAtMs, long long delayMs)
{
    requireWritable("reschedule tasks");
    checkDelay(delayMs, m_connection.serverNowMs());
    if (dueAtMs && (*dueAtMs < 0 || *dueAtMs > kLatestDueMs))
        throw Error(ErrorCode::InvalidArgument, "the due time must be between 1970 and 9999");
    return idScript(
        scripts::reschedule, scriptKeys(),
        {dueAtMs ? "at" : "in", std::to_string(dueAtMs ? *dueAtMs : delayMs), m_keys.wake()}, ids);
}

ClaimResult Queue::claim(int maxTasks, long long leaseMs, const std::string& worker)
{
    requireWritable("claim tasks");
    if (maxTasks < 1 || maxTasks > 1000)
        throw Error(ErrorCode::InvalidArgument, "a claim takes 1 to 1000 tasks");
    checkLease(leaseMs);
    const auto keys = scriptKeys();
    std::vector<Connection::ScriptCall> calls;
    for (int left = maxTasks; left > 0; left -= kTasksPerCall)
        calls.push_back({keys,
                         {std::to_string(std::min(left, kTasksPerCall)), std::to_string(leaseMs),
                          worker, randomToken(8)}});
    ClaimResult result;
    for (const auto& reply : m_connection.evalPipeline(scripts::claim, calls)) {
        if (reply.isError()) {
            // Tasks an earlier call of the pipeline handed out are this worker's now: they go
            // back to it (the error comes again with its next claim) rather than sit leased
            // to nobody until their leases run out.
            if (!result.tasks.empty())
                break;
            throw Connection::errorFromReply(reply.str);
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
        for (const auto& item : reply.elements[3].elements) {
            requireArray(item, 5, "claim");
            // The script checked the record's shape; what it holds is read here, off Redis.
            // A record the script let through but that does not read (a hand-written one with
            // an absurd number) still reaches the worker, whole, rather than stalling the batch.
            std::optional<TaskRecord> record = parseTaskRecord(item.elements[1].str);
            if (!record)
                record = TaskRecord{0, 0, {}, item.elements[1].str};
            ClaimedTask t;
            t.id = item.elements[0].str;
            t.payload = std::move(record->payload);
            t.due = item.elements[2].toInteger();
            t.attempts = static_cast<int>(item.elements[3].toInteger());
            t.maxAttempts = record->maxAttempts;
            t.token = item.elements[4].str;
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
            throw Connection::errorFromReply(reply.str);
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
    if (retryDelayMs >= 0)
        checkDelay(retryDelayMs, m_connection.serverNowMs());
    Reply reply = m_connection.evalScript(
        scripts::nack, scriptKeys(),
        {id, token, error, std::to_string(retryDelayMs < 0 ? -1 : retryDelayMs), m_keys.wake()});
    requireArray(reply, 2, "nack");
    return {reply.elements[0].str == "dead", reply.elements[1].toInteger()};
}

long long Queue::extend(const std::string& id, const std::string& token, long long leaseMs)
{
    requireWritable("extend a lease");
    Keys::validateTaskId(id);
    checkLease(leaseMs);
    return m_connection
        .evalScript(scripts::extend, scriptKeys(), {id, token, std::to_string(leaseMs)})
        .toInteger();
}

ReapResult Queue::reap(int maxTasks)
{
    requireWritable("reap expired leases");
    if (maxTasks < 1 || maxTasks > 1000)
        throw Error(ErrorCode::InvalidArgument, "a reap takes 1 to 1000 tasks");
    const auto keys = scriptKeys();
    std::vector<Connection::ScriptCall> calls;
    for (int left = maxTasks; left > 0; left -= kTasksPerCall)
        calls.push_back({keys, {std::to_string(std::min(left, kTasksPerCall)), m_keys.wake()}});
    ReapResult result;
    for (const auto& reply : m_connection.evalPipeline(scripts::reap, calls)) {
        if (reply.isError())
            throw Connection::errorFromReply(reply.str);
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
    return idScript(scripts::requeue, scriptKeys(), {"ids", "1", m_keys.wake()}, ids);
}

std::vector<IdResult> Queue::deleteDead(const std::vector<std::string>& ids)
{
    requireWritable("delete dead tasks");
    return idScript(scripts::deleteDead, scriptKeys(), {"ids", "1"}, ids);
}

BulkResult Queue::bulkScript(const Script& script, const std::vector<std::string>& args, int batch,
                             int maxCalls)
{
    if (batch < 1 || batch > 1000)
        throw Error(ErrorCode::InvalidArgument, "a batch is 1 to 1000 tasks");
    BulkResult total;
    const auto keys = scriptKeys();
    // The bulk scripts (requeue, delete_dead, purge) take the actor last, as by id.
    std::vector<std::string> argv = args;
    argv.push_back(actorArg());
    // Bounded calls in a loop: Redis serves other clients between them.
    for (int calls = 0; maxCalls <= 0 || calls < maxCalls; ++calls) {
        Reply reply = m_connection.evalScript(script, keys, argv);
        requireArray(reply, 2, script.name.data());
        long long done = reply.elements[0].toInteger();
        total.done += done;
        total.remaining = reply.elements[1].toInteger();
        if (done == 0 || total.remaining == 0)
            break;
    }
    return total;
}

BulkResult Queue::requeueAll(int batch, int maxCalls)
{
    requireWritable("requeue dead tasks");
    return bulkScript(scripts::requeue, {"all", std::to_string(batch), m_keys.wake()}, batch,
                      maxCalls);
}

BulkResult Queue::deleteAllDead(int batch, int maxCalls)
{
    requireWritable("delete dead tasks");
    return bulkScript(scripts::deleteDead, {"all", std::to_string(batch)}, batch, maxCalls);
}

BulkResult Queue::purge(int batch, int maxCalls)
{
    requireWritable("purge the queue");
    return bulkScript(scripts::purge, {std::to_string(batch)}, batch, maxCalls);
}

QueueConfig Queue::config()
{
    Reply reply = m_connection.command({"HGETALL", m_keys.config()});
    QueueConfig config;
    for (size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
        const std::string& field = reply.elements[i].str;
        const std::string& value = reply.elements[i + 1].str;
        bool ok = false;
        long long n = toLong(value, 0, &ok);
        // Garbage in the config hash is ignored the same way the scripts ignore it.
        if (field == "max_attempts" && ok && n > 0)
            config.maxAttempts = static_cast<int>(n);
        else if (field == "backoff" && !value.empty())
            config.backoff = value;
        else if (field == "lease_ms" && ok && n > 0)
            config.leaseMs = n;
        else if (field == "max_payload" && ok && n >= 0)
            config.maxPayload = n;
        else if (field == "audit_len" && ok && n > 0)
            config.auditLen = n;
        else if (field == "paused")
            config.paused = value == "1";
    }
    return config;
}

void Queue::setConfig(const std::string& key, const std::string& value)
{
    requireWritable("change the queue's config");
    const std::string stored = normalizeConfig(key, value);
    registerQueue();
    // A script, so that the change and its audit entry are one atomic step.
    m_connection.evalScript(scripts::config, scriptKeys(), {key, stored, actorArg()});
}

std::string Queue::normalizeConfig(const std::string& key, const std::string& value)
{
    auto number = [&](long long min, long long max) {
        bool ok = false;
        long long n = toLong(value, 0, &ok);
        if (!ok || n < min || n > max)
            throw Error(ErrorCode::InvalidArgument, key + " must be a whole number from " +
                                                        std::to_string(min) + " to " +
                                                        std::to_string(max));
        return std::to_string(n);
    };
    auto durationMs = [&](long long min, long long max) {
        bool ok = false;
        long long n = toLong(value, 0, &ok);
        if (!ok)
            n = parseDuration(value);
        if (n < min || n > max)
            throw Error(ErrorCode::InvalidArgument, key + " must be from " + formatDuration(min) +
                                                        " to " + formatDuration(max));
        return std::to_string(n);
    };
    std::string stored;
    if (key == "max_attempts")
        stored = number(1, 1000000);
    else if (key == "backoff")
        stored = value.empty() ? throw Error(ErrorCode::InvalidArgument, "backoff is empty")
                               : normalizeBackoff(value);
    else if (key == "lease_ms")
        stored = durationMs(100, 7LL * 86'400'000);
    else if (key == "max_payload")
        stored = number(1, 512LL * 1024 * 1024);
    else if (key == "audit_len")
        stored = number(1, 1000000);
    else if (key == "paused") {
        if (value == "1" || value == "true" || value == "yes")
            stored = "1";
        else if (value == "0" || value == "false" || value == "no")
            stored = "0";
        else
            throw Error(ErrorCode::InvalidArgument, "paused must be 1 or 0 (true or false)");
    } else
        throw Error(ErrorCode::InvalidArgument,
                    "unknown config key '" + key.substr(0, 64) +
                        "' (known: max_attempts, backoff, lease_ms, max_payload, paused, "
                        "audit_len)");
    return stored;
}

std::vector<AuditEntry> Queue::audit(long long sinceMs, int limit)
{
    return AuditLog(m_connection, m_keys).read(sinceMs, limit);
}

QueueCounts Queue::counts()
{
    const std::string now = std::to_string(m_connection.serverNowMs());
    auto replies = m_connection.pipeline({{"ZCARD", m_keys.pending()},
                                          {"ZCOUNT", m_keys.pending(), "-inf", now},
                                          {"ZCARD", m_keys.active()},
                                          {"ZCARD", m_keys.dead()}});
    for (const auto& r : replies)
        if (r.isError())
            throw Connection::errorFromReply(r.str);
    return {replies[0].toInteger(), replies[1].toInteger(), replies[2].toInteger(),
            replies[3].toInteger()};
}

Counters Queue::stats()
{
    Reply reply = m_connection.command({"HGETALL", m_keys.stats()});
    Counters counters;
    for (const char* name :
         {"pushed", "claimed", "acked", "retried", "died", "cancelled", "expired", "broken"})
        counters[name] = 0;
    for (size_t i = 0; i + 1 < reply.elements.size(); i += 2)
        counters[reply.elements[i].str] = toLong(reply.elements[i + 1].str, 0);
    return counters;
}

std::vector<MinuteCounters> Queue::history(long long fromMinute, long long toMinute)
{
    if (fromMinute < 0 || toMinute < fromMinute || toMinute - fromMinute > 48 * 60)
        throw Error(ErrorCode::InvalidArgument, "history covers at most 48 hours");
    std::vector<std::vector<std::string>> commands;
    for (long long m = fromMinute; m <= toMinute; ++m)
        commands.push_back({"HGETALL", m_keys.minute(m)});
    auto replies = m_connection.pipeline(commands);
    std::vector<MinuteCounters> out;
    for (size_t i = 0; i < replies.size(); ++i) {
        if (replies[i].isError())
            throw Connection::errorFromReply(replies[i].str);
        MinuteCounters mc;
        mc.minute = fromMinute + static_cast<long long>(i);
        for (size_t k = 0; k + 1 < replies[i].elements.size(); k += 2)
            mc.counters[replies[i].elements[k].str] = toLong(replies[i].elements[k + 1].str, 0);
        out.push_back(std::move(mc));
    }
    return out;
}

std::vector<long long> Queue::histogram(long long fromMs, long long toMs, int buckets)
{
    if (buckets < 1 || buckets > 10000)
        throw Error(ErrorCode::InvalidArgument, "a histogram has 1 to 10000 buckets");
    if (toMs <= fromMs)
        throw Error(ErrorCode::InvalidArgument, "the histogram's end must be after its start");
    // Far wider than any due time (a chart may start before 1970), but bounded so that the
    // bucket arithmetic cannot overflow.
    constexpr long long kBound = 4'000'000'000'000'000LL; // about 127,000 years
    if (fromMs < -kBound || toMs > kBound)
        throw Error(ErrorCode::InvalidArgument,
                    "a histogram's times must lie within 4e15 ms of 1970 (about 127,000 years)");
    std::vector<std::vector<std::string>> commands;
    commands.reserve(static_cast<size_t>(buckets));
    const double width = static_cast<double>(toMs - fromMs) / buckets;
    for (int i = 0; i < buckets; ++i) {
        long long lo = fromMs + static_cast<long long>(width * i);
        long long hi = i + 1 == buckets ? toMs : fromMs + static_cast<long long>(width * (i + 1));
        // "(" makes the upper bound exclusive, so no task is counted twice.
        commands.push_back(
            {"ZCOUNT", m_keys.pending(), std::to_string(lo), "(" + std::to_string(hi)});
    }
    std::vector<long long> counts;
    counts.reserve(commands.size());
    for (const auto& r : m_connection.pipeline(commands)) {
        if (r.isError())
            throw Connection::errorFromReply(r.str);
        counts.push_back(r.toInteger());
    }
    return counts;
}

long long Queue::dueBy(long long ms)
{
    return m_connection.command({"ZCOUNT", m_keys.pending(), "-inf", std::to_string(ms)})
        .toInteger();
}

std::vector<std::vector<std::string>> Queue::taskReads(const std::string& id) const
{
    return {{"HGET", m_keys.dataKey(id), id},
            {"HGET", m_keys.run(), id},
            {"HGET", m_keys.errors(), id}};
}

std::vector<Task> Queue::loadTasks(TaskSet set,
                                   const std::vector<std::pair<std::string, long long>>& members)
{
    std::vector<std::vector<std::string>> commands;
    commands.reserve(members.size() * 3);
    for (const auto& m : members)
        for (auto& read : taskReads(m.first))
            commands.push_back(std::move(read));
    auto replies = m_connection.pipeline(commands);
    for (const auto& r : replies)
        if (r.isError())
            throw Connection::errorFromReply(r.str);
    std::vector<Task> tasks;
    tasks.reserve(members.size());
    for (size_t i = 0; i < members.size(); ++i) {
        Task t;
        t.id = members[i].first;
        t.score = members[i].second;
        fillTask(t, set, replies[3 * i], replies[3 * i + 1], replies[3 * i + 2]);
        tasks.push_back(std::move(t));
    }
    return tasks;
}

namespace {

std::vector<std::pair<std::string, long long>> membersWithScores(const Reply& reply)
{
    std::vector<std::pair<std::string, long long>> out;
    for (size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
        long long score = 0;
        try {
            score = reply.elements[i + 1].toInteger();
        } catch (const Error&) {
            score = 0; // "inf" or a float: shown as broken by its missing fields, not a crash
        }
        out.emplace_back(reply.elements[i].str, score);
    }
    return out;
}

} // namespace

std::vector<Task> Queue::page(TaskSet set, long long offset, long long limit)
{
    // The offset bound keeps offset + limit from overflowing.
    if (offset < 0 || offset > kLatestDueMs || limit < 1 || limit > 10000)
        throw Error(ErrorCode::InvalidArgument, "a page is 1 to 10000 tasks from offset 0 on");
    Reply reply = m_connection.command({"ZRANGE", setKey(set), std::to_string(offset),
                                        std::to_string(offset + limit - 1), "WITHSCORES"});
    return loadTasks(set, membersWithScores(reply));
}

std::vector<Task> Queue::pageFromScore(TaskSet set, long long fromScore, long long limit)
{
    if (limit < 1 || limit > 10000)
        throw Error(ErrorCode::InvalidArgument, "a page is 1 to 10000 tasks");
    Reply reply = m_connection.command({"ZRANGEBYSCORE", setKey(set), std::to_string(fromScore),
                                        "+inf", "WITHSCORES", "LIMIT", "0", std::to_string(limit)});
    return loadTasks(set, membersWithScores(reply));
}

long long Queue::rankOfScore(TaskSet set, long long score)
{
    return m_connection.command({"ZCOUNT", setKey(set), "-inf", "(" + std::to_string(score)})
        .toInteger();
}

std::optional<long long> Queue::rankOf(TaskSet set, const std::string& id)
{
    const Reply rank = m_connection.command({"ZRANK", setKey(set), id});
    return rank.isNil() ? std::nullopt : std::optional<long long>(rank.toInteger());
}

long long Queue::size(TaskSet set)
{
    return m_connection.command({"ZCARD", setKey(set)}).toInteger();
}

std::optional<long long> Queue::earliest(TaskSet set)
{
    Reply reply = m_connection.command({"ZRANGE", setKey(set), "0", "0", "WITHSCORES"});
    auto members = membersWithScores(reply);
    if (members.empty())
        return std::nullopt;
    return members.front().second;
}

std::optional<std::pair<TaskSet, Task>> Queue::find(const std::string& id)
{
    Keys::validateTaskId(id);
    std::vector<std::vector<std::string>> commands = {{"ZSCORE", m_keys.pending(), id},
                                                      {"ZSCORE", m_keys.active(), id},
                                                      {"ZSCORE", m_keys.dead(), id}};
    for (auto& read : taskReads(id))
        commands.push_back(std::move(read));
    auto replies = m_connection.pipeline(commands);
    for (const auto& r : replies)
        if (r.isError())
            throw Connection::errorFromReply(r.str);
    const TaskSet sets[] = {TaskSet::Pending, TaskSet::Active, TaskSet::Dead};
    for (int i = 0; i < 3; ++i) {
        if (replies[static_cast<size_t>(i)].isNil())
            continue;
        Task t;
        t.id = id;
        t.score = replies[static_cast<size_t>(i)].toInteger();
        fillTask(t, sets[i], replies[3], replies[4], replies[5]);
        return std::make_pair(sets[i], std::move(t));
    }
    return std::nullopt;
}

bool Queue::needsUpgrade()
{
    std::vector<std::vector<std::string>> commands = {
        {"HEXISTS", m_keys.config(), "upgrade_cursor"}};
    for (TaskSet set : {TaskSet::Pending, TaskSet::Active, TaskSet::Dead}) {
        commands.push_back({"ZRANGE", setKey(set), "0", "0"});
        commands.push_back({"ZRANGE", setKey(set), "-1", "-1"});
    }
    auto replies = m_connection.pipeline(commands);
    for (const auto& r : replies)
        if (r.isError())
            throw Connection::errorFromReply(r.str);
    if (replies[0].toInteger() == 1)
        return true;
    std::vector<std::vector<std::string>> exists;
    for (size_t i = 1; i < replies.size(); ++i)
        for (const auto& member : replies[i].elements)
            exists.push_back({"EXISTS", m_keys.oldTaskPrefix() + member.str});
    if (exists.empty())
        return false;
    for (const auto& r : m_connection.pipeline(exists)) {
        if (r.isError())
            throw Connection::errorFromReply(r.str);
        if (r.toInteger() == 1)
            return true;
    }
    return false;
}

void Queue::requireCurrentLayout()
{
    if (needsUpgrade())
        throw Error(ErrorCode::OldLayout,
                    "queue '" + name() +
                        "' is stored in the layout of an older delayq (one hash per task), or its "
                        "upgrade was interrupted: stop its old workers and producers, then run "
                        "'delayq upgrade " +
                        name() + "'");
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

std::vector<std::string> Queue::listQueues(Connection& connection, const std::string& prefix,
                                           int limit)
{
    Keys::validatePrefix(prefix);
    std::vector<std::string> names;
    std::string cursor = "0";
    do {
        Reply reply = connection.command({"SSCAN", Keys::queues(prefix), cursor, "COUNT", "1000"});
        requireArray(reply, 2, "SSCAN");
        cursor = reply.elements[0].str;
        for (const auto& member : reply.elements[1].elements)
            names.push_back(member.str);
    } while (cursor != "0" && static_cast<int>(names.size()) < limit);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    if (static_cast<int>(names.size()) > limit)
        names.resize(static_cast<size_t>(limit));
    return names;
}

std::vector<QueueSummary> Queue::summaries(Connection& connection,
                                           const std::vector<std::string>& names,
                                           const std::string& prefix)
{
    const std::string now = std::to_string(connection.serverNowMs());
    std::vector<std::vector<std::string>> commands;
    std::vector<std::string> valid;
    for (const auto& name : names) {
        try {
            Keys keys(prefix, name);
            commands.push_back({"ZCARD", keys.pending()});
            commands.push_back({"ZCOUNT", keys.pending(), "-inf", now});
            commands.push_back({"ZCARD", keys.active()});
            commands.push_back({"ZCARD", keys.dead()});
            valid.push_back(name);
        } catch (const Error&) {
            // A name someone wrote into dq:queues by hand that is not a valid queue name.
        }
    }
    auto replies = connection.pipeline(commands);
    std::vector<QueueSummary> out;
    for (size_t i = 0; i < valid.size(); ++i) {
        QueueSummary s;
        s.name = valid[i];
        auto value = [&](size_t k) {
            const Reply& r = replies[i * 4 + k];
            return r.isError() ? -1 : r.toInteger(); // -1: the key has the wrong type
        };
        s.counts = {value(0), value(1), value(2), value(3)};
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace delayq
