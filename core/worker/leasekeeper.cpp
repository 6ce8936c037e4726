#include "worker/leasekeeper.h"

#include "transport/reconnectbackoff.h"
#include "transport/sigpipeblock.h"
#include "worker/workercontext.h"
#include "worker/worksource.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <algorithm>
#include <map>
#include <vector>

namespace delayq {

using std::chrono::milliseconds;

LeaseKeeper::LeaseKeeper(WorkerContext& context) : m_context(context) {}

void LeaseKeeper::hold(const ClaimResult& claim)
{
    if (claim.tasks.empty())
        return;
    const auto now = Clock::now();
    {
        std::lock_guard lock(m_mutex);
        for (const auto& t : claim.tasks) {
            Held h;
            h.attempt = t.attempts;
            h.due = t.due;
            h.leaseMs = std::max(1LL, t.leaseDeadline - claim.serverNow);
            h.nextExtend = now + milliseconds(std::max(1LL, h.leaseMs / 3));
            m_held[{t.id, t.token}] = h;
        }
    }
    m_newHold = true;
    m_context.nudgeRenewals();
}

bool LeaseKeeper::startRunning(const ClaimedTask& task)
{
    return advance(task, Held::State::Running);
}

bool LeaseKeeper::startFinishing(const ClaimedTask& task)
{
    return advance(task, Held::State::Finishing);
}

bool LeaseKeeper::advance(const ClaimedTask& task, Held::State state)
{
    std::lock_guard lock(m_mutex);
    auto it = m_held.find({task.id, task.token});
    if (it == m_held.end() || it->second.state == Held::State::Released)
        return false;
    it->second.state = state;
    return true;
}

void LeaseKeeper::forget(const ClaimedTask& task)
{
    std::lock_guard lock(m_mutex);
    m_held.erase({task.id, task.token});
}

void LeaseKeeper::releaseIfHeld(Queue& queue, const ClaimedTask& task, long long lateness,
                                const char* why)
{
    {
        std::lock_guard lock(m_mutex);
        auto it = m_held.find({task.id, task.token});
        if (it == m_held.end() || it->second.state == Held::State::Released)
            return;
        it->second.state = Held::State::Released;
    }
    release(queue, task, lateness, why);
}

void LeaseKeeper::release(Queue& queue, const ClaimedTask& task, long long lateness,
                          const char* why)
{
    WorkerEvent event = WorkSource::releasedEvent(task, lateness, why);
    try {
        // No delay: another worker may run it at once. The attempt it used still counts.
        NackResult r = queue.nack(task.id, task.token, std::string("released unrun: ") + why, 0);
        if (r.dead)
            event.outcome = TaskOutcome::Dead;
        event.retryAt = r.when;
    } catch (const Error& e) {
        // Lease lost or Redis away: the reaper takes it back when the lease runs out.
        if (e.code() == ErrorCode::LeaseLost)
            event.outcome = TaskOutcome::LeaseLost;
    }
    event.finished = queue.connection().serverNowMs();
    forget(task);
    m_context.taskFinished(event);
}

void LeaseKeeper::releaseAll(Queue& queue)
{
    // Waiting and running tasks are handed back here, so a stuck handler or a dead worker
    // thread does not keep them; their worker thread discards its result later.
    std::vector<ClaimedTask> toRelease;
    {
        std::lock_guard lock(m_mutex);
        for (auto& [key, h] : m_held) {
            if (h.state == Held::State::Waiting || h.state == Held::State::Running) {
                h.state = Held::State::Released;
                ClaimedTask task;
                task.id = key.first;
                task.token = key.second;
                task.attempts = h.attempt;
                task.due = h.due;
                toRelease.push_back(std::move(task));
            }
        }
    }
    for (const auto& task : toRelease)
        release(queue, task, 0, "the worker was stopped at once");
}

void LeaseKeeper::renew(Queue& queue)
{
    // The renewals due, by lease length (one per worker in practice), each group pipelined:
    // one round trip renews a whole hand.
    const auto now = Clock::now();
    std::map<long long, std::vector<std::pair<std::string, std::string>>> due;
    {
        std::lock_guard lock(m_mutex);
        for (auto& [key, h] : m_held)
            if (!h.lost && h.state != Held::State::Released && h.nextExtend <= now)
                due[h.leaseMs].push_back(key);
    }
    for (const auto& [leaseMs, idTokens] : due) {
        // The next renewal counts from the send, not the reply: Redis extended the lease
        // from a moment after the send, so a slow reply does not push the next one late.
        const auto sent = Clock::now();
        const auto deadlines = queue.extend(idTokens, leaseMs);
        std::lock_guard lock(m_mutex);
        for (size_t i = 0; i < idTokens.size(); ++i) {
            auto it = m_held.find(idTokens[i]);
            if (it == m_held.end())
                continue;
            it->second.lost = !deadlines[i].has_value();
            it->second.nextExtend = sent + milliseconds(std::max(1LL, leaseMs / 3));
        }
    }
}

LeaseKeeper::Clock::time_point LeaseKeeper::nextRenewal()
{
    auto next = Clock::time_point::max();
    std::lock_guard lock(m_mutex);
    for (const auto& [key, h] : m_held)
        if (!h.lost && h.state != Held::State::Released)
            next = std::min(next, h.nextExtend);
    return next;
}

LeaseKeeper::Clock::duration LeaseKeeper::retryDelay(Clock::duration backoff)
{
    long long shortest = 0;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [key, h] : m_held)
            if (!h.lost && h.state != Held::State::Released)
                shortest = shortest == 0 ? h.leaseMs : std::min(shortest, h.leaseMs);
    }
    if (shortest == 0)
        return backoff;
    return std::min(backoff, Clock::duration(milliseconds(std::max(10LL, shortest / 6))));
}

void LeaseKeeper::run()
{
    // SIGPIPE blocked for the thread's whole life, as on the worker threads.
    const SigpipeBlock noSigpipe;
    const WorkerOptions& options = m_context.options();
    // A connection for renewals alone: on a slow link a reap, a schedule tick or a heartbeat
    // is several round trips, a claim or an ack of a big hand more, and a renewal queued
    // behind them on a shared connection could arrive after its lease ran out (tst_faults
    // renewalsDoNotWaitForReaps: a reap turn of ten calls outlasted a 1.5 s lease).
    Connection connection(options.connection);
    Queue queue(connection, options.queue, options.prefix);
    ReconnectBackoff backoff(options.maxReconnectDelay);
    bool releasedAll = false;
    const auto abortPending = [&] { return m_context.aborting() && !releasedAll; };
    const auto wakeUp = [&] { return abortPending() || m_newHold.load(); };
    while (m_context.workersRunning()) {
        Clock::time_point until;
        try {
            // Connected ahead of the first renewal, and again after an error: a connect is
            // several round trips, which the renewal due next should not wait for.
            connection.connect();
            if (abortPending()) {
                releaseAll(queue);
                releasedAll = true;
            }
            // Cleared before the renewals are read: a hold after this wakes the sleep below,
            // one before it is in nextRenewal().
            m_newHold = false;
            renew(queue);
            backoff.reset();
            // No polling: asleep until the earliest renewal due, or a new hold (a second at
            // most, which costs nothing: no renewal due, no call).
            until = std::min(nextRenewal(), Clock::now() + std::chrono::seconds(1));
        } catch (const Error& e) {
            m_context.reportError(e);
            until = Clock::now() + retryDelay(backoff.next());
        }
        m_context.sleepWhileWorking(until, wakeUp);
    }
}

} // namespace delayq
