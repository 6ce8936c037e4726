#pragma once

#include "worker/worksource.h"
#include <delayq/queue.h>

#include <chrono>
#include <string>

namespace delayq {

class LeaseKeeper;
class WorkerContext;

// A native queue as a worker thread's work source: claims under a lease (held by the
// LeaseKeeper until the outcome is in), acks in one script call, nacks one by one, and
// releases an unrun task with a nack of delay 0. Delivery is at least once.
class NativeWorkSource final : public WorkSource
{
public:
    NativeWorkSource(WorkerContext& context, LeaseKeeper& leases, Connection& connection,
                     std::string threadName);

    ClaimResult take(int want) override;
    bool beginRun(const ClaimedTask& task) override;
    bool endRun(const ClaimedTask& task, long long lateness) override;
    void flush(std::deque<FinishedTask>& finishing) override;
    void giveBack(const ClaimedTask& task, long long lateness, const char* why) override;
    void forget(const ClaimedTask& task) override;
    std::optional<long long> reapAndFindActive() override;

private:
    // The outcome of a failed task. An error other than a lost lease leaves only the nacks
    // in `finishing` (the acks are in already) and is thrown on.
    void nack(FinishedTask& f, std::deque<FinishedTask>& finishing);
    // How many tasks one claim may take under the queue's cap (1000 without one).
    int capShare();

    WorkerContext& m_context;
    LeaseKeeper& m_leases;
    Queue m_queue;
    std::string m_threadName; // the claimer's name in each task's hash
    bool m_shardsChosen = false;
    long long m_cap = 0;
    long long m_groupCap = 0;
    std::chrono::steady_clock::time_point m_capReadAt;
};

} // namespace delayq
