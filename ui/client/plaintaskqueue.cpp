#include "client/plaintaskqueue.h"

#include <delayq/connection.h>

namespace delayq::ui {

PlainTaskQueue::PlainTaskQueue(Connection& connection, const std::string& key,
                               PlainQueue::ScoreUnit unit)
    : m_connection(connection), m_plain(connection, key, unit)
{}

Task PlainTaskQueue::toTask(const PlainQueue::Member& member)
{
    Task t;
    t.id = member.member;
    t.payload = member.member;
    t.score = member.dueMs;
    t.due = member.dueMs;
    t.state = "pending";
    return t;
}

std::vector<IdResult> PlainTaskQueue::outcomes(const std::vector<std::string>& ids,
                                               const std::vector<bool>& done)
{
    std::vector<IdResult> out;
    for (size_t i = 0; i < done.size() && i < ids.size(); ++i)
        out.push_back({ids[i], done[i] ? IdResult::Status::Done : IdResult::Status::NotFound});
    return out;
}

long long PlainTaskQueue::size(TaskSet set)
{
    return set == TaskSet::Pending ? m_plain.size() : 0;
}

QueueCounts PlainTaskQueue::counts()
{
    QueueCounts counts;
    counts.pending = m_plain.size();
    counts.dueNow = m_plain.dueNow();
    return counts;
}

std::optional<long long> PlainTaskQueue::earliest(TaskSet set)
{
    if (set != TaskSet::Pending)
        return std::nullopt;
    const auto first = m_plain.page(0, 1);
    return first.empty() ? std::nullopt : std::optional<long long>(first.front().dueMs);
}

std::vector<Task> PlainTaskQueue::page(TaskSet set, long long offset, long long limit)
{
    std::vector<Task> tasks;
    if (set != TaskSet::Pending)
        return tasks;
    for (const auto& m : m_plain.page(offset, limit))
        tasks.push_back(toTask(m));
    return tasks;
}

long long PlainTaskQueue::rankOfScore(TaskSet set, long long score)
{
    return set == TaskSet::Pending ? m_plain.rankOfTime(score) : 0;
}

std::optional<std::pair<TaskSet, Task>> PlainTaskQueue::find(const std::string& id)
{
    const auto member = m_plain.find(id);
    if (!member)
        return std::nullopt;
    return std::make_pair(TaskSet::Pending, toTask(*member));
}

std::optional<long long> PlainTaskQueue::rankOf(TaskSet set, const std::string& id)
{
    return set == TaskSet::Pending ? m_plain.rankOf(id) : std::nullopt;
}

std::vector<long long> PlainTaskQueue::histogram(long long fromMs, long long toMs, int buckets)
{
    return m_plain.histogram(fromMs, toMs, buckets);
}

long long PlainTaskQueue::dueBy(long long ms)
{
    return m_plain.dueBy(ms);
}

std::vector<PushResult> PlainTaskQueue::push(const std::vector<PushRequest>& requests)
{
    // One ZADD NX per request: requests may each have their own due time.
    std::vector<PushResult> results;
    const long long now = m_connection.serverNowMs();
    for (const auto& r : requests) {
        const long long due = r.dueAtMs ? *r.dueAtMs : now + r.delayMs;
        const auto added = m_plain.push({r.payload}, due);
        PushResult result;
        result.id = r.payload;
        result.status = !added.empty() && added.front() ? PushResult::Status::Created
                                                        : PushResult::Status::Exists;
        result.due = result.status == PushResult::Status::Created ? due : -1;
        results.push_back(std::move(result));
    }
    return results;
}

std::vector<IdResult> PlainTaskQueue::cancel(const std::vector<std::string>& ids)
{
    return outcomes(ids, m_plain.cancel(ids));
}

std::vector<IdResult> PlainTaskQueue::reschedule(const std::vector<std::string>& ids,
                                                 std::optional<long long> dueAtMs,
                                                 long long delayMs)
{
    const long long due = dueAtMs ? *dueAtMs : m_connection.serverNowMs() + delayMs;
    return outcomes(ids, m_plain.reschedule(ids, due));
}

} // namespace delayq::ui
