#pragma once

#include <optional>
#include <string>
#include <vector>

namespace delayq {

// One event of a task's life, as the scripts record it when the queue's `history` setting is on
// (docs/design.md, "Task history"). Times are ms since the Unix epoch (UTC).
struct TaskEvent
{
    long long at = 0;
    // pushed | claimed | failed | died | expired | rescheduled | requeued | acked | cancelled
    std::string kind;
    std::optional<long long> due; // when the task is (or was, for claimed) due after it
    std::string who;  // the worker, or the operator as "os_user@host (tool)"; empty for none
    std::string text; // claimed: "attempt N"; failed, died: the error; cancelled: "forced"
};

struct TaskHistory
{
    std::vector<TaskEvent> events; // oldest first
    // The task has left the queue (acked or cancelled): these are its kept last events.
    bool finished = false;
};

// The stored form, "ms|kind|due|who|text" a line, both ways. A line that is not an event is
// skipped when reading: a damaged history never hides the rest.
std::vector<TaskEvent> parseTaskEvents(const std::string& stored);
std::string formatTaskEvents(const std::vector<TaskEvent>& events);

} // namespace delayq
