#pragma once

#include <delayq/worker.h>

#include <QMutex>
#include <QString>

#include <deque>

namespace delayq::ui {

// What the embedded worker's threads report, kept for the GUI: filled from the worker's
// callback (which must stay short), drained by the dock's timer. Holds the newest kMax.
class WorkerEventLog
{
public:
    static constexpr size_t kMax = 500;

    void add(const delayq::WorkerEvent& event);
    std::deque<delayq::WorkerEvent> take();

    // One log line: "12:00:01.250 acked order-7 (attempt 1, 3ms late)".
    static QString describe(const delayq::WorkerEvent& event);

private:
    QMutex m_mutex;
    std::deque<delayq::WorkerEvent> m_events;
};

} // namespace delayq::ui
