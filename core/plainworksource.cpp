#include "plainworksource.h"

#include "workercontext.h"
#include <delayq/error.h>

#include <string>
#include <utility>

namespace delayq {

PlainWorkSource::PlainWorkSource(WorkerContext& context, Connection& connection)
    : m_context(context), m_connection(connection)
{}

void PlainWorkSource::prepare()
{
    if (!m_plain) {
        const WorkerOptions& o = m_context.options();
        m_plain = std::make_unique<PlainQueue>(m_connection, o.plainKey, o.plainUnit);
    }
}

ClaimResult PlainWorkSource::take(int want)
{
    // A pop in the shape of a claim: the member is the task's id and its payload.
    PlainQueue::PopResult popped = m_plain->pop(want, m_context.options().forwardTo);
    ClaimResult claim;
    claim.nextDue = popped.nextDue;
    claim.serverNow = popped.serverNow;
    for (auto& m : popped.members) {
        ClaimedTask t;
        t.id = m.member;
        t.payload = std::move(m.member);
        t.due = m.dueMs;
        t.attempts = 1;
        t.maxAttempts = 1;
        claim.tasks.push_back(std::move(t));
    }
    return claim;
}

void PlainWorkSource::flush(std::deque<FinishedTask>& finishing)
{
    // The pop already removed every member: a success needs no ack. A failure is gone unless
    // a retry was asked for; a member that fails to go back stays first in the list, so the
    // flush repeated after a reconnect does it again (NX makes that harmless). A finished
    // task implies a pop, so m_plain exists.
    const long long retryMs = m_context.options().plainRetryMs;
    while (!finishing.empty()) {
        FinishedTask& f = finishing.front();
        WorkerEvent& event = f.event;
        event.outcome = TaskOutcome::Acked;
        if (f.result.kind == HandlerResult::Kind::Dead) {
            event.outcome = TaskOutcome::Dropped;
        } else if (f.result.kind == HandlerResult::Kind::Fail) {
            event.outcome = TaskOutcome::Dropped;
            if (retryMs >= 0) {
                const long long at = m_connection.serverNowMs() + retryMs;
                if (!m_plain->push({f.task.payload}, at).front())
                    event.error += " (pushed again meanwhile: that due time is kept)";
                event.outcome = TaskOutcome::Retried;
                event.retryAt = at;
            }
        }
        event.finished = m_connection.serverNowMs();
        WorkerEvent done = std::move(event);
        finishing.pop_front();
        m_context.taskFinished(done);
    }
}

void PlainWorkSource::giveBack(const ClaimedTask& task, long long lateness, const char* why)
{
    if (!m_plain)
        return; // nothing was popped
    WorkerEvent event = WorkSource::releasedEvent(task, lateness, why);
    if (!m_context.options().forwardTo.empty()) {
        // The pop already handed it to the list: putting it back would deliver it twice.
        event.outcome = TaskOutcome::Dropped;
        event.error += "; it was already forwarded, so it is not put back";
    } else {
        try {
            // At its old due time, so it is first in line for the next consumer.
            m_plain->push({task.payload}, task.due);
            event.retryAt = task.due;
        } catch (const Error& e) {
            event.outcome = TaskOutcome::Dropped;
            event.error += std::string("; putting it back failed: ") + e.what();
        }
    }
    event.finished = m_connection.serverNowMs();
    m_context.taskFinished(event);
}

} // namespace delayq
