#pragma once

#include <delayq/task.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace delayq {
class Connection;
} // namespace delayq

namespace delayq::ui {

// What the admin app needs from a queue, whichever kind it is: a native delayq queue, or a
// plain sorted set whose members are the messages (each member is both the task's id and
// its payload, and only the pending set exists: the others read as empty). Callers ask
// without knowing the kind; see NativeTaskQueue and PlainTaskQueue.
class TaskQueue
{
public:
    virtual ~TaskQueue() = default;

    virtual bool isPlain() const = 0;
    virtual long long size(TaskSet set) = 0;
    virtual QueueCounts counts() = 0;
    virtual std::optional<long long> earliest(TaskSet set) = 0;
    // Tasks of a set by rank (0 = earliest).
    virtual std::vector<Task> page(TaskSet set, long long offset, long long limit) = 0;
    // Rank of the first task scored at or after `score` (ms).
    virtual long long rankOfScore(TaskSet set, long long score) = 0;
    // Which set holds the id, and the task; nullopt when it is nowhere.
    virtual std::optional<std::pair<TaskSet, Task>> find(const std::string& id) = 0;
    virtual std::optional<long long> rankOf(TaskSet set, const std::string& id) = 0;
    // The task's score in the set (pending: its due ms); nullopt when the set does not hold it.
    virtual std::optional<long long> scoreOf(TaskSet set, const std::string& id) = 0;
    // Pending tasks per bucket between fromMs and toMs; and those due at or before ms.
    virtual std::vector<long long> histogram(long long fromMs, long long toMs, int buckets) = 0;
    virtual long long dueBy(long long ms) = 0;

    // A plain sorted set adds each payload as a member (an existing one keeps its due time
    // and is reported as exists); ids, attempts and backoff do not apply there.
    virtual std::vector<PushResult> push(const std::vector<PushRequest>& requests) = 0;
    virtual std::vector<IdResult> cancel(const std::vector<std::string>& ids) = 0;
    // To dueAtMs, or (when empty) delayMs after the server's now.
    virtual std::vector<IdResult> reschedule(const std::vector<std::string>& ids,
                                             std::optional<long long> dueAtMs,
                                             long long delayMs) = 0;
};

} // namespace delayq::ui
