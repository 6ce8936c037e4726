#pragma once

#include <delayq/task.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace delayq {

class Queue;
class WorkerContext;

// The native tasks one Worker holds, from claim to their final outcome, and its renewal
// thread (run()), which renews their leases on its own connection and schedule, and on an
// abort hands back every held task that has not finished. A task's state here decides, under
// one mutex, whether its worker thread or the renewal thread hands it back, so it is handed
// back once. The reaps, schedule ticks and heartbeats are the Upkeep thread's, on another
// connection: a renewal never waits behind them, nor behind a claim or an ack.
class LeaseKeeper
{
public:
    explicit LeaseKeeper(WorkerContext& context);
    LeaseKeeper(const LeaseKeeper&) = delete;
    LeaseKeeper& operator=(const LeaseKeeper&) = delete;

    // --- for the worker threads
    // Holds the claimed tasks (waiting to run) and schedules their renewals.
    void hold(const ClaimResult& claim);
    // The handler may start: false when an abort has handed the task back already.
    bool startRunning(const ClaimedTask& task);
    // The handler returned and its result is to be sent: false when it was handed back.
    bool startFinishing(const ClaimedTask& task);
    // No more renewals: the outcome is in Redis, or the lease is left to run out.
    void forget(const ClaimedTask& task);
    // Hands the task back unrun (a nack of delay 0), unless an abort already did.
    void releaseIfHeld(Queue& queue, const ClaimedTask& task, long long lateness, const char* why);

    // The renewal thread; returns once every worker thread has ended.
    void run();

private:
    using Clock = std::chrono::steady_clock;

    // A task is held per claim, by id and lease token: once one thread has nacked a task,
    // another thread of this worker may claim it again before the first forgets it, and
    // the first one's forget must not drop the second one's hold (its task would then sit
    // unrun until the lease ran out).
    using HeldKey = std::pair<std::string, std::string>; // id, lease token

    // A task between claim and its final outcome.
    struct Held
    {
        enum class State
        {
            Waiting,
            Running,
            Finishing,
            Released
        };
        int attempt = 0;
        long long due = 0;
        long long leaseMs = 0;
        // A third of a lease after the claim's reply, then after each renewal was sent (its
        // lease runs from when Redis ran it, later still): two thirds of a lease are left
        // when a renewal is due, so one that fails or comes late is tried again in time.
        Clock::time_point nextExtend;
        State state = State::Waiting;
        bool lost = false;
    };

    // A held task moves on to `state`; false when it is gone or was handed back meanwhile.
    bool advance(const ClaimedTask& task, Held::State state);
    // Extends every lease that is a third of the way through. Throws Error: the renewals
    // not sent stay due.
    void renew(Queue& queue);
    // When the next renewal is due; far off when none is held.
    Clock::time_point nextRenewal();
    // The wait before renewals that failed are sent again: the reconnect backoff, but at most
    // a sixth of the shortest lease held, so a lease sees several tries before it runs out.
    Clock::duration retryDelay(Clock::duration backoff);
    void releaseAll(Queue& queue);
    void release(Queue& queue, const ClaimedTask& task, long long lateness, const char* why);

    WorkerContext& m_context;
    std::mutex m_mutex; // guards m_held
    std::map<HeldKey, Held> m_held;
    // Set by hold(): the renewal thread, asleep until the next renewal it knew of (a second
    // at most), must look at the new hold's schedule.
    std::atomic<bool> m_newHold{false};
};

} // namespace delayq
