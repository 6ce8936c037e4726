#include "plain/plainworksource.h"

#include "worker/workercontext.h"
#include <delayq/error.h>

#include <string>
#include <utility>
#include <vector>

namespace delayq {

namespace {

// The lease of a plain member when the options ask for none of their own (0 means the
// queue's lease_ms for a native queue; a plain key has no settings).
constexpr long long kDefaultLeaseMs = 30000;

const char* const kLeftAlone =
    "; the member was rescheduled or taken again during its lease, so it is left as it is";

} // namespace

PlainWorkSource::PlainWorkSource(WorkerContext& context, Connection& connection)
    : m_context(context), m_connection(connection), m_leased(context.hasDelivery())
{}

void PlainWorkSource::prepare()
{
    if (!m_plain) {
        const WorkerOptions& o = m_context.options();
        m_plain = std::make_unique<PlainQueue>(m_connection, o.plainKey, o.plainUnit);
    }
}

long long PlainWorkSource::leaseMs() const
{
    const long long ms = m_context.options().leaseMs;
    return ms > 0 ? ms : kDefaultLeaseMs;
}

ClaimResult PlainWorkSource::take(int want)
{
    // A pop or a lease in the shape of a claim: the member is the task's id and its payload;
    // a leased one carries its lease score as the token, for the settle.
    PlainQueue::PopResult popped = m_leased ? m_plain->lease(want, leaseMs())
                                            : m_plain->pop(want, m_context.options().forwardTo);
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
        t.token = popped.leaseScore;
        t.leaseDeadline = popped.leaseUntil;
        claim.tasks.push_back(std::move(t));
    }
    return claim;
}

void PlainWorkSource::flush(std::deque<FinishedTask>& finishing)
{
    if (m_leased)
        flushLeased(finishing);
    else
        flushPopped(finishing);
}

void PlainWorkSource::flushPopped(std::deque<FinishedTask>& finishing)
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

std::optional<long long> PlainWorkSource::dueAfter(const HandlerResult& result, long long now) const
{
    switch (result.kind) {
    case HandlerResult::Kind::Ack:
    case HandlerResult::Kind::Dead: // the target said never again (a webhook's 410)
        return std::nullopt;
    default:
        break;
    }
    // A failure stays in the key: at the target's own retry time (Retry-After, a consumer's
    // "retry in"), else --retry-in, else one lease later (the lease is the retry delay).
    long long delay = result.retryDelayMs;
    if (delay < 0)
        delay = m_context.options().plainRetryMs;
    if (delay < 0)
        delay = leaseMs();
    return now + delay;
}

void PlainWorkSource::flushLeased(std::deque<FinishedTask>& finishing)
{
    // One settle for all: each member leaves its lease only if it still holds it, so a
    // repeat after a lost reply changes nothing it should not (it then reads as left alone).
    const long long now = m_connection.serverNowMs();
    std::vector<PlainQueue::Settlement> settlements;
    settlements.reserve(finishing.size());
    for (const FinishedTask& f : finishing)
        settlements.push_back({f.task.payload, f.task.token, dueAfter(f.result, now)});
    const std::vector<bool> done = m_plain->settle(settlements);
    for (size_t i = 0; i < done.size(); ++i) {
        WorkerEvent event = std::move(finishing.front().event);
        const HandlerResult::Kind kind = finishing.front().result.kind;
        finishing.pop_front();
        if (!done[i]) {
            event.outcome = TaskOutcome::LeaseLost;
            event.error += kLeftAlone;
        } else if (kind == HandlerResult::Kind::Ack) {
            event.outcome = TaskOutcome::Acked;
        } else if (!settlements[i].newDueMs) {
            event.outcome = TaskOutcome::Dropped;
        } else {
            event.outcome = TaskOutcome::Retried;
            event.retryAt = *settlements[i].newDueMs;
        }
        event.finished = m_connection.serverNowMs();
        m_context.taskFinished(event);
    }
}

void PlainWorkSource::giveBack(const ClaimedTask& task, long long lateness, const char* why)
{
    if (!m_plain)
        return; // nothing was popped
    WorkerEvent event = WorkSource::releasedEvent(task, lateness, why);
    if (m_leased) {
        // Never sent: back at its old due time, first in line for the next consumer.
        try {
            if (m_plain->settle({{task.payload, task.token, task.due}}).front())
                event.retryAt = task.due;
            else
                event.error += kLeftAlone;
        } catch (const Error& e) {
            event.error +=
                std::string("; putting it back failed (it is due again when its lease runs "
                            "out): ") +
                e.what();
        }
    } else if (!m_context.options().forwardTo.empty()) {
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
