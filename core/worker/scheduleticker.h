#pragma once

#include <delayq/connection.h>

#include <chrono>

namespace delayq {

class WorkerContext;

// Fires the queue's schedules (docs/schedules.md) from the worker's upkeep thread: a
// turn when the earliest next fire comes (it is read each turn), and at least every poll
// interval to see schedules added meanwhile. Any number of workers take turns safely: each
// fire is made once by whichever worker's schedule_fire call comes first.
class ScheduleTicker
{
public:
    using Clock = std::chrono::steady_clock;

    explicit ScheduleTicker(WorkerContext& context);

    // Ticks when the next turn has come. A refusal is reported and tried again a poll
    // interval later; only a lost connection is thrown.
    void tickIfDue(Connection& connection);
    Clock::time_point nextTurn() const { return m_nextTurn; }

private:
    WorkerContext& m_context;
    Clock::time_point m_nextTurn;
};

} // namespace delayq
