#pragma once

#include <delayq/error.h>
#include <delayq/latencyhistogram.h>
#include <delayq/worker.h>

#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace delayq {

// What one Worker has done since start(), for counters(): the counters, the lateness, and
// whether Redis answers. Every worker thread writes here, so one mutex guards it all. This
// is the one place a task's outcome is counted.
class WorkerTally
{
public:
    // Zero again, for a new start().
    void reset();
    WorkerCounters counters() const;

    // --- claims, and what untilEmpty needs to tell "the queue is empty" from "another
    // thread took the tasks meanwhile"
    // A claim goes on the wire; returns the activity count to hand to claimCameBackEmpty().
    long long claimSent();
    void claimFailed();
    void claimed(const ClaimResult& claim);
    struct EmptyClaim
    {
        // No task in hand, no other claim overlapped this one and nothing ended meanwhile (a
        // nack may have put a retry back): the queue really had nothing due.
        bool conclusive = false;
        bool othersBusy = false; // tasks in hand elsewhere: their end wakes this thread
    };
    EmptyClaim claimCameBackEmpty(long long activityBefore);

    // --- tasks
    void handlerFailed();
    // One task reached its outcome. True when no task is in flight any more.
    bool taskEnded(TaskOutcome outcome);
    // Tasks given up without an outcome (a stop with Redis away). True as for taskEnded.
    bool tasksDropped(long long n);
    void reaped(long long n);

    // --- Redis' answers. Each returns the event to report, if this one is news.
    std::optional<WorkerEvent> redisAnswered();
    std::optional<WorkerEvent> redisFailed(const Error& e);

private:
    // Called with m_mutex held.
    bool endedLocked(long long n);
    void countLocked(TaskOutcome outcome);

    mutable std::mutex m_mutex;
    WorkerCounters m_counts;
    LatencyHistogram m_latencies;
    int m_claimsOutstanding = 0;
    long long m_activity = 0; // claims and finishes, so a thread can see that others acted
    bool m_connected = true;
    std::set<std::string> m_reportedErrors; // Error events' texts, until a claim succeeds
};

} // namespace delayq
