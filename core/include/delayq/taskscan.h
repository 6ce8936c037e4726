#pragma once

#include <delayq/queue.h>
#include <delayq/task.h>

#include <climits>
#include <string>
#include <vector>

namespace delayq {

// Which text of a task a filter looks in.
enum class ScanField
{
    Payload,
    Error, // the last error (dead tasks, and tasks that failed and wait for a retry)
    Worker // the name of the worker holding it (active tasks)
};
const char* scanFieldName(ScanField field);

// The tasks of one set a filter matches: scored in [minScore, maxScore] (due time for
// pending, lease deadline for active, time died for dead) and, when text is not empty,
// holding text in the field (bytes, case-sensitive: a substring, not a pattern).
struct TaskFilter
{
    TaskSet set = TaskSet::Pending;
    std::string text;
    ScanField field = ScanField::Payload;
    long long minScore = LLONG_MIN;
    long long maxScore = LLONG_MAX;
};

// Where a scan stands: the score and id of the last task read, and how many tasks with
// exactly that score were read (Redis orders equal scores by id). The next step starts right
// after that id, found by its rank, so tasks claimed or deleted meanwhile never make it skip
// others (as a bare rank would); when that very task is gone, it starts again at the first
// task of its score, so a few may be read twice, never skipped. Start from the default;
// `done` once the set's end (or maxScore) was reached.
struct ScanCursor
{
    long long score = LLONG_MIN;
    long long sameScore = 0;
    std::string lastId;
    bool started = false;
    bool done = false;
    size_t shard = 0; // of a sharded queue, searched one shard after the other

    // "score:sameScore:lastId", "0" to start; "" once done. For a resumed scan.
    std::string toString() const;
    static ScanCursor fromString(const std::string& text); // throws InvalidArgument
};

struct ScanStep
{
    std::vector<Task> matches; // with every field, in score order
    long long read = 0;        // tasks read by this step
    ScanCursor cursor;         // where the next step starts
};

// Searches a native queue's tasks in bounded steps: each step reads at most `count` tasks of
// the set in score order (one ZRANGE BYSCORE, then the tasks' fields in one pipeline) and
// matches them here, so no step holds Redis longer than a page read does, whatever the queue's
// size. Binary-safe. A task moved by a claim, a retry or a reschedule during the scan may be
// missed or seen twice: a scan is a search, not a snapshot. A sharded queue is searched shard
// after shard: matches come in score order within each.
class TaskScan
{
public:
    explicit TaskScan(Queue& queue) : m_queue(queue) {}

    // count: 1..1000 tasks read per step.
    ScanStep step(const TaskFilter& filter, const ScanCursor& cursor, int count = 250);
    // Tasks of the set within the filter's scores (ZCOUNT): exact and cheap without text,
    // an upper bound with it.
    long long inRange(const TaskFilter& filter);

    static bool matches(const TaskFilter& filter, const Task& task);

private:
    // A step of a sharded queue: in the cursor's shard, then on to the next.
    ScanStep shardStep(const TaskFilter& filter, const ScanCursor& cursor, int count);

    Queue& m_queue;
};

} // namespace delayq
