#pragma once

#include <delayq/keys.h>
#include <delayq/reply.h>
#include <delayq/task.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace delayq {

class ShardRouter;

// The reads of a set over every shard as one (docs/design/sharding.md, "Reads"): sums of
// counts, and pages merged by (score, id), which is how Redis orders one sorted set. With
// one shard they are that shard's own reads, in as many round trips.
class ShardReads
{
public:
    // A member of a page and the keys of the shard it came from.
    struct Member
    {
        std::string id;
        long long score = 0;
        Keys shard;
    };

    explicit ShardReads(ShardRouter& router) : m_router(router) {}

    // One integer command per shard (`command` builds it for a shard's keys), summed.
    long long sum(const std::function<std::vector<std::string>(const Keys&)>& command);

    // Members by rank over every shard (0 = earliest).
    std::vector<Member> page(TaskSet set, long long offset, long long limit);
    // Members with score >= fromScore, the first `skip` left out.
    std::vector<Member> fromScore(TaskSet set, long long fromScore, long long skip,
                                  long long limit);
    // Tasks of the set scored below `score`.
    long long rankOfScore(TaskSet set, long long score);
    std::optional<long long> rankOf(TaskSet set, const std::string& id);
    std::optional<long long> earliest(TaskSet set);

private:
    // The highest score s with fewer than or exactly `rank` tasks of the set scored below s.
    long long scoreAtRank(TaskSet set, long long rank);

    ShardRouter& m_router;
};

} // namespace delayq
