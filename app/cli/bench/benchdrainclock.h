#pragma once

#include "bench/benchfigures.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <string>

namespace cli {

class ServerMeter;

// Times a drain the same way for every design, and as scripts/bench-peers times BullMQ and
// `delayq work`: the consumers are running and idle when the whole backlog falls due at one
// moment, and the drain lasts from that moment to the last task finished. Whatever a design
// does to notice due work (sleep until the next due time, poll every second) is in it; its
// start-up and its wind-down are not.
class BenchDrainClock
{
public:
    // dueAtMs: when the backlog falls due (server clock); offsetMs: server minus this
    // machine's clock, read once.
    BenchDrainClock(long long dueAtMs, long long offsetMs);

    // How far ahead of now a backlog of `tasks` is made due, for the filling and the
    // consumers' start to fit in before it.
    static long long leadMs(long long tasks);
    // This machine's wall clock, ms since the epoch.
    static long long localNowMs();
    // Runs drainOnce(leadMs, late) with leadMs(tasks); a drain whose backlog fell due before
    // its consumers were ready (late: a slow fill on a loaded machine) would time part of
    // their start, so it runs again with twice the lead, at most three times in all, and
    // says so through progress.
    static PhaseFigures withLead(long long tasks,
                                 const std::function<PhaseFigures(long long, bool&)>& drainOnce,
                                 const std::function<void(const std::string&)>& progress);

    long long dueAtMs() const { return m_dueAtMs; }
    // A task finished now. Any thread.
    void finished();
    long long finishedCount() const { return m_count; }
    // tasks / (last finished - due), the server's CPU since `cpuBefore`, and the time from
    // due to the first finished task.
    PhaseFigures figures(ServerMeter& meter, double cpuBefore, long long tasks) const;

private:
    long long m_dueAtMs;
    long long m_offsetMs;
    std::atomic<long long> m_firstUs{0}; // local clock, µs since the epoch
    std::atomic<long long> m_lastUs{0};
    std::atomic<long long> m_count{0};
};

} // namespace cli
