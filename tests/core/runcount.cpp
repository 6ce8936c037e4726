#include "runcount.h"

#include "topologytasks.h"

#include <delayq/error.h>

#include <vector>

using namespace delayq;

void RunCount::pushRetried(Queue& queue, int count)
{
    queue.setConfig("max_attempts", "1000");
    queue.setConfig("backoff", "10ms");
    std::vector<PushRequest> requests;
    for (int i = 0; i < count; ++i)
        requests.push_back(task("t" + std::to_string(i)));
    queue.pushBatch(requests);
}

void RunCount::add(const std::string& id)
{
    std::lock_guard lock(m_mutex);
    ++m_runs[id];
    ++m_ran;
}

int RunCount::distinct() const
{
    std::lock_guard lock(m_mutex);
    return static_cast<int>(m_runs.size());
}

int RunCount::twice() const
{
    std::lock_guard lock(m_mutex);
    int n = 0;
    for (const auto& [id, runs] : m_runs)
        n += runs > 1 ? 1 : 0;
    return n;
}

bool RunCount::drained(Queue& queue, int count) const
{
    if (distinct() != count)
        return false;
    try {
        const QueueCounts c = queue.counts();
        return c.pending == 0 && c.active == 0 && c.dead == 0;
    } catch (const Error&) {
        return false;
    }
}
