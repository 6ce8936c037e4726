#pragma once

#include <delayq/worker.h>

#include <mutex>
#include <vector>

// A worker's events, for tst_worker and tst_plainworker: they arrive on worker threads, the
// test reads them on its own.
class EventLog
{
public:
    void add(const delayq::WorkerEvent& e);
    std::vector<delayq::WorkerEvent> all() const;
    int count(delayq::WorkerEvent::Kind kind) const;
    // The TaskFinished events, in order.
    std::vector<delayq::WorkerEvent> tasks() const;

private:
    mutable std::mutex m_mutex;
    std::vector<delayq::WorkerEvent> m_events;
};
