#pragma once

#include "client/taskqueue.h"

#include <delayq/plainfailures.h>
#include <delayq/plainqueue.h>

namespace delayq::ui {

// A plain sorted set as a TaskQueue: a member is a task whose id and payload are the
// member, due at its score; there are no active or dead tasks.
class PlainTaskQueue : public TaskQueue
{
public:
    // prefix: where delayq keeps the key's failures and parked members (PlainKeys), shown as
    // the attempts and last error of pending members and as the dead set.
    PlainTaskQueue(Connection& connection, const std::string& key, PlainQueue::ScoreUnit unit,
                   const std::string& prefix = "dq");

    PlainQueue& plain() { return m_plain; }

    bool isPlain() const override { return true; }
    long long size(TaskSet set) override;
    QueueCounts counts() override;
    std::optional<long long> earliest(TaskSet set) override;
    std::vector<Task> page(TaskSet set, long long offset, long long limit) override;
    long long rankOfScore(TaskSet set, long long score) override;
    std::optional<std::pair<TaskSet, Task>> find(const std::string& id) override;
    std::optional<long long> rankOf(TaskSet set, const std::string& id) override;
    std::optional<long long> scoreOf(TaskSet set, const std::string& id) override;
    std::vector<long long> histogram(long long fromMs, long long toMs, int buckets) override;
    long long dueBy(long long ms) override;
    std::vector<PushResult> push(const std::vector<PushRequest>& requests) override;
    std::vector<IdResult> cancel(const std::vector<std::string>& ids) override;
    std::vector<IdResult> reschedule(const std::vector<std::string>& ids,
                                     std::optional<long long> dueAtMs, long long delayMs) override;

    static Task toTask(const PlainQueue::Member& member);

private:
    static std::vector<IdResult> outcomes(const std::vector<std::string>& ids,
                                          const std::vector<bool>& done);

    Connection& m_connection;
    PlainQueue m_plain;
    PlainFailures m_failures;
};

} // namespace delayq::ui
