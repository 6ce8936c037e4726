#include "worker/nativeworksource.h"

#include "worker/leasekeeper.h"
#include "worker/workercontext.h"
#include <delayq/error.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace delayq {

NativeWorkSource::NativeWorkSource(WorkerContext& context, LeaseKeeper& leases,
                                   Connection& connection, std::string threadName)
    : m_context(context), m_leases(leases),
      m_queue(connection, context.options().queue, context.options().prefix),
      m_threadName(std::move(threadName))
{}

ClaimResult NativeWorkSource::take(int want)
{
    // Checked against the queue's shards once, on the first claim (it reads the layout).
    if (!m_shardsChosen) {
        m_queue.setClaimShards(m_context.options().claimShards);
        m_shardsChosen = true;
    }
    want = std::min(want, capShare());
    ClaimResult claim = m_queue.claim(want, m_context.options().leaseMs, m_threadName);
    m_leases.hold(claim);
    return claim;
}

int NativeWorkSource::capShare()
{
    // Read again every few seconds: an operator's change of the cap takes effect that soon.
    const auto now = std::chrono::steady_clock::now();
    if (m_capReadAt == std::chrono::steady_clock::time_point{} ||
        now - m_capReadAt > std::chrono::seconds(5)) {
        const QueueConfig config = m_queue.config();
        m_cap = config.cap;
        m_groupCap = config.groupCap;
        m_capReadAt = now;
    }
    // Under a group cap, a second task in a thread's hand could be of a group whose slot it
    // holds: it would wait for the first, and the group's turn would pass to no one.
    if (m_groupCap > 0)
        return 1;
    if (m_cap <= 0)
        return 1000;
    // Under a cap, a task claimed but waiting in a thread's hand holds a slot another thread
    // (or process) could run it in: claim no more than a fair part of the cap per thread.
    const long long threads = std::max(1, m_context.options().concurrency);
    return static_cast<int>(std::max(1LL, m_cap / (2 * threads)));
}

bool NativeWorkSource::beginRun(const ClaimedTask& task)
{
    return m_leases.startRunning(task);
}

bool NativeWorkSource::endRun(const ClaimedTask& task, long long lateness)
{
    if (m_context.aborting()) {
        // stopNow() discards the result of a handler that was running; the renewal
        // thread may not have handed the task back yet, so do it here (once: the state
        // in the LeaseKeeper decides who does).
        m_leases.releaseIfHeld(m_queue, task, lateness, "the worker was stopped at once");
        return false;
    }
    return m_leases.startFinishing(task);
}

void NativeWorkSource::flush(std::deque<FinishedTask>& finishing)
{
    // Acks go in one script call; nacks one by one.
    std::vector<std::pair<std::string, std::string>> acks;
    for (const auto& f : finishing)
        if (f.result.kind == HandlerResult::Kind::Ack)
            acks.emplace_back(f.task.id, f.task.token);
    std::vector<bool> acked;
    if (!acks.empty())
        acked = m_queue.ack(acks);
    const long long now = m_queue.connection().serverNowMs();
    size_t ackIndex = 0;
    while (!finishing.empty()) {
        FinishedTask& f = finishing.front();
        if (f.result.kind == HandlerResult::Kind::Ack)
            f.event.outcome = acked[ackIndex++] ? TaskOutcome::Acked : TaskOutcome::LeaseLost;
        else
            nack(f, finishing);
        f.event.finished = now;
        m_leases.forget(f.task);
        WorkerEvent done = std::move(f.event);
        finishing.pop_front();
        m_context.taskFinished(done);
    }
}

void NativeWorkSource::nack(FinishedTask& f, std::deque<FinishedTask>& finishing)
{
    try {
        const long long delay = f.result.kind == HandlerResult::Kind::Dead ? Queue::kNackDeadNow
                                                                           : f.result.retryDelayMs;
        NackResult r = m_queue.nack(f.task.id, f.task.token, f.result.error, delay);
        f.event.outcome = r.dead ? TaskOutcome::Dead : TaskOutcome::Retried;
        f.event.retryAt = r.dead ? 0 : r.when;
        if (r.dead && m_died)
            m_died(f.task, f.result.error);
    } catch (const Error& e) {
        if (e.code() != ErrorCode::LeaseLost) {
            // The acks already done must not be sent again.
            finishing.erase(std::remove_if(finishing.begin(), finishing.end(),
                                           [](const FinishedTask& x) {
                                               return x.result.kind == HandlerResult::Kind::Ack;
                                           }),
                            finishing.end());
            throw;
        }
        f.event.outcome = TaskOutcome::LeaseLost;
    }
}

void NativeWorkSource::giveBack(const ClaimedTask& task, long long lateness, const char* why)
{
    m_leases.releaseIfHeld(m_queue, task, lateness, why);
}

void NativeWorkSource::forget(const ClaimedTask& task)
{
    m_leases.forget(task);
}

std::optional<long long> NativeWorkSource::reapAndFindActive()
{
    const ReapResult r = m_queue.reap(m_context.options().reapBatch);
    m_context.tally().reaped(r.requeued + r.dead);
    if (r.requeued > 0)
        return 0; // due now: claim them
    return m_queue.earliest(TaskSet::Active);
}

} // namespace delayq
