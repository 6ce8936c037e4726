#pragma once

#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/task.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace delayq {

// The reads of one native queue that Queue hands on (queue.h says what each returns): plain
// pipelined commands, never scripts, so a read-only ACL user can still look.
class QueueReader
{
public:
    QueueReader(Connection& connection, const Keys& keys);

    QueueConfig config();
    QueueCounts counts();
    Counters stats();
    std::vector<MinuteCounters> history(long long fromMinute, long long toMinute);
    std::vector<long long> histogram(long long fromMs, long long toMs, int buckets);
    long long dueBy(long long ms);
    std::vector<Task> page(TaskSet set, long long offset, long long limit);
    std::vector<Task> pageFromScore(TaskSet set, long long fromScore, long long limit);
    long long rankOfScore(TaskSet set, long long score);
    std::optional<long long> rankOf(TaskSet set, const std::string& id);
    long long size(TaskSet set);
    std::optional<long long> earliest(TaskSet set);
    std::optional<std::pair<TaskSet, Task>> find(const std::string& id);
    bool needsUpgrade();

    static std::vector<std::string> listQueues(Connection& connection, const std::string& prefix,
                                               int limit);
    static std::vector<QueueSummary> summaries(Connection& connection,
                                               const std::vector<std::string>& names,
                                               const std::string& prefix);

private:
    // HGETs of a task's record, run entry and last error, in the order fillTask takes them.
    std::vector<std::vector<std::string>> taskReads(const std::string& id) const;
    std::vector<Task> loadTasks(TaskSet set,
                                const std::vector<std::pair<std::string, long long>>& members);

    Connection& m_connection;
    const Keys& m_keys;
};

} // namespace delayq
