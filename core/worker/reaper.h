#pragma once

#include <chrono>

namespace delayq {

class Queue;
class WorkerContext;

// Takes back the tasks of any worker of the queue whose lease ran out (reap.lua: retried, or
// dead after their last attempt). A worker's upkeep thread (Upkeep) asks it about once per
// reapInterval, randomised by +-50 % so the workers of one queue take turns instead of
// reaping together; a turn is at most ten calls, the rest waits for the next turn.
class Reaper
{
public:
    using Clock = std::chrono::steady_clock;

    explicit Reaper(WorkerContext& context);

    // Reaps when the next turn has come, and schedules the one after.
    void reapIfDue(Queue& queue);
    Clock::time_point nextTurn() const { return m_nextTurn; }

private:
    Clock::duration interval() const;

    WorkerContext& m_context;
    Clock::time_point m_nextTurn;
};

} // namespace delayq
