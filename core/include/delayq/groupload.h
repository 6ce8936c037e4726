#pragma once

#include <string>
#include <vector>

namespace delayq {

// One group of a queue in fair order (docs/design/flow.md), as an operator sees it.
struct GroupLoad
{
    std::string group;        // "" = the tasks pushed without a group
    long long dueWaiting = 0; // due tasks in the group's ready sets (fl:r:GROUP), over the shards
    long long active = 0;     // its tasks running now (live leases)
    bool atCap = false;       // waits at its group cap (fl:blocked; in some shard, when sharded)
    bool atRate = false;      // waits for its group rate's next token (fl:later; likewise)
};

// The busiest groups of a queue in fair order: QueueReader::busyGroups(). A bounded read, so
// the counts of the whole queue say how much was looked at.
struct GroupLoads
{
    bool fair = false;      // the queue's order is "fair"; nothing else is read otherwise
    long long groupCap = 0; // 0 = none
    // Groups tracked (fl:known, bounded at 100,000 a shard: push refuses a new group past it):
    // those with due tasks, or with running ones under a group cap. On a sharded queue each
    // shard tracks its own: the most any one shard tracks.
    long long known = 0;
    long long shards = 1; // the shards read (every tag of a sharded queue)
    // Distinct groups over the shards (at least the most of any one shard when a shard's set
    // was too large to read whole: then complete is false).
    long long ready = 0;  // groups with due tasks, in turn (fl:ring)
    long long atCap = 0;  // groups waiting at their cap in some shard (fl:blocked)
    long long atRate = 0; // groups waiting for their rate in some shard (fl:later)
    // Groups looked at: those of the ring, blocked and later (at most kExamined of each) and
    // of the live leases read (at most kActiveRead). complete: every one was.
    long long examined = 0;
    bool complete = true;
    // The busiest first (most due tasks waiting, then most active, then by name), at most the
    // limit asked for.
    std::vector<GroupLoad> groups;

    static constexpr long long kExamined = 1000;
    static constexpr long long kActiveRead = 1000;
};

} // namespace delayq
