#pragma once

#include <delayq/reply.h>

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
    int pass = 1;         // passes look again until one finds no task outside its home
    bool finished = true; // no change is under way
    // Set by a step that ended a pass: tasks workers held outside their home in that pass
    // (moved once their workers let them go), and how long to wait before the next step when
    // the pass could move nothing (0: step again at once).
    long long held = 0;
    long long waitMs = 0;
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
    // The last pass begins at least this long after the change started: every producer's
    // copy of the layout (QueueReader::layout(), read again after a second) is the new one
    // by then, so no task is pushed by the old layout after the pass that finishes.
    static constexpr long long kSettleMs = 2000;
    // The wait suggested between passes that found only tasks workers hold.
    static constexpr long long kWaitMs = 200;

    explicit ShardMover(Queue& queue);

    // Starts the change to `count` shards (1..64), placing new shards on the masters with the
    // fewest of the queue's shards. The same count as an unfinished change resumes it; another
    // is refused (InvalidArgument), as is one on a queue in the older layout.
    MoveProgress start(int count);
    // One step: at most `batch` (1..100) tasks looked at, in one set of one shard (pending,
    // active, dead, the remembered ids, the recycle bin in turn); finishes the change once a whole
    // pass, begun kSettleMs or more after the change started, found no task outside its home shard
    // (none to move, none a worker held there) and the shards it leaves are empty.
    MoveProgress step(int batch = 100);
    MoveProgress progress();
    // Takes the shard's recycle-bin entries of the given ids whose home (by the queue's layout
    // in hand) is another shard, and puts them in their home's bin (bin_take, bin_put,
    // bin_release; docs/design/bin.md, "Resharding"); ids empty: the entries an interrupted
    // carry left held in the shard. How many entries it held. Each pass of a reshard carries
    // every bin's; RecycleBin carries one an older reshard or a schedule's fire left away from
    // home before restoring it.
    long long carryBin(size_t shard, const std::vector<std::string>& ids);

private:
    // The tag of the next shard: on a cluster, one whose slot a master with fewest of the
    // queue's shards serves.
    std::string placeShard(const std::vector<std::string>& tags);
    // Takes, copies and releases the given ids of the shard; how many were moved.
    long long move(size_t shard, const std::vector<std::string>& ids);
    // Sends the shard's remembered-as-done ids (ZSCAN's member, score pairs) whose home is
    // another shard there (docs/design/keep.md).
    void moveRecentlyDone(size_t shard, const std::vector<Reply>& members);

    Queue& m_queue;
};

} // namespace delayq
