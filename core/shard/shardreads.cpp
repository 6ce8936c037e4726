#include "shard/shardreads.h"

#include "records/valuechecks.h"
#include "shard/shardrouter.h"
#include "transport/replychecks.h"

#include <delayq/error.h>

#include <algorithm>
#include <tuple>

namespace delayq {

namespace {

// Below any score a task can have (a due time may be before 1970).
constexpr long long kEarliestScore = -kLatestDueMs;

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

long long sumOf(const std::vector<Reply>& replies)
{
    throwFirstError(replies);
    long long total = 0;
    for (const auto& reply : replies)
        total += reply.toInteger();
    return total;
}

} // namespace

namespace {

std::vector<std::string> fromScoreRead(const Keys& keys, TaskSet set, long long fromScore,
                                       long long take)
{
    return {"ZRANGEBYSCORE",
            keys.setKey(set),
            std::to_string(fromScore),
            "+inf",
            "WITHSCORES",
            "LIMIT",
            "0",
            std::to_string(take)};
}

// The shards' replies of fromScoreRead merged by (score, id), which is how Redis orders equal
// scores: `limit` members after the first `skip`.
std::vector<ShardReads::Member> merged(const ShardRouter::Read& read, long long skip,
                                       long long limit)
{
    throwFirstError(read.replies);
    std::vector<std::tuple<long long, std::string, size_t>> all;
    for (size_t s = 0; s < read.replies.size(); ++s)
        for (auto& [id, score] : membersWithScores(read.replies[s]))
            all.emplace_back(score, std::move(id), s);
    std::sort(all.begin(), all.end());
    const size_t from = std::min(all.size(), static_cast<size_t>(skip));
    const size_t to = std::min(all.size(), static_cast<size_t>(skip + limit));
    std::vector<ShardReads::Member> out;
    for (size_t i = from; i < to; ++i)
        out.push_back({std::get<1>(all[i]), std::get<0>(all[i]), read.shards[std::get<2>(all[i])]});
    return out;
}

} // namespace

std::vector<ShardReads::Member> ShardReads::page(TaskSet set, long long offset, long long limit)
{
    // One shard's ranks are the merged ranks: read by rank. Several: the first page merges
    // each shard's first `limit`; a deeper one seeks its score first.
    const ShardRouter::Read read = m_router.read([&](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands;
        if (shards.size() == 1)
            commands.push_back({"ZRANGE", shards[0].setKey(set), std::to_string(offset),
                                std::to_string(offset + limit - 1), "WITHSCORES"});
        else if (offset == 0)
            for (const auto& keys : shards)
                commands.push_back(fromScoreRead(keys, set, kEarliestScore, limit));
        return commands;
    });
    if (read.shards.size() == 1) {
        throwFirstError(read.replies);
        std::vector<Member> out;
        for (auto& [id, score] : membersWithScores(read.replies.at(0)))
            out.push_back({std::move(id), score, read.shards[0]});
        return out;
    }
    if (offset == 0)
        return merged(read, 0, limit);
    // A binary search of summed ZCOUNTs, then a merge from there: a deep page costs some 60
    // round trips, not a read of every task before it.
    const long long score = scoreAtRank(set, offset);
    return fromScore(set, score, offset - rankOfScore(set, score), limit);
}

std::vector<ShardReads::Member> ShardReads::fromScore(TaskSet set, long long fromScore,
                                                      long long skip, long long limit)
{
    const ShardRouter::Read read = m_router.read([&](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands;
        for (const auto& keys : shards)
            commands.push_back(fromScoreRead(keys, set, fromScore, skip + limit));
        return commands;
    });
    return merged(read, skip, limit);
}

long long ShardReads::scoreAtRank(TaskSet set, long long rank)
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

long long ShardReads::sum(const std::function<std::vector<std::string>(const Keys&)>& command)
{
    return sumOf(m_router
                     .read([&](const std::vector<Keys>& shards) {
                         std::vector<std::vector<std::string>> commands;
                         for (const auto& keys : shards)
                             commands.push_back(command(keys));
                         return commands;
                     })
                     .replies);
}

long long ShardReads::rankOfScore(TaskSet set, long long score)
{
    return sum([&](const Keys& keys) -> std::vector<std::string> {
        return {"ZCOUNT", keys.setKey(set), "-inf", "(" + std::to_string(score)};
    });
}

std::optional<long long> ShardReads::earliest(TaskSet set)
{
    const auto read = m_router.read([&](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands;
        for (const auto& keys : shards)
            commands.push_back({"ZRANGE", keys.setKey(set), "0", "0", "WITHSCORES"});
        return commands;
    });
    throwFirstError(read.replies);
    std::optional<long long> first;
    for (const auto& reply : read.replies)
        for (const auto& member : membersWithScores(reply))
            first = first ? std::min(*first, member.second) : member.second;
    return first;
}

std::optional<long long> ShardReads::rankOf(TaskSet set, const std::string& id)
{
    // One shard: ZRANK, which is the merged rank.
    const ShardRouter::Read one = m_router.read([&](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands;
        if (shards.size() == 1)
            commands.push_back({"ZRANK", shards[0].setKey(set), id});
        return commands;
    });
    if (one.shards.size() == 1) {
        throwFirstError(one.replies);
        const Reply& r = one.replies.at(0);
        return r.isNil() ? std::nullopt : std::optional<long long>(r.toInteger());
    }
    // The score where the id is (its home first), then the tasks scored below it and those of
    // its score whose id sorts before it.
    std::optional<long long> score;
    for (size_t s : m_router.searchOrder(id)) {
        const Reply r =
            m_router.connection().command({"ZSCORE", m_router.shardKeys(s).setKey(set), id});
        if (!r.isNil()) {
            score = r.toInteger();
            break;
        }
    }
    if (!score)
        return std::nullopt;
    long long rank = rankOfScore(set, *score);
    const auto same = m_router.read([&](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands;
        for (const auto& keys : shards)
            commands.push_back({"ZRANGEBYSCORE", keys.setKey(set), std::to_string(*score),
                                std::to_string(*score)});
        return commands;
    });
    for (const auto& reply : same.replies)
        for (const auto& member : reply.elements)
            rank += member.str < id ? 1 : 0;
    return rank;
}

} // namespace delayq
