#pragma once

#include <delayq/task.h>
#include <delayq/worker.h>

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <string>

namespace delayq {

// A task whose handler has returned and whose outcome is not in Redis yet.
struct FinishedTask
{
    ClaimedTask task;
    HandlerResult result;
    WorkerEvent event; // all but the outcome, the finish time and what Redis answers
    std::chrono::steady_clock::time_point since;
};

// Where a worker thread's tasks come from and where their outcomes go, so that the thread's
// loop is the same for both kinds of queue: a native queue (NativeWorkSource: claim, ack,
// nack, leases) or a plain sorted set (PlainWorkSource: pop, add back). One per worker
// thread, used on that thread only. Every call may throw Error; the thread then retries
// with backoff.
class WorkSource
{
public:
    virtual ~WorkSource() = default;

    // At the top of every turn of the loop, so that a failure here is retried like any other.
    virtual void prepare() {}
    // Up to `want` due tasks; with none, when the next one is due.
    virtual ClaimResult take(int want) = 0;
    // The handler may run the task: false when it was handed back meanwhile (an abort).
    virtual bool beginRun(const ClaimedTask& task) = 0;
    // The handler returned: false when its result is to be discarded because the task was,
    // or now is, handed back.
    virtual bool endRun(const ClaimedTask& task, long long lateness) = 0;
    // Puts the outcomes of finished tasks into Redis and reports each. A task leaves the list
    // once Redis has its outcome, so after an error the rest is sent again.
    virtual void flush(std::deque<FinishedTask>& finishing) = 0;
    // Hands back a task whose handler did not run, for the next consumer.
    virtual void giveBack(const ClaimedTask& task, long long lateness, const char* why) = 0;
    // Stops looking after a task whose outcome will not be sent (abandoned, or left behind
    // at a stop while Redis is away).
    virtual void forget(const ClaimedTask& task) = 0;

    // For untilEmpty, once a claim found nothing pending and this worker holds nothing: takes
    // back the leases that ran out (a reap, counted in the tally) and returns when to look
    // again (ms, server clock): 0 when the reap put tasks back in pending, else the earliest
    // lease deadline still in the active set; nullopt when nothing is active, nor was reaped.
    // An active task is work left: it comes back to pending if its worker never finishes it.
    virtual std::optional<long long> reapAndFindActive() { return std::nullopt; }

    // The event of a task handed back unrun, before what Redis answers is known.
    static WorkerEvent releasedEvent(const ClaimedTask& task, long long lateness, const char* why);

    // Called by flush() for each failed task it finds dead in Redis, once it is (the worker
    // thread passes it on to its delivery target: Delivery::died). A native queue's only: a
    // plain key has no dead set.
    using DiedCallback = std::function<void(const ClaimedTask& task, const std::string& error)>;
    void setDiedCallback(DiedCallback died) { m_died = std::move(died); }

protected:
    DiedCallback m_died;
};

} // namespace delayq
