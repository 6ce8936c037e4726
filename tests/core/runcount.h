#pragma once

#include <delayq/queue.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>

// What a worker ran under a failover or a reshard (tst_sentinel, tst_cluster), as tests/chaos
// counts it: every task must run at least once, and none be left pending, active or dead.
class RunCount
{
public:
    // Tasks t0..t(count-1), retried for ever (1000 attempts, 10 ms apart) while a server is
    // away.
    static void pushRetried(delayq::Queue& queue, int count);

    // From the worker's handler threads.
    void add(const std::string& id);
    int ran() const { return m_ran; }
    // Distinct tasks that ran, and those of them that ran more than once.
    int distinct() const;
    int twice() const;
    // All count tasks ran and the queue holds none; false while its server is away (the
    // next look reconnects).
    bool drained(delayq::Queue& queue, int count) const;

private:
    mutable std::mutex m_mutex;
    std::map<std::string, int> m_runs;
    std::atomic<int> m_ran{0};
};
