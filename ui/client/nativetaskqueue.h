#pragma once

#include "client/taskqueue.h"

#include <delayq/queue.h>

namespace delayq::ui {

// A native delayq queue as a TaskQueue: every call is the Queue's own.
class NativeTaskQueue : public TaskQueue
{
public:
    NativeTaskQueue(Connection& connection, const std::string& name, const std::string& prefix);

    Queue& queue() { return m_queue; }

    bool isPlain() const override { return false; }
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

private:
    Queue m_queue;
};

} // namespace delayq::ui
