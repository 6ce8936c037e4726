#include "client/plaintaskqueue.h"

#include <delayq/connection.h>

#include <algorithm>

namespace delayq::ui {

PlainTaskQueue::PlainTaskQueue(Connection& connection, const std::string& key,
                               PlainQueue::ScoreUnit unit, const std::string& prefix)
    : m_connection(connection), m_plain(connection, key, unit), m_failures(connection, prefix, key)
{}

namespace {

// A forwarder's record of a member's failed deliveries, on its task.
void addFailure(Task& t, const PlainFailure& f)
{
    t.attempts = static_cast<int>(std::min<long long>(f.attempts, 1 << 30));
    t.lastError = f.lastError;
}

// A parked member: the dead set's task, scored by when it was parked.
Task parkedTask(const PlainFailure& f)
{
    Task t;
    t.id = f.member;
    t.payload = f.member;
    t.score = f.parkedMs.value_or(0);
    t.due = t.score;
    t.state = "dead";
    addFailure(t, f);
    return t;
}

} // namespace

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
    if (set == TaskSet::Dead)
        return m_failures.parkedCount();
    return set == TaskSet::Pending ? m_plain.size() : 0;
}

QueueCounts PlainTaskQueue::counts()
{
    QueueCounts counts;
    counts.pending = m_plain.size();
    counts.dueNow = m_plain.dueNow();
    counts.dead = m_failures.parkedCount();
    return counts;
}

std::optional<long long> PlainTaskQueue::earliest(TaskSet set)
{
    if (set == TaskSet::Dead) {
        const auto first = m_failures.parkedPage(0, 1);
        return first.empty() ? std::nullopt : first.front().parkedMs;
    }
    if (set != TaskSet::Pending)
        return std::nullopt;
    const auto first = m_plain.page(0, 1);
    return first.empty() ? std::nullopt : std::optional<long long>(first.front().dueMs);
}

std::vector<Task> PlainTaskQueue::page(TaskSet set, long long offset, long long limit)
{
    std::vector<Task> tasks;
    if (set == TaskSet::Dead) {
        for (const auto& f : m_failures.parkedPage(offset, limit))
            tasks.push_back(parkedTask(f));
        return tasks;
    }
    if (set != TaskSet::Pending)
        return tasks;
    std::vector<std::string> members;
    for (const auto& m : m_plain.page(offset, limit)) {
        tasks.push_back(toTask(m));
        members.push_back(m.member);
    }
    const auto failures = m_failures.read(members);
    for (size_t i = 0; i < tasks.size(); ++i)
        addFailure(tasks[i], failures[i]);
    return tasks;
}

long long PlainTaskQueue::rankOfScore(TaskSet set, long long score)
{
    if (set == TaskSet::Dead)
        return m_connection
            .command({"ZCOUNT", m_failures.keys().parked(), "-inf", "(" + std::to_string(score)})
            .toInteger();
    return set == TaskSet::Pending ? m_plain.rankOfTime(score) : 0;
}

std::optional<std::pair<TaskSet, Task>> PlainTaskQueue::find(const std::string& id)
{
    const auto member = m_plain.find(id);
    const PlainFailure failure = m_failures.read({id}).front();
    if (!member) {
        if (!failure.parkedMs)
            return std::nullopt;
        return std::make_pair(TaskSet::Dead, parkedTask(failure));
    }
    Task t = toTask(*member);
    addFailure(t, failure);
    return std::make_pair(TaskSet::Pending, t);
}

std::optional<long long> PlainTaskQueue::rankOf(TaskSet set, const std::string& id)
{
    if (set == TaskSet::Dead) {
        const Reply rank = m_connection.command({"ZRANK", m_failures.keys().parked(), id});
        return rank.isNil() || rank.isError() ? std::nullopt
                                              : std::optional<long long>(rank.toInteger());
    }
    return set == TaskSet::Pending ? m_plain.rankOf(id) : std::nullopt;
}

std::optional<long long> PlainTaskQueue::scoreOf(TaskSet set, const std::string& id)
{
    // The key's only set is pending; its parked members are the dead ones.
    if (set == TaskSet::Dead) {
        const auto found = find(id);
        return found && found->first == TaskSet::Dead ? std::optional(found->second.score)
                                                      : std::nullopt;
    }
    if (set != TaskSet::Pending)
        return std::nullopt;
    const auto member = m_plain.find(id);
    return member ? std::optional(member->dueMs) : std::nullopt;
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
