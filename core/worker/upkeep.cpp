#include "worker/upkeep.h"

#include "transport/reconnectbackoff.h"
#include "transport/sigpipeblock.h"
#include "worker/heartbeat.h"
#include "worker/reaper.h"
#include "worker/scheduleticker.h"
#include "worker/workercontext.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <algorithm>

namespace delayq {

Upkeep::Upkeep(WorkerContext& context) : m_context(context) {}

void Upkeep::run()
{
    // SIGPIPE blocked for the thread's whole life, as on the worker threads.
    const SigpipeBlock noSigpipe;
    const WorkerOptions& options = m_context.options();
    Connection connection(options.connection);
    Queue queue(connection, options.queue, options.prefix);
    Reaper reaper(m_context);
    Heartbeat heartbeat(m_context);
    ScheduleTicker ticker(m_context);
    ReconnectBackoff backoff(options.maxReconnectDelay);
    // Nothing but the end of the worker threads (or the time) wakes this thread.
    const auto never = [] { return false; };
    while (m_context.workersRunning()) {
        try {
            // A stopping worker takes on no one else's tasks and fires nothing more, but
            // stays listed until it is gone.
            if (!m_context.stopping()) {
                reaper.reapIfDue(queue);
                if (options.fireSchedules)
                    ticker.tickIfDue(connection);
            }
            heartbeat.beatIfDue(connection);
            backoff.reset();
            auto until = heartbeat.nextBeat();
            if (!m_context.stopping()) // else their turns, passed and not taken, would spin
                until = std::min(until, reaper.nextTurn());
            if (options.fireSchedules && !m_context.stopping())
                until = std::min(until, ticker.nextTurn());
            m_context.sleepWhileWorking(until, never);
        } catch (const Error& e) {
            m_context.reportError(e);
            m_context.sleepWhileWorking(Reaper::Clock::now() + backoff.next(), never);
        }
    }
    heartbeat.leave(connection);
}

} // namespace delayq
