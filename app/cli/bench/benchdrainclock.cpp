#include "bench/benchdrainclock.h"
#include "bench/servermeter.h"

#include <algorithm>

namespace cli {

namespace {

long long localNowUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

BenchDrainClock::BenchDrainClock(long long dueAtMs, long long offsetMs)
    : m_dueAtMs(dueAtMs), m_offsetMs(offsetMs)
{}

long long BenchDrainClock::leadMs(long long tasks)
{
    // About 10 µs a task to fill on a loaded 2-core machine, and a second for the rest.
    return 1000 + tasks / 100;
}

long long BenchDrainClock::localNowMs()
{
    return localNowUs() / 1000;
}

void BenchDrainClock::finished()
{
    const long long now = localNowUs();
    long long none = 0;
    m_firstUs.compare_exchange_strong(none, now);
    // Threads may record out of order: keep the latest.
    long long last = m_lastUs.load();
    while (last < now && !m_lastUs.compare_exchange_weak(last, now)) {
    }
    ++m_count;
}

PhaseFigures BenchDrainClock::figures(ServerMeter& meter, double cpuBefore, long long tasks) const
{
    const double dueUs = static_cast<double>(m_dueAtMs - m_offsetMs) * 1000.0;
    // At least a millisecond: a figure, never a division by zero.
    const double seconds = std::max(1000.0, static_cast<double>(m_lastUs) - dueUs) / 1e6;
    PhaseFigures f = meter.phase(cpuBefore, tasks, seconds);
    f.firstMs = m_firstUs == 0 ? -1 : (static_cast<double>(m_firstUs) - dueUs) / 1000.0;
    return f;
}

PhaseFigures
BenchDrainClock::withLead(long long tasks,
                          const std::function<PhaseFigures(long long, bool&)>& drainOnce,
                          const std::function<void(const std::string&)>& progress)
{
    long long lead = leadMs(tasks);
    for (int attempt = 1;; ++attempt, lead *= 2) {
        bool late = false;
        PhaseFigures f = drainOnce(lead, late);
        if (!late || attempt == 3)
            return f;
        progress("the drain's backlog fell due before its consumers were ready: again with a " +
                 std::to_string(lead * 2) + " ms lead");
    }
}

} // namespace cli
