#pragma once

#include <delayq/task.h>

#include <memory>
#include <string>
#include <vector>

namespace delayq {

class Queue;
class ScoreWindow;

// Reads a native queue's tasks for an export (docs/cli.md, "Export and import") in bounded
// steps: each next() reads one window of at most `step` tasks of one set, in score order
// (a cursor by score and id, not by rank: core/scorewindow.h), and
// each task of it from one atomic read (MULTI/EXEC off a cluster) of its set entry, record, run
// entry and error, so a queue that changes meanwhile never yields a half-updated task. A task
// that leaves its set between the window and its read is left out (it was acked, cancelled or
// moved on); one that moves to a set not read yet can appear there. Synchronous, throws Error.
class TaskExport
{
public:
    TaskExport(Queue& queue, std::vector<TaskSet> sets, int step = 500);
    ~TaskExport();

    // Only tasks whose id or payload contains `text` (empty: every task).
    void setMatch(std::string text) { m_match = std::move(text); }

    // The next window's tasks (possibly none when --match left them all out); none and
    // atEnd() once every set is read.
    std::vector<Task> next();
    bool atEnd() const { return m_setIndex >= m_sets.size(); }
    // Listed ids without a readable record: not exported, since there is nothing to bring back.
    long long brokenSkipped() const { return m_broken; }
    // How many tasks the sets held when the export started (for progress).
    long long total();

    // The tasks with these ids (at most 1000), each from one atomic read, in the given order;
    // ids found in no set, or broken, are left out.
    static std::vector<Task> readIds(Queue& queue, const std::vector<std::string>& ids);

private:
    std::vector<Task> readWindow(TaskSet set, const std::vector<std::string>& ids);
    bool matches(const Task& task) const;

    Queue& m_queue;
    std::vector<TaskSet> m_sets;
    int m_step;
    std::string m_match;
    size_t m_setIndex = 0;
    size_t m_shard = 0; // of a sharded queue, read one after the other
    // The current set's walk in due order (core/scorewindow.h).
    std::unique_ptr<ScoreWindow> m_window;
    long long m_broken = 0;
    long long m_total = -1;
};

} // namespace delayq
