#pragma once

#include <delayq/task.h>

#include <string>
#include <vector>

namespace delayq {

class Queue;

// Writes exported tasks back into a native queue (lua/import_tasks.lua): each in its state, stored
// as the other scripts store it. A pending task keeps its due time, attempts and error; a
// dead one its time of death too; an "active" one comes back pending at its due time (its
// worker and lease are not brought back). Synchronous, throws Error.
class TaskImport
{
public:
    // Tasks per script call: a call stays short on the server, as for push.
    static constexpr size_t kBatch = 100;

    // replace: an id already in the queue is overwritten (unless a worker holds it); else it
    // is left alone and reported as exists, so importing a file twice adds nothing.
    // audited false: no audit entry (a reshard moving tasks between shards; such an import
    // does not ask a task's former home, where the reshard takes it from).
    TaskImport(Queue& queue, bool replace, bool audited = true);

    // Throws InvalidArgument saying what is wrong with the task (id, state, times, counts,
    // backoff); changes nothing.
    static void check(const Task& task);

    // One import.lua call for at most kBatch tasks (each check()ed first): one status per task,
    // Created, Exists, Replaced, TooLarge (over the queue's max_payload) or Active (replace
    // refused: a worker holds it).
    std::vector<PushResult::Status> importBatch(const std::vector<Task>& tasks);

private:
    // One call on one shard (the queue itself when it is not sharded).
    std::vector<PushResult::Status> importInto(Queue& shard, const std::vector<Task>& tasks);

    Queue& m_queue;
    bool m_replace;
    bool m_audited;
    bool m_registered = false;
};

} // namespace delayq
