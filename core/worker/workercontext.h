#pragma once

#include "worker/workertally.h"
#include <delayq/worker.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace delayq {

class Error;
class Subscriber;

// What the threads of one Worker share (docs/design.md, "Threads"): the options, the
// handler and the event callback, the tally, the task budget, and the signals that stop the
// threads and wake the sleeping ones. One mutex guards the sleeps, so a stop or a wake
// message reaches a thread that is about to sleep.
class WorkerContext
{
public:
    using Clock = std::chrono::steady_clock;

    WorkerContext(WorkerOptions options, Handler handler, DeliveryFactory delivery,
                  WorkerEventCallback onEvent);
    ~WorkerContext();
    WorkerContext(const WorkerContext&) = delete;
    WorkerContext& operator=(const WorkerContext&) = delete;

    const WorkerOptions& options() const { return m_options; }
    const std::string& name() const { return m_name; }
    bool hasHandler() const { return m_handler || m_delivery; }
    bool hasDelivery() const { return static_cast<bool>(m_delivery); }
    WorkerTally& tally() { return m_tally; }
    // The wake channel's listener; a new one per start().
    Subscriber& subscriber() { return *m_subscriber; }

    // For a new start(), before any thread runs.
    void reset();

    // --- tasks and events
    // An exception from the handler counts as its failure.
    HandlerResult runHandler(const ClaimedTask& task);
    // A worker thread's Delivery (hasDelivery()); throws Error when it cannot be made.
    std::unique_ptr<Delivery> makeDelivery(int thread);
    // The Delivery's results for `tasks`, one each: an exception or a wrong count fails all.
    std::vector<HandlerResult> deliver(Delivery& delivery, const std::vector<ClaimedTask>& tasks);
    // A task reached its outcome: counted, then reported. The event is complete.
    void taskFinished(const WorkerEvent& event);
    // Tasks given up without an outcome or an event (a stop with Redis away).
    void tasksDropped(long long n);
    void reportOk();
    void reportError(const Error& e);

    // --- the budget of maxTasks, shared by the threads
    // Up to `want` more tasks to claim; 0 when none is left to reserve. Every reservation is
    // settled once its claim is over: `unused` of it goes back.
    long long reserveBudget(int want);
    void settleBudget(long long unused);
    // Nothing left and no claim in flight that could give some back: maxTasks is reached.
    // (0 from reserveBudget alone is not that: another thread's claim may have reserved the
    // rest and find fewer tasks.)
    bool budgetSpent() const;

    // --- stopping and waking
    bool stopping() const { return m_stopping; }
    bool aborting() const { return m_aborting; }
    // Stops every thread: graceful, or (abort) at once. The subscriber is interrupted too.
    void requestStop(bool abort = false);
    uint64_t wakeGeneration();
    // Every sleeping worker thread looks again (a wake message, a resubscribe).
    void wakeAll();
    // Sleeps until `until`, a stop request, or (when `generation` is given) a wake.
    void sleepUntil(Clock::time_point until, const uint64_t* generation);
    // The renewal and upkeep threads' sleep: until `until`, the last worker thread's end, or
    // `done` (read under the sleep mutex).
    void sleepWhileWorking(Clock::time_point until, const std::function<bool()>& done);
    // Makes sleepWhileWorking look at its `done` again (a new hold to renew soon).
    void nudgeRenewals();

    // --- the worker threads
    bool workersRunning() const { return m_workersAlive > 0; }
    // Blocks until the worker threads have ended or timeout passes; true when ended.
    bool waitForWorkers(std::chrono::milliseconds timeout);
    // A worker thread ends; the last one stops the other threads.
    void workerEnded();

private:
    // Not "emit": suites include this header after Qt's, whose emit is a macro.
    void callOnEvent(const WorkerEvent& event);

    const WorkerOptions m_options;
    const Handler m_handler;
    const DeliveryFactory m_delivery;
    const WorkerEventCallback m_onEvent;
    const std::string m_name;

    std::mutex m_mutex; // guards m_wakeGeneration and the sleeps
    std::condition_variable m_cv;
    uint64_t m_wakeGeneration = 0;
    std::atomic<bool> m_stopping{false};
    std::atomic<bool> m_aborting{false};
    std::atomic<int> m_workersAlive{0};
    std::atomic<long long> m_budget{0};
    std::atomic<int> m_reservations{0}; // claims with a part of the budget, not yet settled
    std::unique_ptr<Subscriber> m_subscriber;
    WorkerTally m_tally;
};

} // namespace delayq
