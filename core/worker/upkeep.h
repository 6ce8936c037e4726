#pragma once

namespace delayq {

class WorkerContext;

// A native worker's upkeep thread (docs/design.md, "Threads"), with its own connection: the
// Reaper's turns (other workers' expired leases), the ScheduleTicker's and the Heartbeat's,
// and the registry leave at the end. Lease renewals are not here but on the LeaseKeeper's
// thread and connection: a reap of ten calls, a tick or a beat on a slow link is several
// round trips, and a renewal queued behind them could arrive after its lease ran out.
class Upkeep
{
public:
    explicit Upkeep(WorkerContext& context);
    Upkeep(const Upkeep&) = delete;
    Upkeep& operator=(const Upkeep&) = delete;

    // The thread's body; returns once every worker thread has ended.
    void run();

private:
    WorkerContext& m_context;
};

} // namespace delayq
