#pragma once

#include <string>
#include <vector>

namespace delayq {

// How one queue's tasks are spread over shards (docs/design.md, "Sharded queues"), as the
// config hash of shard 0 records it:
//   shards      how many shards new tasks spread over (absent: 1)
//   shard_tags  the hash tag of every shard the queue has used, space-separated, in shard
//               order; the first is the queue's name (absent: just that)
//   shard_move  "FROM>TO" while a change of `shards` is moving tasks (absent otherwise)
//   shard_moved tasks that change has moved so far
// Shards past `shards` are kept in shard_tags after a shrink: readers and workers still look
// at them, so a task a stale producer put there is never lost.
struct ShardLayout
{
    static constexpr int kMaxShards = 64;

    int count = 1;
    std::vector<std::string> tags;
    std::string move;
    long long moved = 0;

    bool sharded() const { return tags.size() > 1; }
    bool moving() const { return !move.empty(); }
    // The shard a task lives in once the layout settles: hashOf(id) mod count.
    int homeOf(const std::string& id) const;
    // While a change is under way, the shard the id's task lived in before it (its home by
    // the count the change started from): a task not moved yet is still there. homeOf(id)
    // when no change is under way.
    int formerHomeOf(const std::string& id) const;
    // CRC16/XMODEM of the whole id (Redis Cluster's slot hash, braces not special).
    static int hashOf(const std::string& id);

    // From the config fields (empty when absent). A garbled field reads as the single-shard
    // layout it cannot improve on, so a hand-edited config never makes tasks unreachable:
    // tags that are not the queue's shards are dropped and count is kept within the tags.
    static ShardLayout fromConfig(const std::string& queue, const std::string& shards,
                                  const std::string& tags, const std::string& move,
                                  const std::string& moved);
    // The shard_tags value.
    std::string tagsField() const;
};

} // namespace delayq
