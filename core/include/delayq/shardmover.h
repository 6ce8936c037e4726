#pragma once

#include <string>
#include <vector>

namespace delayq {

class Queue;

// Where a change of a queue's shard count stands (docs/design.md, "Sharded queues").
struct MoveProgress
{
    int from = 1;         // shards before the change
    int to = 1;           // shards after it (the queue's `shards` now)
    long long moved = 0;  // tasks this change has moved so far
    int shard = 0;        // the shard being looked through
    int shards = 1;       // of how many (every shard the queue has used)
    int pass = 1;         // a shrink looks again until the shards it leaves are empty
    bool finished = true; // no change is under way
};

// Changes how many shards a queue has, and moves each task whose home shard the change moved
// to it, in bounded, resumable steps: the cursor lives in the queue's config, so any process
// picks up where another stopped. New tasks go to their new home at once; until a task is
// moved, readers, workers and operations by id still find it where it is. A pending task is
// held (leased to "delayq-reshard") while it is copied, so no worker runs it twice; an
// interrupted step is finished by the next one (shard_take.lua, shard_release.lua).
// Synchronous, throws Error.
class ShardMover
{
public:
    // A held task stays held this long if its mover dies: resume within it.
    static constexpr long long kHoldMs = 3600 * 1000;

    explicit ShardMover(Queue& queue);

    // Starts the change to `count` shards (1..64), placing new shards on the masters with the
    // fewest of the queue's shards. The same count as an unfinished change resumes it; another
    // is refused (InvalidArgument), as is one on a queue in the older layout.
    MoveProgress start(int count);
    // One step: at most `batch` (1..100) tasks looked at, in one shard; finishes the change
    // once a whole pass found nothing to move and the shards it leaves are empty.
    MoveProgress step(int batch = 100);
    MoveProgress progress();

private:
    // The tag of the next shard: on a cluster, one whose slot a master with fewest of the
    // queue's shards serves.
    std::string placeShard(const std::vector<std::string>& tags);
    // Takes, copies and releases the given ids of the shard; how many were moved.
    long long move(size_t shard, const std::vector<std::string>& ids);

    Queue& m_queue;
};

} // namespace delayq
