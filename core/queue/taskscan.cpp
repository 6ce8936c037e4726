#include <delayq/taskscan.h>

#include "records/recordreads.h"
#include "records/taskrecord.h"

#include <delayq/error.h>

#include <charconv>
#include <cmath>

namespace delayq {

namespace {

std::string bound(long long score)
{
    if (score == LLONG_MIN)
        return "-inf";
    if (score == LLONG_MAX)
        return "+inf";
    return std::to_string(score);
}

// Scores are whole ms; one written by hand as "1.5e12" or "inf" still orders the scan.
long long scoreOf(const std::string& text)
{
    long long value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && ptr == text.data() + text.size())
        return value;
    const double d = std::strtod(text.c_str(), nullptr);
    if (std::isnan(d) || d <= double(LLONG_MIN))
        return LLONG_MIN;
    if (d >= double(LLONG_MAX))
        return LLONG_MAX;
    return static_cast<long long>(d);
}

void throwOnError(const std::vector<Reply>& replies)
{
    for (const auto& r : replies)
        if (r.isError())
            throw errorFromReply(r.str);
}

} // namespace

const char* scanFieldName(ScanField field)
{
    switch (field) {
    case ScanField::Error:
        return "error";
    case ScanField::Worker:
        return "worker";
    case ScanField::Payload:
        break;
    }
    return "payload";
}

std::string ScanCursor::toString() const
{
    if (done)
        return "";
    // A sharded queue's shards are searched one after the other: "K/" says which.
    const std::string where = shard > 0 ? std::to_string(shard) + "/" : "";
    if (!started)
        return shard > 0 ? where + "0" : "0";
    return where + std::to_string(score) + ":" + std::to_string(sameScore) + ":" + lastId;
}

ScanCursor ScanCursor::fromString(const std::string& whole)
{
    ScanCursor cursor;
    std::string text = whole;
    const auto slash = text.find('/');
    const auto colon = text.find(':');
    if (slash != std::string::npos && (colon == std::string::npos || slash < colon)) {
        size_t shard = 0;
        const auto r = std::from_chars(text.data(), text.data() + slash, shard);
        if (r.ec != std::errc() || r.ptr != text.data() + slash || shard >= 64)
            throw Error(ErrorCode::InvalidArgument,
                        "a scan cursor is 0 or SCORE:COUNT:ID as a previous step gave it");
        cursor.shard = shard;
        text = text.substr(slash + 1);
    }
    if (text == "0")
        return cursor;
    const auto first = text.find(':');
    const auto second = first == std::string::npos ? first : text.find(':', first + 1);
    long long score = 0;
    long long same = 0;
    bool good = second != std::string::npos && second + 1 < text.size();
    if (good) {
        auto a = std::from_chars(text.data(), text.data() + first, score);
        auto b = std::from_chars(text.data() + first + 1, text.data() + second, same);
        good = a.ec == std::errc() && a.ptr == text.data() + first && b.ec == std::errc() &&
               b.ptr == text.data() + second && same >= 1;
    }
    if (!good)
        throw Error(ErrorCode::InvalidArgument,
                    "a scan cursor is 0 or SCORE:COUNT:ID as a previous step gave it");
    cursor.started = true;
    cursor.score = score;
    cursor.sameScore = same;
    cursor.lastId = text.substr(second + 1);
    return cursor;
}

ScanStep TaskScan::shardStep(const TaskFilter& filter, const ScanCursor& cursor, int count)
{
    const size_t shard = std::min(cursor.shard, m_queue.shardCount() - 1);
    Queue one = m_queue.shardQueue(shard);
    ScanCursor inShard = cursor;
    inShard.shard = 0;
    ScanStep step = TaskScan(one).step(filter, inShard, count);
    step.cursor.shard = shard;
    // The end of a shard that is not the last goes on with the next one.
    if (step.cursor.done && shard + 1 < m_queue.shardCount()) {
        step.cursor = ScanCursor();
        step.cursor.shard = shard + 1;
    }
    return step;
}

bool TaskScan::matches(const TaskFilter& filter, const Task& task)
{
    if (task.score < filter.minScore || task.score > filter.maxScore)
        return false;
    if (filter.text.empty())
        return true;
    const std::string& text = filter.field == ScanField::Error    ? task.lastError
                              : filter.field == ScanField::Worker ? task.worker
                                                                  : task.payload;
    return text.find(filter.text) != std::string::npos;
}

long long TaskScan::inRange(const TaskFilter& filter)
{
    long long total = 0;
    for (size_t s = 0; s < m_queue.shardCount(); ++s)
        total += m_queue.connection()
                     .command({"ZCOUNT", m_queue.shardKeys(s).setKey(filter.set),
                               bound(filter.minScore), bound(filter.maxScore)})
                     .toInteger();
    return total;
}

ScanStep TaskScan::step(const TaskFilter& filter, const ScanCursor& cursor, int count)
{
    if (count < 1 || count > 1000)
        throw Error(ErrorCode::InvalidArgument, "a scan step reads 1 to 1000 tasks");
    if (filter.minScore > filter.maxScore)
        throw Error(ErrorCode::InvalidArgument, "the filter's earliest time is after its latest");
    if (m_queue.shardCount() > 1 && !cursor.done)
        return shardStep(filter, cursor, count);
    ScanStep result;
    result.cursor = cursor;
    if (cursor.done)
        return result;
    const Keys& keys = m_queue.keys();
    const std::string key = keys.setKey(filter.set);
    Connection& c = m_queue.connection();
    const long long from =
        cursor.started ? std::max(cursor.score, filter.minScore) : filter.minScore;
    auto rangeFrom = [&](long long skip) {
        return std::vector<std::string>{
            "ZRANGE",    key,     bound(from),          bound(filter.maxScore),
            "BYSCORE",   "LIMIT", std::to_string(skip), std::to_string(count),
            "WITHSCORES"};
    };
    // Past the tasks of the cursor's score up to its last id: where that id ranks now, less
    // the tasks scored before it. Sent with the range read that assumes nothing moved, so
    // the usual step is one round trip; a second read follows only when something did.
    long long skip = 0;
    Reply range;
    if (cursor.started && from == cursor.score) {
        auto replies = c.pipeline({{"ZSCORE", key, cursor.lastId},
                                   {"ZRANK", key, cursor.lastId},
                                   {"ZCOUNT", key, "-inf", "(" + bound(from)},
                                   rangeFrom(cursor.sameScore)});
        throwOnError(replies);
        // Gone, or moved to another time: from the first task of the score again.
        const bool there = !replies[0].isNil() && scoreOf(replies[0].str) == cursor.score;
        skip = there ? std::max(0LL, replies[1].toInteger() - replies[2].toInteger() + 1) : 0;
        range = skip == cursor.sameScore ? std::move(replies[3]) : c.command(rangeFrom(skip));
    } else {
        range = c.command(rangeFrom(0));
    }
    if (!range.isArray() || range.elements.size() % 2 != 0)
        throw Error(ErrorCode::Protocol, "unexpected reply shape from ZRANGE BYSCORE");
    RecordReads reads(c);
    for (size_t i = 0; i < range.elements.size(); i += 2) {
        const std::string& id = range.elements[i].str;
        reads.addRecord(keys, id);
        reads.add({"HGET", keys.run(), id});
        reads.add({"HGET", keys.errors(), id});
    }
    // The tags of the step's tasks, in the same round trip (the step is one shard's).
    if (!reads.empty()) {
        std::vector<std::string> tags = {"HMGET", keys.fairTags()};
        for (size_t i = 0; i < range.elements.size(); i += 2)
            tags.push_back(range.elements[i].str);
        reads.add(std::move(tags));
    }
    const std::vector<Reply> replies = reads.run();
    throwOnError(replies);
    long long last = from;
    long long lastCount = skip;
    for (size_t i = 0; i < range.elements.size() / 2; ++i) {
        Task t;
        t.id = range.elements[2 * i].str;
        t.score = scoreOf(range.elements[2 * i + 1].str);
        fillTask(t, filter.set, replies[3 * i], replies[3 * i + 1], replies[3 * i + 2]);
        const Reply& tags = replies.back();
        if (tags.isArray() && i < tags.elements.size())
            fillTags(t, tags.elements[i]);
        if (t.score == last) {
            ++lastCount;
        } else {
            last = t.score;
            lastCount = 1;
        }
        ++result.read;
        if (matches(filter, t))
            result.matches.push_back(std::move(t));
    }
    result.cursor.started = true;
    result.cursor.score = last;
    result.cursor.sameScore = lastCount;
    if (result.read > 0)
        result.cursor.lastId = range.elements[range.elements.size() - 2].str;
    result.cursor.done = result.read < count || last == LLONG_MAX;
    return result;
}

} // namespace delayq
