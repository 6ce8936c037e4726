#pragma once

#include <chrono>

namespace delayq {

// How many tasks a worker thread's next claim asks for. It starts at the configured batch;
// while claims come back full and their tasks are done quickly, it doubles up to the maximum,
// so a backlog drains in a few large script calls (Redis's cost per task falls with the
// batch); on a backlog (a full claim with more due already) a quick hand goes straight to the
// maximum, so a drain does not pay the ramp. A claim that finds less, or slow handlers,
// bring it back down, so a quiet queue keeps small claims (several workers share it evenly,
// nothing waits in a full hand).
class BatchSizer
{
public:
    BatchSizer(int base, int max);

    int next() const { return m_current; }
    // A claim asked for `asked` tasks and got `got`; `handTime` is how long this thread
    // took with the previous claim's tasks; `moreDue`: the claim's reply said more tasks are
    // due already (its next due time is not in the future), a backlog.
    void claimed(int asked, int got, std::chrono::steady_clock::duration handTime, bool moreDue);

private:
    int m_base;
    int m_max;
    int m_current;
};

} // namespace delayq
