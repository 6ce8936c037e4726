#include <delayq/queuereader.h>

#include "queue/valuechecks.h"
#include "records/taskrecord.h"
#include "transport/replychecks.h"

#include <delayq/auditlog.h>
#include <delayq/error.h>

#include <algorithm>

namespace delayq {

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

// The fields of an HGETALL reply as counters; a value that is not a whole number counts 0.
void addCounters(Counters& counters, const Reply& reply)
{
    for (size_t i = 0; i + 1 < reply.elements.size(); i += 2)
        counters[reply.elements[i].str] = wholeNumber(reply.elements[i + 1].str).value_or(0);
}

} // namespace

QueueReader::QueueReader(Connection& connection, const std::string& name, const std::string& prefix)
    : m_connection(connection), m_keys(prefix, name)
{}

QueueConfig QueueReader::config()
{
    Reply reply = m_connection.command({"HGETALL", m_keys.config()});
    QueueConfig config;
    for (size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
        const std::string& field = reply.elements[i].str;
        const std::string& value = reply.elements[i + 1].str;
        const std::optional<long long> number = wholeNumber(value);
        const bool ok = number.has_value();
        const long long n = number.value_or(0);
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
        else if (field == "history" && ok && n > 0 && n <= 100)
            config.history = static_cast<int>(n);
        else if (field == "paused")
            config.paused = value == "1";
    }
    return config;
}

QueueCounts QueueReader::counts()
{
    const std::string now = std::to_string(m_connection.serverNowMs());
    auto replies = m_connection.pipeline({{"ZCARD", m_keys.pending()},
                                          {"ZCOUNT", m_keys.pending(), "-inf", now},
                                          {"ZCARD", m_keys.active()},
                                          {"ZCARD", m_keys.dead()},
                                          {"ZCOUNT", m_keys.active(), "-inf", now}});
    throwFirstError(replies);
    return {replies[0].toInteger(), replies[1].toInteger(), replies[2].toInteger(),
            replies[3].toInteger(), replies[4].toInteger()};
}

Counters QueueReader::stats()
{
    Reply reply = m_connection.command({"HGETALL", m_keys.stats()});
    Counters counters;
    for (const char* name :
         {"pushed", "claimed", "acked", "retried", "died", "cancelled", "expired", "broken"})
        counters[name] = 0;
    addCounters(counters, reply);
    return counters;
}

std::vector<MinuteCounters> QueueReader::history(long long fromMinute, long long toMinute)
{
    if (fromMinute < 0 || toMinute < fromMinute || toMinute - fromMinute > 48 * 60)
        throw Error(ErrorCode::InvalidArgument, "history covers at most 48 hours");
    std::vector<std::vector<std::string>> commands;
    for (long long m = fromMinute; m <= toMinute; ++m)
        commands.push_back({"HGETALL", m_keys.minute(m)});
    auto replies = m_connection.pipeline(commands);
    std::vector<MinuteCounters> out;
    throwFirstError(replies);
    for (size_t i = 0; i < replies.size(); ++i) {
        MinuteCounters mc;
        mc.minute = fromMinute + static_cast<long long>(i);
        addCounters(mc.counters, replies[i]);
        out.push_back(std::move(mc));
    }
    return out;
}

std::vector<long long> QueueReader::histogram(long long fromMs, long long toMs, int buckets)
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
            throw errorFromReply(r.str);
        counts.push_back(r.toInteger());
    }
    return counts;
}

long long QueueReader::dueBy(long long ms)
{
    return m_connection.command({"ZCOUNT", m_keys.pending(), "-inf", std::to_string(ms)})
        .toInteger();
}

std::vector<std::vector<std::string>> QueueReader::taskReads(const std::string& id) const
{
    return {{"HGET", m_keys.dataKey(id), id},
            {"HGET", m_keys.run(), id},
            {"HGET", m_keys.errors(), id}};
}

std::vector<Task>
QueueReader::loadTasks(TaskSet set, const std::vector<std::pair<std::string, long long>>& members)
{
    std::vector<std::vector<std::string>> commands;
    commands.reserve(members.size() * 3);
    for (const auto& m : members)
        for (auto& read : taskReads(m.first))
            commands.push_back(std::move(read));
    auto replies = m_connection.pipeline(commands);
    throwFirstError(replies);
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

std::vector<Task> QueueReader::page(TaskSet set, long long offset, long long limit)
{
    // The offset bound keeps offset + limit from overflowing.
    if (offset < 0 || offset > kLatestDueMs || limit < 1 || limit > 10000)
        throw Error(ErrorCode::InvalidArgument, "a page is 1 to 10000 tasks from offset 0 on");
    Reply reply = m_connection.command({"ZRANGE", m_keys.setKey(set), std::to_string(offset),
                                        std::to_string(offset + limit - 1), "WITHSCORES"});
    return loadTasks(set, membersWithScores(reply));
}

std::vector<Task> QueueReader::pageFromScore(TaskSet set, long long fromScore, long long limit)
{
    if (limit < 1 || limit > 10000)
        throw Error(ErrorCode::InvalidArgument, "a page is 1 to 10000 tasks");
    Reply reply =
        m_connection.command({"ZRANGEBYSCORE", m_keys.setKey(set), std::to_string(fromScore),
                              "+inf", "WITHSCORES", "LIMIT", "0", std::to_string(limit)});
    return loadTasks(set, membersWithScores(reply));
}

long long QueueReader::rankOfScore(TaskSet set, long long score)
{
    return m_connection.command({"ZCOUNT", m_keys.setKey(set), "-inf", "(" + std::to_string(score)})
        .toInteger();
}

std::optional<long long> QueueReader::rankOf(TaskSet set, const std::string& id)
{
    const Reply rank = m_connection.command({"ZRANK", m_keys.setKey(set), id});
    return rank.isNil() ? std::nullopt : std::optional<long long>(rank.toInteger());
}

long long QueueReader::size(TaskSet set)
{
    return m_connection.command({"ZCARD", m_keys.setKey(set)}).toInteger();
}

std::optional<long long> QueueReader::earliest(TaskSet set)
{
    Reply reply = m_connection.command({"ZRANGE", m_keys.setKey(set), "0", "0", "WITHSCORES"});
    auto members = membersWithScores(reply);
    if (members.empty())
        return std::nullopt;
    return members.front().second;
}

std::optional<std::pair<TaskSet, Task>> QueueReader::find(const std::string& id)
{
    Keys::validateTaskId(id);
    std::vector<std::vector<std::string>> commands = {{"ZSCORE", m_keys.pending(), id},
                                                      {"ZSCORE", m_keys.active(), id},
                                                      {"ZSCORE", m_keys.dead(), id}};
    for (auto& read : taskReads(id))
        commands.push_back(std::move(read));
    auto replies = m_connection.pipeline(commands);
    throwFirstError(replies);
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

TaskHistory QueueReader::taskHistory(const std::string& id)
{
    Keys::validateTaskId(id);
    auto replies = m_connection.pipeline(
        {{"HGET", m_keys.taskHistory(), id}, {"HGET", m_keys.finishedHistory(), id}});
    throwFirstError(replies);
    if (!replies[0].isNil())
        return {parseTaskEvents(replies[0].str), false};
    if (!replies[1].isNil())
        return {parseTaskEvents(replies[1].str), true};
    return {};
}

bool QueueReader::needsUpgrade()
{
    std::vector<std::vector<std::string>> commands = {
        {"HEXISTS", m_keys.config(), "upgrade_cursor"}};
    for (TaskSet set : {TaskSet::Pending, TaskSet::Active, TaskSet::Dead}) {
        commands.push_back({"ZRANGE", m_keys.setKey(set), "0", "0"});
        commands.push_back({"ZRANGE", m_keys.setKey(set), "-1", "-1"});
    }
    auto replies = m_connection.pipeline(commands);
    throwFirstError(replies);
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
            throw errorFromReply(r.str);
        if (r.toInteger() == 1)
            return true;
    }
    return false;
}

void QueueReader::requireCurrentLayout()
{
    if (needsUpgrade())
        throw Error(ErrorCode::OldLayout,
                    "queue '" + name() +
                        "' is stored in the layout of an older delayq (one hash per task), or its "
                        "upgrade was interrupted: stop its old workers and producers, then run "
                        "'delayq upgrade " +
                        name() + "'");
}

std::vector<AuditEntry> QueueReader::audit(long long sinceMs, int limit)
{
    return AuditLog(m_connection, m_keys).read(sinceMs, limit);
}

std::vector<std::string> QueueReader::listQueues(Connection& connection, const std::string& prefix,
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

// Commands per queue in summaries(), in the order it reads them.
constexpr size_t kSummaryCommands = 5;

std::vector<QueueSummary> QueueReader::summaries(Connection& connection,
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
            commands.push_back({"ZCOUNT", keys.active(), "-inf", now});
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
            const Reply& r = replies[i * kSummaryCommands + k];
            return r.isError() ? -1 : r.toInteger(); // -1: the key has the wrong type
        };
        s.counts = {value(0), value(1), value(2), value(3), value(4)};
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace delayq
