#include <delayq/queuereader.h>

#include "queue/valuechecks.h"
#include "records/taskrecord.h"
#include "transport/replychecks.h"

#include <delayq/auditlog.h>
#include <delayq/error.h>

#include <algorithm>
#include <tuple>

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

// The sum of integer replies; the first error reply is thrown.
long long sumOf(const std::vector<Reply>& replies)
{
    throwFirstError(replies);
    long long total = 0;
    for (const auto& reply : replies)
        total += reply.toInteger();
    return total;
}

// Below any score a task can have (a due time may be before 1970).
constexpr long long kEarliestScore = -kLatestDueMs;

// The fields of an HGETALL reply added to the counters (a sharded queue's shards add up); a
// value that is not a whole number counts 0.
void addCounters(Counters& counters, const Reply& reply)
{
    for (size_t i = 0; i + 1 < reply.elements.size(); i += 2)
        counters[reply.elements[i].str] += wholeNumber(reply.elements[i + 1].str).value_or(0);
}

} // namespace

QueueReader::QueueReader(Connection& connection, const std::string& name, const std::string& prefix)
    : m_connection(connection), m_keys(prefix, name)
{}

QueueReader::QueueReader(Connection& connection, const Keys& shard)
    : m_connection(connection), m_keys(shard), m_pinned(true)
{}

const ShardLayout& QueueReader::layout()
{
    if (!m_layout || std::chrono::steady_clock::now() - m_layoutRead > std::chrono::seconds(1))
        return reloadLayout();
    return *m_layout;
}

const ShardLayout& QueueReader::reloadLayout()
{
    ShardLayout layout;
    if (m_pinned) {
        layout.tags = {m_keys.tag()};
    } else {
        const Reply reply = m_connection.command(
            {"HMGET", m_keys.config(), "shards", "shard_tags", "shard_move", "shard_moved"});
        std::string fields[4];
        for (size_t i = 0; i < 4 && i < reply.elements.size(); ++i)
            fields[i] = reply.elements[i].str;
        layout = ShardLayout::fromConfig(name(), fields[0], fields[1], fields[2], fields[3]);
    }
    m_shards.clear();
    for (const auto& tag : layout.tags)
        m_shards.push_back(tag == m_keys.tag() ? m_keys : Keys(m_keys.prefix(), name(), tag));
    m_layout = std::move(layout);
    m_layoutRead = std::chrono::steady_clock::now();
    return *m_layout;
}

const Keys& QueueReader::shardKeys(size_t shard)
{
    if (m_pinned && shard == 0)
        return m_keys; // a shard's own reader: no layout to build
    layout();
    if (shard >= m_shards.size())
        throw Error(ErrorCode::InvalidArgument,
                    "queue '" + name() + "' has no shard " + std::to_string(shard));
    return m_shards[shard];
}

QueueReader QueueReader::shardReader(size_t shard)
{
    return QueueReader(m_connection, shardKeys(shard));
}

std::vector<size_t> QueueReader::searchOrder(const std::string& id)
{
    const size_t home = static_cast<size_t>(layout().homeOf(id));
    std::vector<size_t> order{home};
    for (size_t i = 0; i < shardCount(); ++i)
        if (i != home)
            order.push_back(i);
    return order;
}

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
    config.shards = m_pinned ? 1 : reloadLayout().count;
    return config;
}

QueueCounts QueueReader::counts()
{
    const std::string now = std::to_string(m_connection.serverNowMs());
    std::vector<std::vector<std::string>> commands;
    for (size_t s = 0; s < shardCount(); ++s) {
        const Keys& k = shardKeys(s);
        commands.push_back({"ZCARD", k.pending()});
        commands.push_back({"ZCOUNT", k.pending(), "-inf", now});
        commands.push_back({"ZCARD", k.active()});
        commands.push_back({"ZCARD", k.dead()});
        commands.push_back({"ZCOUNT", k.active(), "-inf", now});
    }
    auto replies = m_connection.pipeline(commands);
    throwFirstError(replies);
    QueueCounts total{0, 0, 0, 0, 0};
    for (size_t i = 0; i < replies.size(); i += 5) {
        total.pending += replies[i].toInteger();
        total.dueNow += replies[i + 1].toInteger();
        total.active += replies[i + 2].toInteger();
        total.dead += replies[i + 3].toInteger();
        total.leaseExpired += replies[i + 4].toInteger();
    }
    return total;
}

Counters QueueReader::stats()
{
    std::vector<std::vector<std::string>> commands;
    for (size_t s = 0; s < shardCount(); ++s)
        commands.push_back({"HGETALL", shardKeys(s).stats()});
    auto replies = m_connection.pipeline(commands);
    throwFirstError(replies);
    Counters counters;
    for (const char* name :
         {"pushed", "claimed", "acked", "retried", "died", "cancelled", "expired", "broken"})
        counters[name] = 0;
    for (const auto& reply : replies)
        addCounters(counters, reply);
    return counters;
}

std::vector<MinuteCounters> QueueReader::history(long long fromMinute, long long toMinute)
{
    if (fromMinute < 0 || toMinute < fromMinute || toMinute - fromMinute > 48 * 60)
        throw Error(ErrorCode::InvalidArgument, "history covers at most 48 hours");
    const size_t shards = shardCount();
    std::vector<std::vector<std::string>> commands;
    for (long long m = fromMinute; m <= toMinute; ++m)
        for (size_t s = 0; s < shards; ++s)
            commands.push_back({"HGETALL", shardKeys(s).minute(m)});
    auto replies = m_connection.pipeline(commands);
    throwFirstError(replies);
    std::vector<MinuteCounters> out;
    for (size_t i = 0; i < replies.size(); i += shards) {
        MinuteCounters mc;
        mc.minute = fromMinute + static_cast<long long>(i / shards);
        for (size_t s = 0; s < shards; ++s)
            addCounters(mc.counters, replies[i + s]);
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
    const size_t shards = shardCount();
    std::vector<std::vector<std::string>> commands;
    commands.reserve(static_cast<size_t>(buckets) * shards);
    const double width = static_cast<double>(toMs - fromMs) / buckets;
    for (int i = 0; i < buckets; ++i) {
        long long lo = fromMs + static_cast<long long>(width * i);
        long long hi = i + 1 == buckets ? toMs : fromMs + static_cast<long long>(width * (i + 1));
        // "(" makes the upper bound exclusive, so no task is counted twice.
        for (size_t s = 0; s < shards; ++s)
            commands.push_back(
                {"ZCOUNT", shardKeys(s).pending(), std::to_string(lo), "(" + std::to_string(hi)});
    }
    std::vector<long long> counts(static_cast<size_t>(buckets), 0);
    const auto replies = m_connection.pipeline(commands);
    throwFirstError(replies);
    for (size_t i = 0; i < replies.size(); ++i)
        counts[i / shards] += replies[i].toInteger();
    return counts;
}

long long QueueReader::dueBy(long long ms)
{
    std::vector<std::vector<std::string>> commands;
    for (size_t s = 0; s < shardCount(); ++s)
        commands.push_back({"ZCOUNT", shardKeys(s).pending(), "-inf", std::to_string(ms)});
    return sumOf(m_connection.pipeline(commands));
}

std::vector<std::vector<std::string>> QueueReader::taskReads(const Keys& keys,
                                                             const std::string& id)
{
    return {{"HGET", keys.dataKey(id), id}, {"HGET", keys.run(), id}, {"HGET", keys.errors(), id}};
}

std::vector<Task>
QueueReader::loadTasks(TaskSet set, const std::vector<std::pair<std::string, long long>>& members,
                       const std::vector<size_t>& shards)
{
    std::vector<std::vector<std::string>> commands;
    commands.reserve(members.size() * 3);
    for (size_t i = 0; i < members.size(); ++i)
        for (auto& read :
             taskReads(shards.empty() ? m_keys : shardKeys(shards[i]), members[i].first))
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
    if (shardCount() == 1) {
        Reply reply = m_connection.command({"ZRANGE", m_keys.setKey(set), std::to_string(offset),
                                            std::to_string(offset + limit - 1), "WITHSCORES"});
        return loadTasks(set, membersWithScores(reply));
    }
    if (offset == 0)
        return mergedPage(set, kEarliestScore, 0, limit);
    // Seek the score at that rank (a binary search of summed ZCOUNTs), then merge from there:
    // a deep page costs some 60 round trips, not a read of every task before it.
    const long long score = scoreAtRank(set, offset);
    return mergedPage(set, score, offset - rankOfScore(set, score), limit);
}

std::vector<Task> QueueReader::pageFromScore(TaskSet set, long long fromScore, long long limit)
{
    if (limit < 1 || limit > 10000)
        throw Error(ErrorCode::InvalidArgument, "a page is 1 to 10000 tasks");
    return mergedPage(set, fromScore, 0, limit);
}

std::vector<Task> QueueReader::mergedPage(TaskSet set, long long fromScore, long long skip,
                                          long long limit)
{
    const std::string take = std::to_string(skip + limit);
    std::vector<std::vector<std::string>> commands;
    for (size_t s = 0; s < shardCount(); ++s)
        commands.push_back({"ZRANGEBYSCORE", shardKeys(s).setKey(set), std::to_string(fromScore),
                            "+inf", "WITHSCORES", "LIMIT", "0", take});
    const auto replies = m_connection.pipeline(commands);
    throwFirstError(replies);
    // (score, id, shard): Redis orders equal scores by member, so the merge does too.
    std::vector<std::tuple<long long, std::string, size_t>> merged;
    for (size_t s = 0; s < replies.size(); ++s)
        for (auto& [id, score] : membersWithScores(replies[s]))
            merged.emplace_back(score, std::move(id), s);
    std::sort(merged.begin(), merged.end());
    const size_t from = std::min(merged.size(), static_cast<size_t>(skip));
    const size_t to = std::min(merged.size(), static_cast<size_t>(skip + limit));
    std::vector<std::pair<std::string, long long>> members;
    std::vector<size_t> shards;
    for (size_t i = from; i < to; ++i) {
        members.emplace_back(std::get<1>(merged[i]), std::get<0>(merged[i]));
        shards.push_back(std::get<2>(merged[i]));
    }
    return loadTasks(set, members, shards);
}

long long QueueReader::scoreAtRank(TaskSet set, long long rank)
{
    long long lo = kEarliestScore, hi = kLatestDueMs + 1;
    if (const auto first = earliest(set))
        lo = *first;
    // Invariant: rankOfScore(lo) <= rank; the answer is in [lo, hi).
    while (hi - lo > 1) {
        const long long mid = lo + (hi - lo) / 2;
        if (rankOfScore(set, mid) <= rank)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

long long QueueReader::rankOfScore(TaskSet set, long long score)
{
    std::vector<std::vector<std::string>> commands;
    for (size_t s = 0; s < shardCount(); ++s)
        commands.push_back(
            {"ZCOUNT", shardKeys(s).setKey(set), "-inf", "(" + std::to_string(score)});
    return sumOf(m_connection.pipeline(commands));
}

std::optional<long long> QueueReader::scoreOf(TaskSet set, const std::string& id)
{
    for (size_t s : searchOrder(id)) {
        const Reply r = m_connection.command({"ZSCORE", shardKeys(s).setKey(set), id});
        if (!r.isNil())
            return r.toInteger();
    }
    return std::nullopt;
}

std::optional<long long> QueueReader::rankOf(TaskSet set, const std::string& id)
{
    if (shardCount() == 1) {
        const Reply rank = m_connection.command({"ZRANK", m_keys.setKey(set), id});
        return rank.isNil() ? std::nullopt : std::optional<long long>(rank.toInteger());
    }
    std::optional<long long> score;
    for (size_t s : searchOrder(id)) {
        const Reply r = m_connection.command({"ZSCORE", shardKeys(s).setKey(set), id});
        if (!r.isNil()) {
            score = r.toInteger();
            break;
        }
    }
    if (!score)
        return std::nullopt;
    // Tasks scored below it, then those of its score whose id sorts before it.
    long long rank = rankOfScore(set, *score);
    std::vector<std::vector<std::string>> commands;
    for (size_t s = 0; s < shardCount(); ++s)
        commands.push_back({"ZRANGEBYSCORE", shardKeys(s).setKey(set), std::to_string(*score),
                            std::to_string(*score)});
    for (const auto& reply : m_connection.pipeline(commands))
        for (const auto& member : reply.elements)
            rank += member.str < id ? 1 : 0;
    return rank;
}

long long QueueReader::size(TaskSet set)
{
    std::vector<std::vector<std::string>> commands;
    for (size_t s = 0; s < shardCount(); ++s)
        commands.push_back({"ZCARD", shardKeys(s).setKey(set)});
    return sumOf(m_connection.pipeline(commands));
}

std::optional<long long> QueueReader::earliest(TaskSet set)
{
    std::vector<std::vector<std::string>> commands;
    for (size_t s = 0; s < shardCount(); ++s)
        commands.push_back({"ZRANGE", shardKeys(s).setKey(set), "0", "0", "WITHSCORES"});
    const auto replies = m_connection.pipeline(commands);
    throwFirstError(replies);
    std::optional<long long> first;
    for (const auto& reply : replies)
        for (const auto& member : membersWithScores(reply))
            first = first ? std::min(*first, member.second) : member.second;
    return first;
}

std::optional<std::pair<TaskSet, Task>> QueueReader::find(const std::string& id)
{
    Keys::validateTaskId(id);
    if (shardCount() > 1) {
        for (size_t s : searchOrder(id))
            if (auto found = shardReader(s).find(id))
                return found;
        return std::nullopt;
    }
    std::vector<std::vector<std::string>> commands = {{"ZSCORE", m_keys.pending(), id},
                                                      {"ZSCORE", m_keys.active(), id},
                                                      {"ZSCORE", m_keys.dead(), id}};
    for (auto& read : taskReads(m_keys, id))
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
    if (shardCount() > 1) {
        for (size_t s : searchOrder(id))
            if (TaskHistory h = shardReader(s).taskHistory(id); !h.events.empty())
                return h;
        return {};
    }
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
    // Each shard's scripts write to that shard's trail: newest first across all of them.
    std::vector<AuditEntry> entries;
    for (size_t s = 0; s < shardCount(); ++s)
        for (auto& entry : AuditLog(m_connection, shardKeys(s)).read(sinceMs, limit))
            entries.push_back(std::move(entry));
    std::stable_sort(entries.begin(), entries.end(),
                     [](const AuditEntry& a, const AuditEntry& b) { return a.timeMs > b.timeMs; });
    if (entries.size() > static_cast<size_t>(std::max(limit, 0)))
        entries.resize(static_cast<size_t>(std::max(limit, 0)));
    return entries;
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

// Commands per shard in summaries(), in the order it reads them.
constexpr size_t kSummaryCommands = 5;

std::vector<QueueSummary> QueueReader::summaries(Connection& connection,
                                                 const std::vector<std::string>& names,
                                                 const std::string& prefix)
{
    const std::string now = std::to_string(connection.serverNowMs());
    std::vector<Keys> queues;
    std::vector<std::vector<std::string>> layoutReads;
    for (const auto& name : names) {
        try {
            queues.emplace_back(prefix, name);
            layoutReads.push_back({"HGET", queues.back().config(), "shard_tags"});
        } catch (const Error&) {
            // A name someone wrote into dq:queues by hand that is not a valid queue name.
        }
    }
    // First every queue's shards, then the counts of each shard, in two round trips.
    const auto layouts = connection.pipeline(layoutReads);
    std::vector<std::vector<std::string>> commands;
    std::vector<size_t> shardsOf;
    for (size_t q = 0; q < queues.size(); ++q) {
        const std::string tags = layouts[q].isError() ? std::string() : layouts[q].str;
        const auto layout = ShardLayout::fromConfig(queues[q].queue(), "", tags, "", "");
        for (const auto& tag : layout.tags) {
            const Keys keys(prefix, queues[q].queue(), tag);
            commands.push_back({"ZCARD", keys.pending()});
            commands.push_back({"ZCOUNT", keys.pending(), "-inf", now});
            commands.push_back({"ZCARD", keys.active()});
            commands.push_back({"ZCARD", keys.dead()});
            commands.push_back({"ZCOUNT", keys.active(), "-inf", now});
        }
        shardsOf.push_back(layout.tags.size());
    }
    auto replies = connection.pipeline(commands);
    std::vector<QueueSummary> out;
    size_t at = 0;
    for (size_t q = 0; q < queues.size(); ++q) {
        QueueSummary s;
        s.name = queues[q].queue();
        long long value[kSummaryCommands] = {0, 0, 0, 0, 0};
        for (size_t shard = 0; shard < shardsOf[q]; ++shard)
            for (size_t k = 0; k < kSummaryCommands; ++k, ++at) {
                const Reply& r = replies[at];
                // -1: a key has the wrong type
                value[k] = r.isError() || value[k] < 0 ? -1 : value[k] + r.toInteger();
            }
        s.counts = {value[0], value[1], value[2], value[3], value[4]};
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace delayq
