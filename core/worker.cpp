#include "worker.h"

#include "connection.h"
#include "error.h"
#include "plainqueue.h"
#include "queue.h"
#include "reconnectbackoff.h"
#include "sigpipeblock.h"
#include "subscriber.h"
#include "taskid.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <unistd.h>

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

std::string defaultWorkerName()
{
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || !host[0])
        std::snprintf(host, sizeof host, "host");
    return std::string(host) + "-" + std::to_string(::getpid()) + "-" + randomToken(3);
}

// An outage for the worker: unreachable, or refused at the handshake after a restart (a
// changed password): either way it reconnects with backoff rather than reporting each try.
bool isConnectionError(const Error& e)
{
    return e.isUnreachable() || e.code() == ErrorCode::Auth;
}

// A task between claim and its final outcome, shared by its worker thread and the
// maintenance thread (which renews its lease, or hands it back on abort).
struct Held
{
    enum class State
    {
        Waiting,
        Running,
        Finishing,
        Released
    };
    std::string token;
    int attempt = 0;
    long long due = 0;
    long long leaseMs = 0;
    Clock::time_point nextExtend;
    State state = State::Waiting;
    bool lost = false;
};

} // namespace

class Worker::Private
{
public:
    Private(WorkerOptions o, Handler h, WorkerEventCallback e)
        : options(std::move(o)), handler(std::move(h)), onEvent(std::move(e))
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
    void maintenanceLoop();
    void subscriberLoop();

    bool runOne(Connection& connection, std::deque<ClaimedTask>& waiting,
                std::deque<Finish>& finishing, long long claimNow);
    void flush(Queue& queue, std::deque<Finish>& finishing);
    void release(Queue& queue, const ClaimedTask& task, long long due, const char* why);
    void releaseAllHeld(Queue& queue);
    // Hands back a task still waiting in this thread, unless an abort already did.
    void releaseIfHeld(Queue& queue, const ClaimedTask& task, long long lateness, const char* why);
    void heartbeat(Queue& queue);
    // Plain mode: a pop in the shape of a claim; results recorded; members put back unrun.
    ClaimResult pop(PlainQueue& plain, int want);
    void flushPlain(PlainQueue& plain, Connection& connection, std::deque<Finish>& finishing);
    void putBack(PlainQueue& plain, Connection& connection, const ClaimedTask& task,
                 long long lateness, const char* why);
    bool plainMode() const { return !options.plainKey.empty(); }
    void finishTask(const std::string& id);
    void emit(const WorkerEvent& event);
    void reportOk();
    void reportError(const Error& e);
    // Sleeps until `until`, a stop request, or (when `generation` is given) a wake message.
    void sleepUntil(Clock::time_point until, const uint64_t* generation);
    long long reserveBudget(int want);
    void selfStop();

    WorkerOptions options;
    Handler handler;
    WorkerEventCallback onEvent;
    std::string name;

    std::mutex mutex; // guards wakeGeneration and the sleeps
    std::condition_variable cv;
    uint64_t wakeGeneration = 0;
    std::atomic<bool> stopping{false};
    std::atomic<bool> aborting{false};
    std::atomic<int> workersAlive{0};
    std::atomic<long long> budget{0};

    std::vector<std::thread> threads;
    std::unique_ptr<Subscriber> subscriber;

    std::mutex heldMutex;
    std::map<std::string, Held> held;

    // Called with statsMutex held when n tasks reach their final outcome.
    void taskEndedLocked(long long n);
    // The one place an outcome is counted (called with statsMutex held).
    void countOutcomeLocked(TaskOutcome outcome);

    mutable std::mutex statsMutex; // guards the counters and the three below
    // untilEmpty: claims on the wire, and a count of claims and finishes, so a thread can
    // tell that nothing happened elsewhere while its claim came back empty.
    int claimsOutstanding = 0;
    long long activity = 0;
    WorkerCounters counts;
    LatencyHistogram latencies;
    bool connected = true;
    std::set<std::string> reportedErrors; // Error events' texts, until a claim succeeds
};

void Worker::Private::emit(const WorkerEvent& event)
{
    if (!onEvent)
        return;
    try {
        onEvent(event);
    } catch (...) {
        // A throwing callback must not take a worker thread down.
    }
}

void Worker::Private::taskEndedLocked(long long n)
{
    ++activity;
    counts.inFlight -= n;
    if (options.untilEmpty && counts.inFlight == 0) {
        // Threads waiting for the last task in hand look again (a retry, or the end).
        {
            std::lock_guard lock(mutex);
            ++wakeGeneration;
        }
        cv.notify_all();
    }
}

void Worker::Private::reportOk()
{
    {
        std::lock_guard lock(statsMutex);
        reportedErrors.clear();
        if (connected)
            return;
        connected = true;
        counts.connected = true;
    }
    WorkerEvent event;
    event.kind = WorkerEvent::Kind::ConnectionRestored;
    emit(event);
}

void Worker::Private::reportError(const Error& e)
{
    const bool connection = isConnectionError(e);
    {
        std::lock_guard lock(statsMutex);
        ++counts.connectionErrors;
        if (connection) {
            if (!connected)
                return; // one event per outage, not one per thread and retry
            connected = false;
            counts.connected = false;
        } else {
            // The same refusal again (every thread, every backoff): said once until a claim
            // succeeds. Bounded: a server inventing new texts cannot grow the set.
            if (reportedErrors.count(e.what()) || reportedErrors.size() >= 16)
                return;
            reportedErrors.insert(e.what());
        }
    }
    WorkerEvent event;
    event.kind = connection ? WorkerEvent::Kind::ConnectionLost : WorkerEvent::Kind::Error;
    event.error = e.what();
    emit(event);
}

void Worker::Private::sleepUntil(Clock::time_point until, const uint64_t* generation)
{
    std::unique_lock lock(mutex);
    cv.wait_until(lock, until,
                  [&] { return stopping.load() || (generation && wakeGeneration != *generation); });
}

long long Worker::Private::reserveBudget(int want)
{
    if (options.maxTasks <= 0)
        return want;
    long long left = budget.load();
    long long take = 0;
    do {
        take = std::min<long long>(want, left);
        if (take <= 0)
            return 0;
    } while (!budget.compare_exchange_weak(left, left - take));
    return take;
}

void Worker::Private::selfStop()
{
    {
        std::lock_guard lock(mutex);
        stopping = true;
    }
    cv.notify_all();
    if (subscriber)
        subscriber->interrupt();
}

void Worker::Private::finishTask(const std::string& id)
{
    std::lock_guard lock(heldMutex);
    held.erase(id);
}

void Worker::Private::release(Queue& queue, const ClaimedTask& task, long long lateness,
                              const char* why)
{
    WorkerEvent event;
    event.id = task.id;
    event.attempt = task.attempts;
    event.due = task.due;
    event.lateness = lateness;
    event.outcome = TaskOutcome::Released;
    event.error = why;
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
    {
        std::lock_guard lock(statsMutex);
        taskEndedLocked(1);
        countOutcomeLocked(event.outcome);
    }
    finishTask(task.id);
    emit(event);
}

void Worker::Private::releaseIfHeld(Queue& queue, const ClaimedTask& task, long long lateness,
                                    const char* why)
{
    {
        std::lock_guard lock(heldMutex);
        auto it = held.find(task.id);
        if (it == held.end() || it->second.state == Held::State::Released)
            return;
        it->second.state = Held::State::Released;
    }
    release(queue, task, lateness, why);
}

void Worker::Private::releaseAllHeld(Queue& queue)
{
    // Waiting and running tasks are handed back here, so a stuck handler or a dead worker
    // thread does not keep them; their worker thread discards its result later.
    std::vector<ClaimedTask> toRelease;
    {
        std::lock_guard lock(heldMutex);
        for (auto& [id, h] : held) {
            if (h.state == Held::State::Waiting || h.state == Held::State::Running) {
                h.state = Held::State::Released;
                ClaimedTask task;
                task.id = id;
                task.token = h.token;
                task.attempts = h.attempt;
                task.due = h.due;
                toRelease.push_back(std::move(task));
            }
        }
    }
    for (const auto& task : toRelease)
        release(queue, task, 0, "the worker was stopped at once");
}

void Worker::Private::heartbeat(Queue& queue)
{
    const auto now = Clock::now();
    std::vector<std::tuple<std::string, std::string, long long>> due;
    {
        std::lock_guard lock(heldMutex);
        for (auto& [id, h] : held)
            if (!h.lost && h.state != Held::State::Released && h.nextExtend <= now)
                due.emplace_back(id, h.token, h.leaseMs);
    }
    for (const auto& [id, token, leaseMs] : due) {
        bool lost = false;
        try {
            queue.extend(id, token, leaseMs);
        } catch (const Error& e) {
            if (e.code() != ErrorCode::LeaseLost)
                throw;
            lost = true;
        }
        std::lock_guard lock(heldMutex);
        auto it = held.find(id);
        if (it == held.end())
            continue;
        it->second.lost = lost;
        it->second.nextExtend = Clock::now() + milliseconds(std::max(1LL, leaseMs / 3));
    }
}

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
        {
            std::lock_guard lock(statsMutex);
            taskEndedLocked(1);
            countOutcomeLocked(event.outcome);
        }
        finishTask(f.task.id);
        WorkerEvent done = std::move(event);
        finishing.pop_front();
        emit(done);
    }
}

bool Worker::Private::runOne(Connection& connection, std::deque<ClaimedTask>& waiting,
                             std::deque<Finish>& finishing, long long claimNow)
{
    ClaimedTask task = std::move(waiting.front());
    waiting.pop_front();
    if (!plainMode()) {
        std::lock_guard lock(heldMutex);
        auto it = held.find(task.id);
        if (it == held.end() || it->second.state == Held::State::Released)
            return false; // handed back by an abort
        it->second.state = Held::State::Running;
    }
    WorkerEvent event;
    event.id = task.id;
    event.attempt = task.attempts;
    event.due = task.due;
    event.lateness = std::max(0LL, claimNow - task.due);
    event.started = connection.serverNowMs(); // the local clock plus the measured offset
    HandlerResult result;
    try {
        result = handler(task);
    } catch (const std::exception& e) {
        result = HandlerResult::fail(std::string("handler threw: ") + e.what());
    } catch (...) {
        result = HandlerResult::fail("handler threw an unknown exception");
    }
    event.error = result.error;
    if (!plainMode()) {
        if (aborting) {
            // stopNow() discards the result of a handler that was running; the maintenance
            // thread may not have handed the task back yet, so do it here (once: the state
            // under heldMutex decides who does).
            Queue queue(connection, options.queue, options.prefix);
            releaseIfHeld(queue, task, event.lateness, "the worker was stopped at once");
            return false;
        }
        std::lock_guard lock(heldMutex);
        auto it = held.find(task.id);
        if (it == held.end() || it->second.state == Held::State::Released)
            return false;
        it->second.state = Held::State::Finishing;
    }
    if (result.kind == HandlerResult::Kind::Fail) {
        std::lock_guard lock(statsMutex);
        ++counts.failed;
    }
    if (result.kind == HandlerResult::Kind::Abandon) {
        finishTask(task.id); // no more heartbeats: the lease runs out
        event.outcome = TaskOutcome::Abandoned;
        {
            std::lock_guard lock(statsMutex);
            taskEndedLocked(1);
            countOutcomeLocked(event.outcome);
        }
        emit(event);
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

void Worker::Private::countOutcomeLocked(TaskOutcome outcome)
{
    // No default: a new outcome must be given its counter here (-Wswitch says so).
    switch (outcome) {
    case TaskOutcome::Acked:
        ++counts.acked;
        break;
    case TaskOutcome::Retried:
        ++counts.retried;
        break;
    case TaskOutcome::Dead:
    case TaskOutcome::Dropped: // plain: a failed member that is gone counts as dead
        ++counts.dead;
        break;
    case TaskOutcome::LeaseLost:
        ++counts.leaseLost;
        break;
    case TaskOutcome::Abandoned:
        ++counts.abandoned;
        break;
    case TaskOutcome::Released:
        ++counts.released;
        break;
    }
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
        {
            std::lock_guard lock(statsMutex);
            taskEndedLocked(1);
            countOutcomeLocked(event.outcome);
        }
        WorkerEvent done = std::move(event);
        finishing.pop_front();
        emit(done);
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
    {
        std::lock_guard lock(statsMutex);
        taskEndedLocked(1);
        countOutcomeLocked(event.outcome);
    }
    emit(event);
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
    const std::string threadName = name + "#" + std::to_string(index);
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
            releaseIfHeld(*queue, t, lateness, why);
        else if (plain)
            putBack(*plain, connection, t, lateness, why);
    };

    for (;;) {
        if (aborting)
            break;
        if (stopping && stopDeadline == Clock::time_point{})
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
                if (stopping && Clock::now() >= stopDeadline) {
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
            if (stopping)
                break;
            const long long want = reserveBudget(options.batch);
            if (want == 0) {
                selfStop(); // maxTasks reached
                break;
            }
            long long activityBefore = 0;
            {
                std::lock_guard lock(statsMutex);
                ++claimsOutstanding;
                activityBefore = activity;
            }
            uint64_t generation = 0;
            {
                std::lock_guard lock(mutex);
                generation = wakeGeneration;
            }
            ClaimResult claim;
            try {
                claim = plainMode()
                            ? pop(*plain, static_cast<int>(want))
                            : queue->claim(static_cast<int>(want), options.leaseMs, threadName);
            } catch (...) {
                if (options.maxTasks > 0)
                    budget += want;
                std::lock_guard lock(statsMutex);
                --claimsOutstanding;
                throw;
            }
            reportOk();
            if (options.maxTasks > 0)
                budget += want - static_cast<long long>(claim.tasks.size());
            claimNow = claim.serverNow;
            if (claim.tasks.empty()) {
                bool empty = false;
                bool othersBusy = false;
                {
                    std::lock_guard lock(statsMutex);
                    // Conclusive only if no task is in hand, no other claim overlapped this
                    // one and nothing ended meanwhile (a nack may have put a retry back).
                    empty = counts.inFlight == 0 && claimsOutstanding == 1 &&
                            activity == activityBefore;
                    othersBusy = counts.inFlight > 0;
                    --claimsOutstanding;
                }
                // Nothing pending at all (later tasks and retries are waited for), nothing
                // in hand that could still be retried; a paused queue would never empty.
                if (options.untilEmpty && (!claim.nextDue || claim.paused)) {
                    if (empty) {
                        selfStop();
                        break;
                    }
                    // Overlapping with another thread's claim: look again shortly. Tasks in
                    // hand elsewhere wake this thread when the last one ends.
                    if (!othersBusy) {
                        sleepUntil(Clock::now() + milliseconds(10), &generation);
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
                    sleepUntil(Clock::now() + milliseconds(sleepMs), &generation);
                continue;
            }
            emptyRepeat = false;
            const auto now = Clock::now();
            if (!plainMode()) {
                std::lock_guard lock(heldMutex);
                for (const auto& t : claim.tasks) {
                    Held h;
                    h.token = t.token;
                    h.attempt = t.attempts;
                    h.due = t.due;
                    h.leaseMs = std::max(1LL, t.leaseDeadline - claim.serverNow);
                    h.nextExtend = now + milliseconds(std::max(1LL, h.leaseMs / 3));
                    held[t.id] = h;
                }
            }
            {
                std::lock_guard lock(statsMutex);
                --claimsOutstanding;
                ++activity;
                counts.claimed += static_cast<long long>(claim.tasks.size());
                counts.inFlight += static_cast<long long>(claim.tasks.size());
                for (const auto& t : claim.tasks)
                    latencies.record(claim.serverNow - t.due);
            }
            for (auto& t : claim.tasks)
                waiting.push_back(std::move(t));
        } catch (const Error& e) {
            reportError(e);
            if (stopping && Clock::now() >= stopDeadline)
                break; // Redis is away: held tasks come back when their leases run out
            sleepUntil(Clock::now() + backoff.next(), nullptr);
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
        {
            std::lock_guard lock(heldMutex);
            for (const auto& f : finishing)
                held.erase(f.task.id);
        }
        std::lock_guard lock(statsMutex);
        taskEndedLocked(static_cast<long long>(finishing.size()));
    }

    if (--workersAlive == 0) {
        {
            std::lock_guard lock(mutex);
            stopping = true;
        }
        cv.notify_all();
        if (subscriber)
            subscriber->interrupt();
    }
}

void Worker::Private::maintenanceLoop()
{
    // SIGPIPE blocked for the thread's whole life, as on the worker threads.
    const SigpipeBlock noSigpipe;
    Connection connection(options.connection);
    Queue queue(connection, options.queue, options.prefix);
    auto nextReap =
        Clock::now() +
        milliseconds(static_cast<long long>(options.reapInterval.count() * jitter(0.5, 1.5)));
    ReconnectBackoff backoff(options.maxReconnectDelay);
    bool releasedAll = false;
    while (workersAlive > 0) {
        try {
            if (aborting && !releasedAll) {
                releaseAllHeld(queue);
                releasedAll = true;
            }
            bool anyHeld = false;
            {
                std::lock_guard lock(heldMutex);
                anyHeld = !held.empty();
            }
            if (anyHeld)
                heartbeat(queue);
            if (!stopping && Clock::now() >= nextReap) {
                // Bounded: at most ten calls a turn, the rest on the next turn.
                for (int i = 0; i < 10; ++i) {
                    ReapResult r = queue.reap(options.reapBatch);
                    std::lock_guard lock(statsMutex);
                    counts.reaped += r.requeued + r.dead;
                    if (!r.more)
                        break;
                }
                nextReap = Clock::now() + milliseconds(static_cast<long long>(
                                              options.reapInterval.count() * jitter(0.5, 1.5)));
            }
            backoff.reset();
            // Heartbeats are due at a third of the lease; 50 ms is fine enough for any lease
            // a worker accepts, and costs nothing while idle.
            auto until = anyHeld ? Clock::now() + milliseconds(50) : nextReap;
            std::unique_lock lock(mutex);
            cv.wait_until(lock, until,
                          [&] { return workersAlive == 0 || (aborting && !releasedAll); });
        } catch (const Error& e) {
            reportError(e);
            std::unique_lock lock(mutex);
            cv.wait_for(lock, backoff.next(),
                        [&] { return workersAlive == 0 || (aborting && !releasedAll); });
        }
    }
}

void Worker::Private::subscriberLoop()
{
    // SIGPIPE blocked for the thread's whole life, as on the worker threads.
    const SigpipeBlock noSigpipe;
    const std::string channel = Keys(options.prefix, options.queue).wake();
    ReconnectBackoff backoff(options.maxReconnectDelay);
    bool subscribed = false;
    while (!stopping) {
        try {
            if (!subscribed) {
                subscriber->subscribe(channel);
                subscribed = true;
                backoff.reset();
                // Messages sent while away are lost: let every thread look once.
                {
                    std::lock_guard lock(mutex);
                    ++wakeGeneration;
                }
                cv.notify_all();
            }
            if (subscriber->waitMessage(options.pollInterval)) {
                {
                    std::lock_guard lock(mutex);
                    ++wakeGeneration;
                }
                cv.notify_all();
            }
        } catch (const Error& e) {
            subscribed = false;
            reportError(e);
            sleepUntil(Clock::now() + backoff.next(), nullptr);
        }
    }
    subscriber->disconnect();
}

Worker::Worker(WorkerOptions options, Handler handler, WorkerEventCallback onEvent)
    : m_d(std::make_unique<Private>(std::move(options), std::move(handler), std::move(onEvent)))
{
    m_d->name = m_d->options.name.empty() ? defaultWorkerName() : m_d->options.name;
}

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
    return m_d->name;
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
    if (!m_d->handler)
        throw Error(ErrorCode::InvalidArgument, "the worker has no handler");
    if (isRunning())
        return false;
    for (auto& t : m_d->threads)
        if (t.joinable())
            t.join();
    m_d->threads.clear();

    m_d->stopping = false;
    m_d->aborting = false;
    m_d->budget = o.maxTasks;
    {
        std::lock_guard lock(m_d->statsMutex);
        m_d->counts = WorkerCounters{};
        m_d->latencies.clear();
        m_d->connected = true;
        m_d->reportedErrors.clear();
    }
    m_d->subscriber = std::make_unique<Subscriber>(o.connection);
    m_d->workersAlive = o.concurrency;
    for (int i = 0; i < o.concurrency; ++i)
        m_d->threads.emplace_back([this, i] { m_d->workerLoop(i); });
    // A plain key has no leases to renew or reap and no wake channel: its threads sleep
    // until the next due time the pop reported, or the poll interval.
    if (o.plainKey.empty()) {
        m_d->threads.emplace_back([this] { m_d->maintenanceLoop(); });
        m_d->threads.emplace_back([this] { m_d->subscriberLoop(); });
    }
    return true;
}

void Worker::requestStop()
{
    if (m_d->threads.empty())
        return;
    {
        std::lock_guard lock(m_d->mutex);
        m_d->stopping = true;
    }
    m_d->cv.notify_all();
    m_d->subscriber->interrupt();
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
    {
        std::lock_guard lock(m_d->mutex);
        m_d->stopping = true;
        m_d->aborting = true;
    }
    m_d->cv.notify_all();
    m_d->subscriber->interrupt();
    for (auto& t : m_d->threads)
        if (t.joinable())
            t.join();
    m_d->threads.clear();
}

bool Worker::isRunning() const
{
    return m_d->workersAlive > 0;
}

bool Worker::wait(std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_d->mutex);
    return m_d->cv.wait_for(lock, timeout, [&] { return m_d->workersAlive == 0; });
}

bool Worker::abortRequested() const
{
    return m_d->aborting;
}

WorkerCounters Worker::counters() const
{
    std::lock_guard lock(m_d->statsMutex);
    WorkerCounters c = m_d->counts;
    c.latenessCount = m_d->latencies.count();
    c.latenessP50 = m_d->latencies.percentile(0.5);
    c.latenessP99 = m_d->latencies.percentile(0.99);
    c.latenessMax = m_d->latencies.max();
    c.lateness = m_d->latencies.coarseBuckets();
    return c;
}

} // namespace delayq
