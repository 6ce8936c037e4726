#pragma once

#include "transport/reconnectbackoff.h"
#include "worker/batchsizer.h"
#include "worker/worksource.h"
#include <delayq/connection.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>

namespace delayq {

class Delivery;
class LeaseKeeper;
class WorkerContext;

// One of a Worker's `concurrency` threads (docs/design.md, "Threads"), with its own
// connection: takes due tasks from its work source in batches, runs the handler on each,
// sends the outcomes back together, sleeps until the next due time or a wake, and rides out
// outages with backoff. Whether the queue is native or plain is its WorkSource's business.
class WorkerThread
{
public:
    WorkerThread(WorkerContext& context, LeaseKeeper& leases, int index);
    ~WorkerThread();
    WorkerThread(const WorkerThread&) = delete;
    WorkerThread& operator=(const WorkerThread&) = delete;

    // The thread's body: returns once the worker stops, or this thread found it done.
    void run();

private:
    using Clock = std::chrono::steady_clock;

    // One turn of the loop, with the retry after an error; false: the loop is over.
    bool turn();
    bool work();
    bool flushDue() const;
    void runOne();
    // A Delivery's path: every waiting task handed over in one call.
    void deliverWaiting();
    // The event of a task about to run; false (and no event) when it was handed back.
    bool beginTask(const ClaimedTask& task, WorkerEvent& event);
    void endTask(ClaimedTask task, WorkerEvent event, HandlerResult result);
    // Takes more tasks, or sleeps until some may be due; false when the worker is done.
    bool takeMore();
    bool sleepAfterEmpty(const ClaimResult& claim, long long activityBefore, uint64_t generation);
    // untilEmpty found nothing pending: reaps, and sleeps while tasks are still active (false
    // when none is: the queue is empty).
    bool waitForActive(long long serverNow, uint64_t generation);
    void giveBackWaiting(const char* why);
    // After the loop: one last attempt to send what is done and hand back what is not.
    void finishUp();

    WorkerContext& m_context;
    LeaseKeeper& m_leases;
    const int m_index;
    Connection m_connection;
    std::unique_ptr<WorkSource> m_source;
    std::unique_ptr<Delivery> m_delivery; // made on the first turn when the worker has one
    std::deque<ClaimedTask> m_waiting;    // claimed, handler not run yet
    std::deque<FinishedTask> m_finishing; // handler done, outcome not yet in Redis
    long long m_claimNow = 0;             // the server's now at the last claim
    ReconnectBackoff m_backoff;
    BatchSizer m_batch;
    std::chrono::steady_clock::time_point m_lastClaim; // when the last claim's reply came
    // When the last claim's tasks were all run: the hand's time, without the round trips of
    // its acks and of the next claim (on a slow link those would shrink every claim).
    std::chrono::steady_clock::time_point m_handRun;
    Clock::time_point m_stopDeadline{};
    bool m_emptyRepeat = false; // the last claim came back empty with a task due now
};

} // namespace delayq
