#include "worker.h"

#include "connection.h"
#include "error.h"
#include "leasekeeper.h"
#include "plainqueue.h"
#include "queue.h"
#include "reconnectbackoff.h"
#include "sigpipeblock.h"
#include "subscriber.h"
#include "workercontext.h"

#include <algorithm>
#include <deque>
#include <thread>

namespace delayq {

const char* taskOutcomeName(TaskOutcome outcome)
{
    switch (outcome) {
    case TaskOutcome::Acked:
        return "acked";
    case TaskOutcome::Retried:
        return "retried";
    case TaskOutcome::Dead:
        return "dead";
    case TaskOutcome::LeaseLost:
        return "lease_lost";
    case TaskOutcome::Abandoned:
        return "abandoned";
    case TaskOutcome::Released:
        return "released";
    case TaskOutcome::Dropped:
        return "dropped";
    }
    return "?";
}

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

} // namespace

class Worker::Private
{
public:
    Private(WorkerOptions o, Handler h, WorkerEventCallback e)
        : context(std::move(o), std::move(h), std::move(e)), options(context.options()),
          leases(context)
    {}

    // One finished task waiting for its ack or nack to reach Redis.
    struct Finish
    {
        ClaimedTask task;
        HandlerResult result;
        WorkerEvent event;
        Clock::time_point since;
    };

    void workerLoop(int index);
    void subscriberLoop();

    bool runOne(Connection& connection, std::deque<ClaimedTask>& waiting,
                std::deque<Finish>& finishing, long long claimNow);
    void flush(Queue& queue, std::deque<Finish>& finishing);
    // Plain mode: a pop in the shape of a claim; results recorded; members put back unrun.
    ClaimResult pop(PlainQueue& plain, int want);
    void flushPlain(PlainQueue& plain, Connection& connection, std::deque<Finish>& finishing);
    void putBack(PlainQueue& plain, Connection& connection, const ClaimedTask& task,
                 long long lateness, const char* why);
    bool plainMode() const { return !options.plainKey.empty(); }

    WorkerContext context;
    const WorkerOptions& options;
    LeaseKeeper leases;
    std::vector<std::thread> threads;
};

void Worker::Private::flush(Queue& queue, std::deque<Finish>& finishing)
{
    // Acks go in one script call; nacks one by one. Each leaves the list once Redis has it,
    // so a failed flush is simply repeated after the reconnect.
    std::vector<std::pair<std::string, std::string>> acks;
    for (const auto& f : finishing)
        if (f.result.kind == HandlerResult::Kind::Ack)
            acks.emplace_back(f.task.id, f.task.token);
    std::vector<bool> acked;
    if (!acks.empty())
        acked = queue.ack(acks);
    const long long now = queue.connection().serverNowMs();
    size_t ackIndex = 0;
    while (!finishing.empty()) {
        Finish& f = finishing.front();
        WorkerEvent& event = f.event;
        if (f.result.kind == HandlerResult::Kind::Ack) {
            event.outcome = acked[ackIndex++] ? TaskOutcome::Acked : TaskOutcome::LeaseLost;
        } else {
            try {
                NackResult r =
                    queue.nack(f.task.id, f.task.token, f.result.error, f.result.retryDelayMs);
                event.outcome = r.dead ? TaskOutcome::Dead : TaskOutcome::Retried;
                event.retryAt = r.dead ? 0 : r.when;
            } catch (const Error& e) {
                if (e.code() != ErrorCode::LeaseLost) {
                    // The acks already done must not be sent again.
                    finishing.erase(std::remove_if(finishing.begin(), finishing.end(),
                                                   [](const Finish& x) {
                                                       return x.result.kind ==
                                                              HandlerResult::Kind::Ack;
                                                   }),
                                    finishing.end());
                    throw;
                }
                event.outcome = TaskOutcome::LeaseLost;
            }
        }
        event.finished = now;
        leases.forget(f.task.id);
        WorkerEvent done = std::move(event);
        finishing.pop_front();
        context.taskFinished(done);
    }
}

bool Worker::Private::runOne(Connection& connection, std::deque<ClaimedTask>& waiting,
                             std::deque<Finish>& finishing, long long claimNow)
{
    ClaimedTask task = std::move(waiting.front());
    waiting.pop_front();
    if (!plainMode() && !leases.startRunning(task.id))
        return false; // handed back by an abort
    WorkerEvent event;
    event.id = task.id;
    event.attempt = task.attempts;
    event.due = task.due;
    event.lateness = std::max(0LL, claimNow - task.due);
    event.started = connection.serverNowMs(); // the local clock plus the measured offset
    HandlerResult result = context.runHandler(task);
    event.error = result.error;
    if (!plainMode()) {
        if (context.aborting()) {
            // stopNow() discards the result of a handler that was running; the maintenance
            // thread may not have handed the task back yet, so do it here (once: the state
            // in the LeaseKeeper decides who does).
            Queue queue(connection, options.queue, options.prefix);
            leases.releaseIfHeld(queue, task, event.lateness, "the worker was stopped at once");
            return false;
        }
        if (!leases.startFinishing(task.id))
            return false;
    }
    if (result.kind == HandlerResult::Kind::Fail)
        context.tally().handlerFailed();
    if (result.kind == HandlerResult::Kind::Abandon) {
        leases.forget(task.id); // no more renewals: the lease runs out
        event.outcome = TaskOutcome::Abandoned;
        context.taskFinished(event);
        return true;
    }
    finishing.push_back({std::move(task), std::move(result), std::move(event), Clock::now()});
    return true;
}

ClaimResult Worker::Private::pop(PlainQueue& plain, int want)
{
    PlainQueue::PopResult popped = plain.pop(want, options.forwardTo);
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

void Worker::Private::flushPlain(PlainQueue& plain, Connection& connection,
                                 std::deque<Finish>& finishing)
{
    // The pop already removed every member: a success needs no ack. A failure is gone unless
    // a retry was asked for; a member that fails to go back stays first in the list, so the
    // flush repeated after a reconnect does it again (NX makes that harmless).
    while (!finishing.empty()) {
        Finish& f = finishing.front();
        WorkerEvent& event = f.event;
        event.outcome = TaskOutcome::Acked;
        if (f.result.kind == HandlerResult::Kind::Fail) {
            event.outcome = TaskOutcome::Dropped;
            if (options.plainRetryMs >= 0) {
                const long long at = connection.serverNowMs() + options.plainRetryMs;
                if (!plain.push({f.task.payload}, at).front())
                    event.error += " (pushed again meanwhile: that due time is kept)";
                event.outcome = TaskOutcome::Retried;
                event.retryAt = at;
            }
        }
        event.finished = connection.serverNowMs();
        WorkerEvent done = std::move(event);
        finishing.pop_front();
        context.taskFinished(done);
    }
}

void Worker::Private::putBack(PlainQueue& plain, Connection& connection, const ClaimedTask& task,
                              long long lateness, const char* why)
{
    WorkerEvent event;
    event.id = task.id;
    event.attempt = task.attempts;
    event.due = task.due;
    event.lateness = lateness;
    event.outcome = TaskOutcome::Released;
    event.error = why;
    if (!options.forwardTo.empty()) {
        // The pop already handed it to the list: putting it back would deliver it twice.
        event.outcome = TaskOutcome::Dropped;
        event.error += "; it was already forwarded, so it is not put back";
    } else {
        try {
            // At its old due time, so it is first in line for the next consumer.
            plain.push({task.payload}, task.due);
            event.retryAt = task.due;
        } catch (const Error& e) {
            event.outcome = TaskOutcome::Dropped;
            event.error += std::string("; putting it back failed: ") + e.what();
        }
    }
    event.finished = connection.serverNowMs();
    context.taskFinished(event);
}

void Worker::Private::workerLoop(int index)
{
    // SIGPIPE stays blocked for the thread's whole life, the handler's own writes included,
    // not only around Connection's I/O: a peer that went away is an EPIPE, not a dead host.
    const SigpipeBlock noSigpipe;
    Connection connection(options.connection);
    std::optional<Queue> queue;
    std::unique_ptr<PlainQueue> plain; // made in the loop: it asks Redis for the key's type
    if (!plainMode())
        queue.emplace(connection, options.queue, options.prefix);
    const std::string threadName = context.name() + "#" + std::to_string(index);
    std::deque<ClaimedTask> waiting; // claimed, handler not run yet
    std::deque<Finish> finishing;    // handler done, ack/nack not yet in Redis
    long long claimNow = 0;
    ReconnectBackoff backoff(options.maxReconnectDelay);
    Clock::time_point stopDeadline{};
    bool emptyRepeat = false;
    auto flushFinished = [&] {
        if (plainMode())
            flushPlain(*plain, connection, finishing); // finishing implies a pop, so a key
        else
            flush(*queue, finishing);
    };
    auto giveBack = [&](const ClaimedTask& t, const char* why) {
        const long long lateness = std::max(0LL, claimNow - t.due);
        if (!plainMode())
            leases.releaseIfHeld(*queue, t, lateness, why);
        else if (plain)
            putBack(*plain, connection, t, lateness, why);
    };

    for (;;) {
        if (context.aborting())
            break;
        if (context.stopping() && stopDeadline == Clock::time_point{})
            stopDeadline = Clock::now() + options.stopTimeout;
        try {
            if (plainMode() && !plain)
                plain =
                    std::make_unique<PlainQueue>(connection, options.plainKey, options.plainUnit);
            const bool ackDue =
                !finishing.empty() &&
                (waiting.empty() || finishing.size() >= static_cast<size_t>(options.batch) ||
                 Clock::now() - finishing.front().since > milliseconds(20) ||
                 finishing.back().result.kind != HandlerResult::Kind::Ack);
            if (ackDue)
                flushFinished();
            backoff.reset();
            if (!waiting.empty()) {
                if (context.stopping() && Clock::now() >= stopDeadline) {
                    while (!waiting.empty()) {
                        ClaimedTask t = std::move(waiting.front());
                        waiting.pop_front();
                        giveBack(t, "the worker stopped before running it");
                    }
                    continue;
                }
                runOne(connection, waiting, finishing, claimNow);
                continue;
            }
            if (!finishing.empty())
                continue;
            if (context.stopping())
                break;
            const long long want = context.reserveBudget(options.batch);
            if (want == 0) {
                context.requestStop(); // maxTasks reached
                break;
            }
            const long long activityBefore = context.tally().claimSent();
            const uint64_t generation = context.wakeGeneration();
            ClaimResult claim;
            try {
                claim = plainMode()
                            ? pop(*plain, static_cast<int>(want))
                            : queue->claim(static_cast<int>(want), options.leaseMs, threadName);
            } catch (...) {
                context.returnBudget(want);
                context.tally().claimFailed();
                throw;
            }
            context.reportOk();
            context.returnBudget(want - static_cast<long long>(claim.tasks.size()));
            claimNow = claim.serverNow;
            if (claim.tasks.empty()) {
                const auto empty = context.tally().claimCameBackEmpty(activityBefore);
                // Nothing pending at all (later tasks and retries are waited for), nothing
                // in hand that could still be retried; a paused queue would never empty.
                if (options.untilEmpty && (!claim.nextDue || claim.paused)) {
                    if (empty.conclusive) {
                        context.requestStop();
                        break;
                    }
                    // Overlapping with another thread's claim: look again shortly. Tasks in
                    // hand elsewhere wake this thread when the last one ends.
                    if (!empty.othersBusy) {
                        context.sleepUntil(Clock::now() + milliseconds(10), &generation);
                        continue;
                    }
                }
                long long sleepMs = options.pollInterval.count();
                if (!claim.paused && claim.nextDue)
                    sleepMs = std::clamp(*claim.nextDue - claim.serverNow, 0LL, sleepMs);
                // Due now but taken by another thread in between: look again, but never spin.
                if (sleepMs == 0 && emptyRepeat)
                    sleepMs = 1;
                emptyRepeat = sleepMs == 0;
                if (sleepMs > 0)
                    context.sleepUntil(Clock::now() + milliseconds(sleepMs), &generation);
                continue;
            }
            emptyRepeat = false;
            if (!plainMode())
                leases.hold(claim);
            context.tally().claimed(claim);
            for (auto& t : claim.tasks)
                waiting.push_back(std::move(t));
        } catch (const Error& e) {
            context.reportError(e);
            if (context.stopping() && Clock::now() >= stopDeadline)
                break; // Redis is away: held tasks come back when their leases run out
            context.sleepUntil(Clock::now() + backoff.next(), nullptr);
        }
    }

    // Stopped at once, or Redis away at the stop deadline: one attempt each to record what
    // is done and hand back what is not; what fails comes back when its lease runs out.
    try {
        if (!finishing.empty())
            flushFinished();
    } catch (const Error&) {
    }
    for (const auto& t : waiting)
        giveBack(t, "the worker stopped");
    if (!finishing.empty()) {
        for (const auto& f : finishing)
            leases.forget(f.task.id);
        context.tasksDropped(static_cast<long long>(finishing.size()));
    }
    context.workerEnded();
}

void Worker::Private::subscriberLoop()
{
    // SIGPIPE blocked for the thread's whole life, as on the worker threads.
    const SigpipeBlock noSigpipe;
    const std::string channel = Keys(options.prefix, options.queue).wake();
    ReconnectBackoff backoff(options.maxReconnectDelay);
    Subscriber& subscriber = context.subscriber();
    bool subscribed = false;
    while (!context.stopping()) {
        try {
            if (!subscribed) {
                subscriber.subscribe(channel);
                subscribed = true;
                backoff.reset();
                context.wakeAll(); // messages sent while away are lost: every thread looks once
            }
            if (subscriber.waitMessage(options.pollInterval))
                context.wakeAll();
        } catch (const Error& e) {
            subscribed = false;
            context.reportError(e);
            context.sleepUntil(Clock::now() + backoff.next(), nullptr);
        }
    }
    subscriber.disconnect();
}

Worker::Worker(WorkerOptions options, Handler handler, WorkerEventCallback onEvent)
    : m_d(std::make_unique<Private>(std::move(options), std::move(handler), std::move(onEvent)))
{}

Worker::~Worker()
{
    stopNow();
}

const WorkerOptions& Worker::options() const
{
    return m_d->options;
}

const std::string& Worker::name() const
{
    return m_d->context.name();
}

bool Worker::start()
{
    const WorkerOptions& o = m_d->options;
    if (o.plainKey.empty())
        Keys keys(o.prefix, o.queue); // validates both
    else if (o.plainKey.size() > 4096)
        throw Error(ErrorCode::InvalidArgument, "a plain queue key must be 1 to 4096 bytes");
    if (!o.forwardTo.empty() && o.plainKey.empty())
        throw Error(ErrorCode::InvalidArgument, "forwarding applies to plain queues only");
    if (o.concurrency < 1 || o.concurrency > 256)
        throw Error(ErrorCode::InvalidArgument, "concurrency must be 1 to 256 threads");
    if (o.batch < 1 || o.batch > 1000)
        throw Error(ErrorCode::InvalidArgument, "the batch must be 1 to 1000 tasks");
    if (o.leaseMs != 0 && o.leaseMs < 300)
        throw Error(ErrorCode::InvalidArgument,
                    "the lease must be at least 300 ms (or 0 for the queue's lease_ms)");
    if (o.pollInterval.count() < 10)
        throw Error(ErrorCode::InvalidArgument, "the poll interval must be at least 10 ms");
    if (o.reapBatch < 1 || o.reapBatch > 1000)
        throw Error(ErrorCode::InvalidArgument, "the reap batch must be 1 to 1000 tasks");
    if (!m_d->context.hasHandler())
        throw Error(ErrorCode::InvalidArgument, "the worker has no handler");
    if (isRunning())
        return false;
    for (auto& t : m_d->threads)
        if (t.joinable())
            t.join();
    m_d->threads.clear();

    m_d->context.reset();
    for (int i = 0; i < o.concurrency; ++i)
        m_d->threads.emplace_back([this, i] { m_d->workerLoop(i); });
    // A plain key has no leases to renew or reap and no wake channel: its threads sleep
    // until the next due time the pop reported, or the poll interval.
    if (o.plainKey.empty()) {
        m_d->threads.emplace_back([this] { m_d->leases.run(); });
        m_d->threads.emplace_back([this] { m_d->subscriberLoop(); });
    }
    return true;
}

void Worker::requestStop()
{
    if (m_d->threads.empty())
        return;
    m_d->context.requestStop();
}

void Worker::stop()
{
    if (m_d->threads.empty())
        return;
    requestStop();
    // The worker threads get stopTimeout to finish; a little more to hand back what is left.
    if (!wait(m_d->options.stopTimeout + milliseconds(2000)))
        stopNow();
    for (auto& t : m_d->threads)
        if (t.joinable())
            t.join();
    m_d->threads.clear();
}

void Worker::stopNow()
{
    if (m_d->threads.empty())
        return;
    m_d->context.requestStop(true);
    for (auto& t : m_d->threads)
        if (t.joinable())
            t.join();
    m_d->threads.clear();
}

bool Worker::isRunning() const
{
    return m_d->context.workersRunning();
}

bool Worker::wait(std::chrono::milliseconds timeout)
{
    return m_d->context.waitForWorkers(timeout);
}

bool Worker::abortRequested() const
{
    return m_d->context.aborting();
}

WorkerCounters Worker::counters() const
{
    return m_d->context.tally().counters();
}

} // namespace delayq
