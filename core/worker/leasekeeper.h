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

// The native tasks one Worker holds, from claim to their final outcome, and its maintenance
// thread (run()), which renews their leases a third of the way through, gives the Reaper its
// turns (other workers' expired leases), and on an abort hands back every held task that has
// not finished. A task's state here decides, under one mutex, whether its
// worker thread or the maintenance thread hands it back, so it is handed back once.
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

    // The maintenance thread; returns once every worker thread has ended.
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
        Clock::time_point nextExtend;
        State state = State::Waiting;
        bool lost = false;
    };

    bool anyHeld();
    // A held task moves on to `state`; false when it is gone or was handed back meanwhile.
    bool advance(const ClaimedTask& task, Held::State state);
    // Extends every lease that is a third of the way through.
    void renew(Queue& queue);
    void releaseAll(Queue& queue);
    void release(Queue& queue, const ClaimedTask& task, long long lateness, const char* why);

    WorkerContext& m_context;
    std::mutex m_mutex; // guards m_held
    std::map<HeldKey, Held> m_held;
    // Set by hold(): the maintenance thread, idle until its next reap (up to 1.5 s), must
    // wake now, or the first renewal of a short lease would come after the lease ran out.
    std::atomic<bool> m_newHold{false};
};

} // namespace delayq
