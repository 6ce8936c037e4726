#include "eventlog.h"

#include <algorithm>

using namespace delayq;

void EventLog::add(const WorkerEvent& e)
{
    std::lock_guard lock(m_mutex);
    m_events.push_back(e);
}

std::vector<WorkerEvent> EventLog::all() const
{
    std::lock_guard lock(m_mutex);
    return m_events;
}

int EventLog::count(WorkerEvent::Kind kind) const
{
    std::lock_guard lock(m_mutex);
    return static_cast<int>(std::count_if(m_events.begin(), m_events.end(),
                                          [&](const WorkerEvent& e) { return e.kind == kind; }));
}

std::vector<WorkerEvent> EventLog::tasks() const
{
    std::vector<WorkerEvent> out;
    for (const auto& e : all())
        if (e.kind == WorkerEvent::Kind::TaskFinished)
            out.push_back(e);
    return out;
}
