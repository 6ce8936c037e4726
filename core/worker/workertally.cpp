#include "worker/workertally.h"

namespace delayq {

namespace {

// An outage for the worker: unreachable, or refused at the handshake after a restart (a
// changed password, a certificate being rotated): either way it reconnects with backoff
// rather than reporting each try.
bool isConnectionError(const Error& e)
{
    return e.isUnreachable() || e.code() == ErrorCode::Auth || e.code() == ErrorCode::Tls;
}

} // namespace

void WorkerTally::reset()
{
    std::lock_guard lock(m_mutex);
    m_counts = WorkerCounters{};
    m_latencies.clear();
    m_connected = true;
    m_reportedErrors.clear();
}

WorkerCounters WorkerTally::counters() const
{
    std::lock_guard lock(m_mutex);
    WorkerCounters c = m_counts;
    c.latenessCount = m_latencies.count();
    c.latenessP50 = m_latencies.percentile(0.5);
    c.latenessP99 = m_latencies.percentile(0.99);
    c.latenessMax = m_latencies.max();
    c.lateness = m_latencies.coarseBuckets();
    return c;
}

long long WorkerTally::claimSent()
{
    std::lock_guard lock(m_mutex);
    ++m_claimsOutstanding;
    return m_activity;
}

void WorkerTally::claimFailed()
{
    std::lock_guard lock(m_mutex);
    --m_claimsOutstanding;
}

void WorkerTally::claimed(const ClaimResult& claim)
{
    std::lock_guard lock(m_mutex);
    --m_claimsOutstanding;
    ++m_activity;
    m_counts.claimed += static_cast<long long>(claim.tasks.size());
    m_counts.inFlight += static_cast<long long>(claim.tasks.size());
    for (const auto& t : claim.tasks)
        m_latencies.record(claim.serverNow - t.due);
}

WorkerTally::EmptyClaim WorkerTally::claimCameBackEmpty(long long activityBefore)
{
    std::lock_guard lock(m_mutex);
    EmptyClaim result;
    result.conclusive =
        m_counts.inFlight == 0 && m_claimsOutstanding == 1 && m_activity == activityBefore;
    result.othersBusy = m_counts.inFlight > 0;
    --m_claimsOutstanding;
    return result;
}

void WorkerTally::handlerFailed()
{
    std::lock_guard lock(m_mutex);
    ++m_counts.failed;
}

bool WorkerTally::taskEnded(TaskOutcome outcome)
{
    std::lock_guard lock(m_mutex);
    countLocked(outcome);
    return endedLocked(1);
}

bool WorkerTally::tasksDropped(long long n)
{
    std::lock_guard lock(m_mutex);
    return endedLocked(n);
}

void WorkerTally::reaped(long long n)
{
    std::lock_guard lock(m_mutex);
    m_counts.reaped += n;
}

bool WorkerTally::endedLocked(long long n)
{
    ++m_activity;
    m_counts.inFlight -= n;
    return m_counts.inFlight == 0;
}

void WorkerTally::countLocked(TaskOutcome outcome)
{
    // No default: a new outcome must be given its counter here (-Wswitch says so).
    switch (outcome) {
    case TaskOutcome::Acked:
        ++m_counts.acked;
        break;
    case TaskOutcome::Retried:
        ++m_counts.retried;
        break;
    case TaskOutcome::Dead:
    case TaskOutcome::Dropped: // plain: a failed member that is gone counts as dead
        ++m_counts.dead;
        break;
    case TaskOutcome::LeaseLost:
        ++m_counts.leaseLost;
        break;
    case TaskOutcome::Abandoned:
        ++m_counts.abandoned;
        break;
    case TaskOutcome::Released:
        ++m_counts.released;
        break;
    }
}

std::optional<WorkerEvent> WorkerTally::redisAnswered()
{
    {
        std::lock_guard lock(m_mutex);
        m_reportedErrors.clear();
        if (m_connected)
            return std::nullopt;
        m_connected = true;
        m_counts.connected = true;
    }
    WorkerEvent event;
    event.kind = WorkerEvent::Kind::ConnectionRestored;
    return event;
}

std::optional<WorkerEvent> WorkerTally::redisFailed(const Error& e)
{
    const bool connection = isConnectionError(e);
    {
        std::lock_guard lock(m_mutex);
        ++m_counts.connectionErrors;
        if (connection) {
            if (!m_connected)
                return std::nullopt; // one event per outage, not one per thread and retry
            m_connected = false;
            m_counts.connected = false;
        } else {
            // The same refusal again (every thread, every backoff): said once until a claim
            // succeeds. Bounded: a server inventing new texts cannot grow the set.
            if (m_reportedErrors.count(e.what()) || m_reportedErrors.size() >= 16)
                return std::nullopt;
            m_reportedErrors.insert(e.what());
        }
    }
    WorkerEvent event;
    event.kind = connection ? WorkerEvent::Kind::ConnectionLost : WorkerEvent::Kind::Error;
    event.error = e.what();
    return event;
}

} // namespace delayq
