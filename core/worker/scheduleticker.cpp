#include "worker/scheduleticker.h"

#include "worker/workercontext.h"
#include <delayq/error.h>
#include <delayq/schedules.h>

#include <algorithm>

namespace delayq {

ScheduleTicker::ScheduleTicker(WorkerContext& context)
    : m_context(context), m_nextTurn(Clock::now())
{}

void ScheduleTicker::tickIfDue(Connection& connection)
{
    const auto now = Clock::now();
    if (now < m_nextTurn)
        return;
    const WorkerOptions& options = m_context.options();
    m_nextTurn = now + options.pollInterval;
    try {
        Schedules schedules(connection, options.queue, options.prefix);
        Schedules::TickResult r = schedules.tick();
        // Several turns at once while fires are due (a catch-up, many schedules), never a spin.
        for (int turn = 1; turn < 10 && r.nextFire && *r.nextFire <= r.serverNow; ++turn)
            r = schedules.tick();
        if (!r.problem.empty())
            m_context.reportError(Error(ErrorCode::InvalidArgument, r.problem));
        if (r.nextFire) {
            const long long waitMs =
                std::clamp(*r.nextFire - r.serverNow, 1LL,
                           static_cast<long long>(options.pollInterval.count()));
            m_nextTurn = Clock::now() + std::chrono::milliseconds(waitMs);
        }
    } catch (const Error& e) {
        if (e.code() == ErrorCode::Connection || e.code() == ErrorCode::Timeout)
            throw; // Redis is away: the thread's backoff applies
        m_context.reportError(e);
    }
}

} // namespace delayq
