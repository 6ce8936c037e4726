#include <delayq/plainqueue.h>

#include "transport/replychecks.h"
#include "transport/sha1.h"

#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/plainkeys.h>
#include <delayq/queue.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace delayq {

namespace {

constexpr size_t kChunk = 1000;

// Plausible due times, as ms since the epoch: 1990-01-01 .. 2200-01-01.
constexpr double kEarliestMs = 631152000000.0;
constexpr double kLatestMs = 7258118400000.0;

double parseScore(const std::string& score)
{
    char* end = nullptr;
    double v = std::strtod(score.c_str(), &end);
    if (score.empty() || end != score.c_str() + score.size())
        throw Error(ErrorCode::Protocol, "a sorted-set score is not a number");
    return v;
}

} // namespace

PlainQueue::PlainQueue(Connection& connection, std::string key, std::optional<ScoreUnit> unit)
    : m_connection(connection), m_key(std::move(key))
{
    if (m_key.empty() || m_key.size() > 4096)
        throw Error(ErrorCode::InvalidArgument, "a plain queue key must be 1 to 4096 bytes");
    const std::string type = m_connection.command({"TYPE", m_key}).str;
    if (type != "zset" && type != "none")
        throw Error(ErrorCode::WrongType, "key '" + m_key.substr(0, 200) + "' holds a " + type +
                                              ", not a sorted set: it is not a delay queue");
    const std::optional<ScoreUnit> known = unit ? unit : unitFromScores(m_connection, m_key);
    m_unit = known.value_or(ScoreUnit::Milliseconds);
    m_unitKnown = known.has_value();
}

PlainQueue::ScoreUnit PlainQueue::parseUnit(const std::string& text)
{
    if (text == "ms")
        return ScoreUnit::Milliseconds;
    if (text == "s")
        return ScoreUnit::Seconds;
    throw Error(ErrorCode::InvalidArgument, "the score unit must be ms or s");
}

PlainQueue::ScoreUnit PlainQueue::detectUnit(Connection& connection, const std::string& key)
{
    // An empty key: ms is what most producers write.
    return unitFromScores(connection, key).value_or(ScoreUnit::Milliseconds);
}

std::optional<PlainQueue::ScoreUnit> PlainQueue::unitFromScores(Connection& connection,
                                                                const std::string& key)
{
    auto replies = connection.pipeline(
        {{"ZRANGE", key, "0", "0", "WITHSCORES"}, {"ZRANGE", key, "-1", "-1", "WITHSCORES"}});
    for (const auto& r : replies) {
        throwIfError(r);
        if (r.elements.size() == 2) {
            double score = 0;
            try {
                score = parseScore(r.elements[1].str);
            } catch (const Error&) {
                continue;
            }
            if (score >= 1e11)
                return ScoreUnit::Milliseconds;
            if (score > 0)
                return ScoreUnit::Seconds;
        }
    }
    return std::nullopt;
}

std::string PlainQueue::scoreFor(long long dueMs) const
{
    if (m_unit == ScoreUnit::Milliseconds)
        return std::to_string(dueMs);
    if (dueMs % 1000 == 0)
        return std::to_string(dueMs / 1000);
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%lld.%03lld", dueMs / 1000, std::llabs(dueMs % 1000));
    return buffer;
}

long long PlainQueue::dueFromScore(const std::string& score) const
{
    double v = 0;
    try {
        v = parseScore(score);
    } catch (const Error&) {
        return 0;
    }
    if (m_unit == ScoreUnit::Seconds)
        v *= 1000.0;
    if (!std::isfinite(v) || v > 9.0e15 || v < -9.0e15)
        return v < 0 ? -9000000000000000LL : 9000000000000000LL; // "inf" stays sortable
    return std::llround(v);
}

void PlainQueue::requireWritable(const char* what) const
{
    if (m_connection.options().readOnly)
        throw Error(ErrorCode::NoPermission, std::string("cannot ") + what + " on '" +
                                                 m_key.substr(0, 200) +
                                                 "': this session is read-only");
}

std::vector<PlainQueue::Member> PlainQueue::members(const Reply& withScores) const
{
    std::vector<Member> out;
    for (size_t i = 0; i + 1 < withScores.elements.size(); i += 2) {
        Member m;
        m.member = withScores.elements[i].str;
        m.score = withScores.elements[i + 1].str;
        m.dueMs = dueFromScore(m.score);
        out.push_back(std::move(m));
    }
    return out;
}

long long PlainQueue::size()
{
    return m_connection.command({"ZCARD", m_key}).toInteger();
}

long long PlainQueue::dueNow()
{
    return dueBy(m_connection.serverNowMs());
}

long long PlainQueue::dueBy(long long ms)
{
    return m_connection.command({"ZCOUNT", m_key, "-inf", scoreFor(ms)}).toInteger();
}

std::vector<PlainQueue::Member> PlainQueue::page(long long offset, long long limit)
{
    if (offset < 0 || limit < 1 || limit > 10000)
        throw Error(ErrorCode::InvalidArgument, "a page is 1 to 10000 members from offset 0 on");
    return members(m_connection.command({"ZRANGE", m_key, std::to_string(offset),
                                         std::to_string(offset + limit - 1), "WITHSCORES"}));
}

std::vector<PlainQueue::Member> PlainQueue::pageFromTime(long long fromMs, long long limit)
{
    if (limit < 1 || limit > 10000)
        throw Error(ErrorCode::InvalidArgument, "a page is 1 to 10000 members");
    return members(m_connection.command({"ZRANGEBYSCORE", m_key, scoreFor(fromMs), "+inf",
                                         "WITHSCORES", "LIMIT", "0", std::to_string(limit)}));
}

long long PlainQueue::rankOfTime(long long ms)
{
    return m_connection.command({"ZCOUNT", m_key, "-inf", "(" + scoreFor(ms)}).toInteger();
}

std::optional<PlainQueue::Member> PlainQueue::find(const std::string& member)
{
    const Reply score = m_connection.command({"ZSCORE", m_key, member});
    if (score.isNil())
        return std::nullopt;
    return Member{member, score.str, dueFromScore(score.str)};
}

std::optional<long long> PlainQueue::rankOf(const std::string& member)
{
    const Reply rank = m_connection.command({"ZRANK", m_key, member});
    return rank.isNil() ? std::nullopt : std::optional<long long>(rank.toInteger());
}

std::vector<long long> PlainQueue::histogram(long long fromMs, long long toMs, int buckets)
{
    if (buckets < 1 || buckets > 10000 || toMs <= fromMs)
        throw Error(ErrorCode::InvalidArgument,
                    "a histogram has 1 to 10000 buckets and ends after it starts");
    std::vector<std::vector<std::string>> commands;
    const double width = static_cast<double>(toMs - fromMs) / buckets;
    for (int i = 0; i < buckets; ++i) {
        long long lo = fromMs + static_cast<long long>(width * i);
        long long hi = i + 1 == buckets ? toMs : fromMs + static_cast<long long>(width * (i + 1));
        commands.push_back({"ZCOUNT", m_key, scoreFor(lo), "(" + scoreFor(hi)});
    }
    std::vector<long long> counts;
    for (const auto& r : m_connection.pipeline(commands)) {
        throwIfError(r);
        counts.push_back(r.toInteger());
    }
    return counts;
}

std::vector<bool> PlainQueue::push(const std::vector<std::string>& newMembers, long long dueMs)
{
    requireWritable("push");
    if (dueMs < 0 || dueMs > 253402300799999LL)
        throw Error(ErrorCode::InvalidArgument, "the due time must be between 1970 and 9999");
    for (const auto& m : newMembers)
        if (m.size() > 512 * 1024 * 1024)
            throw Error(ErrorCode::TooLarge, "a member is larger than 512 MiB");
    std::vector<std::vector<std::string>> commands;
    const std::string score = scoreFor(dueMs);
    for (const auto& m : newMembers)
        commands.push_back({"ZADD", m_key, "NX", score, m});
    std::vector<bool> added;
    for (const auto& r : m_connection.pipeline(commands)) {
        throwIfError(r);
        added.push_back(r.toInteger() == 1);
    }
    return added;
}

std::vector<bool> PlainQueue::cancel(const std::vector<std::string>& gone)
{
    requireWritable("cancel");
    std::vector<std::vector<std::string>> commands;
    for (const auto& m : gone)
        commands.push_back({"ZREM", m_key, m});
    std::vector<bool> removed;
    for (const auto& r : m_connection.pipeline(commands)) {
        throwIfError(r);
        removed.push_back(r.toInteger() == 1);
    }
    return removed;
}

std::vector<bool> PlainQueue::reschedule(const std::vector<std::string>& moved, long long dueMs)
{
    requireWritable("reschedule");
    if (dueMs < 0 || dueMs > 253402300799999LL)
        throw Error(ErrorCode::InvalidArgument, "the due time must be between 1970 and 9999");
    std::vector<bool> done;
    for (size_t begin = 0; begin < moved.size(); begin += kChunk) {
        size_t end = std::min(moved.size(), begin + kChunk);
        std::vector<std::string> args{scoreFor(dueMs)};
        args.insert(args.end(), moved.begin() + static_cast<long>(begin),
                    moved.begin() + static_cast<long>(end));
        Reply r = m_connection.evalScript(scripts::plainReschedule, {m_key}, args);
        for (const auto& word : r.elements)
            done.push_back(word.str == "done");
    }
    return done;
}

PlainQueue::PopResult PlainQueue::pop(int maxMembers, const std::string& forwardList)
{
    requireWritable("pop");
    if (maxMembers < 1 || maxMembers > 1000)
        throw Error(ErrorCode::InvalidArgument, "a pop takes 1 to 1000 members");
    std::vector<std::string> keys{m_key};
    if (!forwardList.empty())
        keys.push_back(forwardList);
    Reply r = m_connection.evalScript(
        scripts::plainPop, keys,
        {std::to_string(maxMembers), unitName(m_unit), forwardList.empty() ? "0" : "1"});
    if (!r.isArray() || r.elements.size() < 3)
        throw Error(ErrorCode::Protocol, "unexpected reply shape from plain_pop");
    PopResult result;
    result.serverNow = r.elements[0].toInteger();
    if (!r.elements[1].str.empty())
        result.nextDue = dueFromScore(r.elements[1].str);
    result.members = members(r.elements[2]);
    return result;
}

PlainQueue::PopResult PlainQueue::lease(int maxMembers, long long leaseMs)
{
    requireWritable("lease");
    if (maxMembers < 1 || maxMembers > 1000)
        throw Error(ErrorCode::InvalidArgument, "a lease takes 1 to 1000 members");
    if (leaseMs < 1 || leaseMs > 86400000)
        throw Error(ErrorCode::InvalidArgument, "a lease is 1 ms to 24 h");
    Reply r = m_connection.evalScript(
        scripts::plainLease, {m_key},
        {std::to_string(maxMembers), unitName(m_unit), std::to_string(leaseMs)});
    if (!r.isArray() || r.elements.size() < 4)
        throw Error(ErrorCode::Protocol, "unexpected reply shape from plain_lease");
    PopResult result;
    result.serverNow = r.elements[0].toInteger();
    if (!r.elements[1].str.empty())
        result.nextDue = dueFromScore(r.elements[1].str);
    result.leaseScore = r.elements[2].str;
    result.leaseUntil = dueFromScore(result.leaseScore);
    result.members = members(r.elements[3]);
    return result;
}

std::vector<bool> PlainQueue::settle(const std::vector<Settlement>& settlements)
{
    requireWritable("settle");
    std::vector<bool> done;
    for (size_t begin = 0; begin < settlements.size(); begin += kChunk) {
        const size_t end = std::min(settlements.size(), begin + kChunk);
        std::vector<std::string> args{std::to_string(end - begin)};
        for (size_t i = begin; i < end; ++i) {
            const Settlement& s = settlements[i];
            args.push_back(s.member);
            args.push_back(s.leaseScore);
            args.push_back(s.newDueMs ? scoreFor(*s.newDueMs) : std::string());
        }
        Reply r = m_connection.evalScript(scripts::plainSettle, {m_key}, args);
        if (!r.isArray() || r.elements.size() != end - begin)
            throw Error(ErrorCode::Protocol, "unexpected reply shape from plain_settle");
        for (const auto& one : r.elements)
            done.push_back(one.toInteger() == 1);
    }
    return done;
}

PlainQueue::ScanResult PlainQueue::scan(const std::string& cursor, const std::string& needle,
                                        int count)
{
    if (count < 1 || count > 10000)
        throw Error(ErrorCode::InvalidArgument, "a scan step reads 1 to 10000 members");
    Reply r = m_connection.command({"ZSCAN", m_key, cursor, "COUNT", std::to_string(count)});
    if (!r.isArray() || r.elements.size() != 2)
        throw Error(ErrorCode::Protocol, "unexpected reply shape from ZSCAN");
    ScanResult result;
    result.cursor = r.elements[0].str;
    for (auto& m : members(r.elements[1])) {
        ++result.scanned;
        // Substring match, binary-safe; ZSCAN MATCH would treat * ? [ as patterns.
        if (needle.empty() || m.member.find(needle) != std::string::npos)
            result.matches.push_back(std::move(m));
    }
    return result;
}

PlainQueue::MigrateResult PlainQueue::migrateTo(const std::string& queueName,
                                                const std::string& prefix, long long limit,
                                                int batch)
{
    requireWritable("migrate");
    if (batch < 1 || batch > 1000)
        throw Error(ErrorCode::InvalidArgument, "a migration batch is 1 to 1000 members");
    Queue queue(m_connection, queueName, prefix);
    MigrateResult result;
    while (limit <= 0 || result.moved + result.skipped < limit) {
        long long take = batch;
        if (limit > 0)
            take = std::min<long long>(take, limit - result.moved - result.skipped);
        auto chunk = page(0, take);
        if (chunk.empty())
            break;
        std::vector<PushRequest> requests;
        for (const auto& m : chunk) {
            PushRequest r;
            r.id = "plain-" + sha1Hex(m.member);
            r.payload = m.member;
            r.dueAtMs = std::max(0LL, m.dueMs);
            requests.push_back(std::move(r));
        }
        auto pushed = queue.pushBatch(requests);
        // Only now may the members leave the plain key: a crash before this line leaves
        // them in both, and the next run finds their tasks as "exists" and just removes them.
        std::vector<std::string> done;
        for (size_t i = 0; i < chunk.size(); ++i) {
            if (pushed[i].status == PushResult::Status::Created)
                ++result.moved;
            else if (pushed[i].status == PushResult::Status::Exists)
                ++result.skipped;
            else
                throw Error(ErrorCode::TooLarge,
                            "a member is larger than the queue's max_payload: raise it with "
                            "`delayq config " +
                                queueName + " max_payload BYTES` and run again");
            done.push_back(chunk[i].member);
        }
        cancel(done);
    }
    result.remaining = size();
    return result;
}

namespace {

// One SCAN step: on one server `cursor` is SCAN's own; on a cluster it is "N:C", SCAN cursor
// C on the Nth master, moved on to the next master when that one's scan ends.
Reply scanStep(Connection& connection, std::string& cursor, std::vector<std::string> scan)
{
    connection.connect();
    auto check = [](const Reply& r) {
        if (r.isError())
            throw errorFromReply(r.str);
        if (!r.isArray() || r.elements.size() != 2)
            throw Error(ErrorCode::Protocol, "unexpected reply shape from SCAN");
    };
    if (!connection.isCluster()) {
        scan[1] = cursor;
        Reply r = connection.command(scan);
        check(r);
        cursor = r.elements[0].str;
        return r;
    }
    const auto masters = connection.masters();
    size_t node = 0;
    std::string nodeCursor = "0";
    if (const auto colon = cursor.find(':'); colon != std::string::npos) {
        node = static_cast<size_t>(std::strtoul(cursor.c_str(), nullptr, 10));
        nodeCursor = cursor.substr(colon + 1);
    } else if (cursor != "0") {
        throw Error(ErrorCode::InvalidArgument,
                    "a cluster scan cursor is N:C (start with 0), not '" + cursor + "'");
    }
    if (node >= masters.size()) { // the cluster lost a master meanwhile: the scan is over
        cursor = "0";
        Reply done;
        done.type = Reply::Type::Array;
        done.elements.resize(2);
        done.elements[0].type = Reply::Type::String;
        done.elements[0].str = "0";
        done.elements[1].type = Reply::Type::Array;
        return done;
    }
    scan[1] = nodeCursor;
    Reply r = connection.pipelineOn(masters[node], {scan}).front();
    check(r);
    if (r.elements[0].str != "0")
        cursor = std::to_string(node) + ":" + r.elements[0].str;
    else
        cursor = node + 1 < masters.size() ? std::to_string(node + 1) + ":0" : "0";
    return r;
}

} // namespace

std::vector<PlainQueue::Candidate> PlainQueue::discover(Connection& connection, std::string& cursor,
                                                        const std::string& nativePrefix, int count)
{
    const std::vector<std::string> scan = {"SCAN", "",    "COUNT", std::to_string(count),
                                           "TYPE", "zset"};
    Reply r = scanStep(connection, cursor, scan);
    std::vector<std::string> keys;
    const std::string native = nativePrefix + ":{";
    // delayq's own keys beside a plain key (its parked set, its worker registry) hold ms
    // times too, but are not queues.
    const std::string plainOwn = PlainKeys::keyPrefix(nativePrefix);
    for (const auto& k : r.elements[1].elements)
        if (k.str.rfind(native, 0) != 0 && k.str.rfind(plainOwn, 0) != 0)
            keys.push_back(k.str);
    std::vector<std::vector<std::string>> commands;
    for (const auto& k : keys) {
        commands.push_back({"ZRANGE", k, "0", "0", "WITHSCORES"});
        commands.push_back({"ZCARD", k});
    }
    auto replies = connection.pipeline(commands);
    std::vector<Candidate> out;
    for (size_t i = 0; i < keys.size(); ++i) {
        const Reply& first = replies[2 * i];
        if (first.isError() || first.elements.size() != 2)
            continue;
        double score = 0;
        try {
            score = parseScore(first.elements[1].str);
        } catch (const Error&) {
            continue;
        }
        Candidate c;
        c.key = keys[i];
        c.size = replies[2 * i + 1].toInteger(0);
        if (score >= kEarliestMs && score <= kLatestMs)
            c.unit = ScoreUnit::Milliseconds;
        else if (score * 1000 >= kEarliestMs && score * 1000 <= kLatestMs)
            c.unit = ScoreUnit::Seconds;
        else
            continue;
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace delayq
