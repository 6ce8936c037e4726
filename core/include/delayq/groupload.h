#pragma once

#include <string>
#include <vector>

namespace delayq {

// One group of a queue in fair order (docs/design/flow.md), as an operator sees it.
struct GroupLoad
{
    std::string group;        // "" = the tasks pushed without a group
    long long dueWaiting = 0; // due tasks in the group's ready set (fl:r:GROUP)
    long long active = 0;     // its tasks running now (live leases)
    bool atCap = false;       // waits at its group cap (fl:blocked)
    bool atRate = false;      // waits for its group rate's next token (fl:later)
};

// The busiest groups of a queue in fair order: QueueReader::busyGroups(). A bounded read, so
// the counts of the whole queue say how much was looked at.
struct GroupLoads
{
    bool fair = false;      // the queue's order is "fair"; nothing else is read otherwise
    long long groupCap = 0; // 0 = none
    // Groups tracked (fl:known, bounded at 100,000: push refuses a new group past it): those
    // with due tasks, or with running ones under a group cap.
    long long known = 0;
    long long ready = 0;  // groups with due tasks, in turn (fl:ring)
    long long atCap = 0;  // groups waiting at their cap (fl:blocked)
    long long atRate = 0; // groups waiting for their rate (fl:later)
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
