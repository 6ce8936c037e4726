#include "worker/reaper.h"

#include "transport/reconnectbackoff.h"
#include "worker/workercontext.h"
#include <delayq/queue.h>

namespace delayq {

Reaper::Reaper(WorkerContext& context) : m_context(context), m_nextTurn(Clock::now() + interval())
{}

void Reaper::reapIfDue(Queue& queue)
{
    if (Clock::now() < m_nextTurn)
        return;
    for (int i = 0; i < 10; ++i) {
        ReapResult r = queue.reap(m_context.options().reapBatch);
        m_context.tally().reaped(r.requeued + r.dead);
        if (!r.more)
            break;
    }
    m_nextTurn = Clock::now() + interval();
}

Reaper::Clock::duration Reaper::interval() const
{
    return std::chrono::milliseconds(
        static_cast<long long>(m_context.options().reapInterval.count() * jitter(0.5, 1.5)));
}

} // namespace delayq
