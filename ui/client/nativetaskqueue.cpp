#include "client/nativetaskqueue.h"

namespace delayq::ui {

NativeTaskQueue::NativeTaskQueue(Connection& connection, const std::string& name,
                                 const std::string& prefix)
    : m_queue(connection, name, prefix)
{}

long long NativeTaskQueue::size(TaskSet set)
{
    return m_queue.size(set);
}

QueueCounts NativeTaskQueue::counts()
{
    return m_queue.counts();
}

std::optional<long long> NativeTaskQueue::earliest(TaskSet set)
{
    return m_queue.earliest(set);
}

std::vector<Task> NativeTaskQueue::page(TaskSet set, long long offset, long long limit)
{
    return m_queue.page(set, offset, limit);
}

long long NativeTaskQueue::rankOfScore(TaskSet set, long long score)
{
    return m_queue.rankOfScore(set, score);
}

std::optional<std::pair<TaskSet, Task>> NativeTaskQueue::find(const std::string& id)
{
    return m_queue.find(id);
}

std::optional<long long> NativeTaskQueue::rankOf(TaskSet set, const std::string& id)
{
    return m_queue.rankOf(set, id);
}

std::optional<long long> NativeTaskQueue::scoreOf(TaskSet set, const std::string& id)
{
    return m_queue.scoreOf(set, id);
}

std::vector<long long> NativeTaskQueue::histogram(long long fromMs, long long toMs, int buckets)
{
    return m_queue.histogram(fromMs, toMs, buckets);
}

long long NativeTaskQueue::dueBy(long long ms)
{
    return m_queue.dueBy(ms);
}

std::vector<PushResult> NativeTaskQueue::push(const std::vector<PushRequest>& requests)
{
    return m_queue.pushBatch(requests);
}

std::vector<IdResult> NativeTaskQueue::cancel(const std::vector<std::string>& ids)
{
    return m_queue.cancel(ids);
}

std::vector<IdResult> NativeTaskQueue::reschedule(const std::vector<std::string>& ids,
                                                  std::optional<long long> dueAtMs,
                                                  long long delayMs)
{
    return m_queue.reschedule(ids, dueAtMs, delayMs);
}

} // namespace delayq::ui
