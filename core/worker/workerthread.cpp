#include "worker/workerthread.h"

#include "transport/sigpipeblock.h"
#include "worker/leasekeeper.h"
#include "worker/nativeworksource.h"
#include "worker/plainworksource.h"
#include "worker/workercontext.h"
#include <delayq/delivery.h>
#include <delayq/error.h>

#include <algorithm>
#include <string>

namespace delayq {

using std::chrono::milliseconds;

WorkerThread::WorkerThread(WorkerContext& context, LeaseKeeper& leases, int index)
    : m_context(context), m_leases(leases), m_index(index),
      m_connection(context.options().connection), m_backoff(context.options().maxReconnectDelay),
      m_batch(context.options().batch, context.options().maxBatch)
{}

WorkerThread::~WorkerThread() = default;

void WorkerThread::run()
{
    // SIGPIPE stays blocked for the thread's whole life, the handler's own writes included,
    // not only around Connection's I/O: a peer that went away is an EPIPE, not a dead host.
    const SigpipeBlock noSigpipe;
    if (m_context.options().plainKey.empty())
        m_source = std::make_unique<NativeWorkSource>(
            m_context, m_leases, m_connection, m_context.name() + "#" + std::to_string(m_index));
    else
        m_source = std::make_unique<PlainWorkSource>(m_context, m_connection);
    while (turn()) {
    }
    finishUp();
    m_context.workerEnded();
}

bool WorkerThread::turn()
{
    if (m_context.aborting())
        return false;
    if (m_context.stopping() && m_stopDeadline == Clock::time_point{})
        m_stopDeadline = Clock::now() + m_context.options().stopTimeout;
    try {
        return work();
    } catch (const Error& e) {
        m_context.reportError(e);
        if (m_context.stopping() && Clock::now() >= m_stopDeadline)
            return false; // Redis is away: held tasks come back when their leases run out
        m_context.sleepUntil(Clock::now() + m_backoff.next(), nullptr);
        return true;
    }
}

bool WorkerThread::work()
{
    m_source->prepare();
    if (!m_delivery && m_context.hasDelivery()) {
        m_delivery = m_context.makeDelivery(m_index);
        m_source->setDiedCallback([this](const ClaimedTask& task, const std::string& error) {
            m_delivery->died(task, error);
        });
    }
    if (flushDue())
        m_source->flush(m_finishing);
    m_backoff.reset();
    if (!m_waiting.empty()) {
        if (m_context.stopping() && Clock::now() >= m_stopDeadline)
            giveBackWaiting("the worker stopped before running it");
        else if (m_delivery)
            deliverWaiting();
        else
            runOne();
        if (m_waiting.empty())
            m_handRun = Clock::now();
        return true;
    }
    if (!m_finishing.empty())
        return true;
    if (m_context.stopping())
        return false;
    return takeMore();
}

bool WorkerThread::flushDue() const
{
    // Outcomes wait to go together, but not past a batch, 20 ms, the last task in hand, or a
    // failure (a nack goes alone anyway).
    return !m_finishing.empty() &&
           (m_waiting.empty() || m_finishing.size() >= static_cast<size_t>(m_batch.next()) ||
            Clock::now() - m_finishing.front().since > milliseconds(20) ||
            m_finishing.back().result.kind != HandlerResult::Kind::Ack);
}

void WorkerThread::runOne()
{
    ClaimedTask task = std::move(m_waiting.front());
    m_waiting.pop_front();
    WorkerEvent event;
    if (!beginTask(task, event))
        return; // handed back by an abort
    HandlerResult result = m_context.runHandler(task);
    endTask(std::move(task), std::move(event), std::move(result));
}

void WorkerThread::deliverWaiting()
{
    std::vector<ClaimedTask> tasks;
    std::vector<WorkerEvent> events;
    while (!m_waiting.empty()) {
        ClaimedTask task = std::move(m_waiting.front());
        m_waiting.pop_front();
        WorkerEvent event;
        if (!beginTask(task, event))
            continue;
        tasks.push_back(std::move(task));
        events.push_back(std::move(event));
    }
    if (tasks.empty())
        return;
    std::vector<HandlerResult> results = m_context.deliver(*m_delivery, tasks);
    for (size_t i = 0; i < tasks.size(); ++i)
        endTask(std::move(tasks[i]), std::move(events[i]), std::move(results[i]));
}

bool WorkerThread::beginTask(const ClaimedTask& task, WorkerEvent& event)
{
    if (!m_source->beginRun(task))
        return false;
    event.id = task.id;
    event.attempt = task.attempts;
    event.due = task.due;
    event.lateness = std::max(0LL, m_claimNow - task.due);
    event.started = m_connection.serverNowMs(); // the local clock plus the measured offset
    return true;
}

void WorkerThread::endTask(ClaimedTask task, WorkerEvent event, HandlerResult result)
{
    event.error = result.error;
    if (!m_source->endRun(task, event.lateness))
        return;
    if (result.kind == HandlerResult::Kind::Fail || result.kind == HandlerResult::Kind::Dead)
        m_context.tally().handlerFailed();
    if (result.kind == HandlerResult::Kind::Abandon) {
        m_source->forget(task); // no more renewals: the lease runs out
        event.outcome = TaskOutcome::Abandoned;
        m_context.taskFinished(event);
        return;
    }
    m_finishing.push_back({std::move(task), std::move(result), std::move(event), Clock::now()});
}

bool WorkerThread::takeMore()
{
    // A target that asks publishers to wait (a broker's memory alarm): claim nothing more, so
    // tasks stay in Redis instead of piling up in flight. Looked at again every 100 ms.
    if (m_delivery && m_delivery->blocked()) {
        m_context.sleepUntil(Clock::now() + milliseconds(100), nullptr);
        return true;
    }
    const long long want = m_context.reserveBudget(m_batch.next());
    if (want == 0) {
        if (m_context.budgetSpent()) {
            m_context.requestStop(); // maxTasks reached
            return false;
        }
        // Another thread's claim holds the rest of the budget and may give part of it back.
        m_context.sleepUntil(Clock::now() + milliseconds(5), nullptr);
        return true;
    }
    const long long activityBefore = m_context.tally().claimSent();
    const uint64_t generation = m_context.wakeGeneration();
    ClaimResult claim;
    try {
        claim = m_source->take(static_cast<int>(want));
    } catch (...) {
        m_context.settleBudget(want);
        m_context.tally().claimFailed();
        throw;
    }
    m_context.reportOk();
    m_context.settleBudget(want - static_cast<long long>(claim.tasks.size()));
    const bool moreDue = claim.nextDue && *claim.nextDue <= claim.serverNow;
    const auto handTime = m_handRun > m_lastClaim ? m_handRun - m_lastClaim : Clock::duration{};
    m_batch.claimed(static_cast<int>(want), static_cast<int>(claim.tasks.size()), handTime,
                    moreDue);
    m_lastClaim = Clock::now();
    m_claimNow = claim.serverNow;
    if (claim.tasks.empty())
        return sleepAfterEmpty(claim, activityBefore, generation);
    m_emptyRepeat = false;
    m_context.tally().claimed(claim);
    for (auto& t : claim.tasks)
        m_waiting.push_back(std::move(t));
    return true;
}

bool WorkerThread::sleepAfterEmpty(const ClaimResult& claim, long long activityBefore,
                                   uint64_t generation)
{
    const WorkerOptions& options = m_context.options();
    const auto empty = m_context.tally().claimCameBackEmpty(activityBefore);
    // Nothing pending at all (later tasks and retries are waited for), nothing in hand that
    // could still be retried, nothing active elsewhere; a paused queue would never empty.
    if (options.untilEmpty && (!claim.nextDue || claim.paused)) {
        if (empty.conclusive) {
            if (!claim.paused && waitForActive(claim.serverNow, generation))
                return true;
            m_context.requestStop();
            return false;
        }
        // Overlapping with another thread's claim: look again shortly. Tasks in hand
        // elsewhere wake this thread when the last one ends.
        if (!empty.othersBusy) {
            m_context.sleepUntil(Clock::now() + milliseconds(10), &generation);
            return true;
        }
    }
    long long sleepMs = options.pollInterval.count();
    if (!claim.paused && claim.nextDue)
        sleepMs = std::clamp(*claim.nextDue - claim.serverNow, 0LL, sleepMs);
    // Due now but taken by another thread in between: look again, but never spin.
    if (sleepMs == 0 && m_emptyRepeat)
        sleepMs = 1;
    m_emptyRepeat = sleepMs == 0;
    if (sleepMs > 0)
        m_context.sleepUntil(Clock::now() + milliseconds(sleepMs), &generation);
    return true;
}

bool WorkerThread::waitForActive(long long serverNow, uint64_t generation)
{
    // Tasks another worker holds, or held when it died: a lease that ran out is reaped back to
    // pending and claimed at once; a live one is waited for until its deadline (its ack ends
    // the wait at the next poll). Only an empty active set means the queue is empty.
    const std::optional<long long> deadline = m_source->reapAndFindActive();
    if (!deadline)
        return false;
    long long sleepMs =
        std::clamp(*deadline - serverNow, 0LL,
                   static_cast<long long>(m_context.options().pollInterval.count()));
    if (sleepMs == 0 && m_emptyRepeat)
        sleepMs = 1; // left for another reap call: look again, but never spin
    m_emptyRepeat = sleepMs == 0;
    if (sleepMs > 0)
        m_context.sleepUntil(Clock::now() + milliseconds(sleepMs), &generation);
    return true;
}

void WorkerThread::giveBackWaiting(const char* why)
{
    while (!m_waiting.empty()) {
        ClaimedTask t = std::move(m_waiting.front());
        m_waiting.pop_front();
        m_source->giveBack(t, std::max(0LL, m_claimNow - t.due), why);
    }
}

void WorkerThread::finishUp()
{
    // Stopped at once, or Redis away at the stop deadline: one attempt each to record what
    // is done and hand back what is not; what fails comes back when its lease runs out.
    try {
        if (!m_finishing.empty())
            m_source->flush(m_finishing);
    } catch (const Error&) {
    }
    giveBackWaiting("the worker stopped");
    if (!m_finishing.empty()) {
        for (const auto& f : m_finishing)
            m_source->forget(f.task);
        m_context.tasksDropped(static_cast<long long>(m_finishing.size()));
    }
}

} // namespace delayq
