#pragma once

#include <delayq/task.h>

#include <QString>

namespace delayq::ui {

// What the operator asks of tasks: of the ones chosen by id, of all that match a filter, or
// (Requeue, DeleteDead, Purge) of every task of a dead set or queue.
enum class TaskAction
{
    Push,
    Cancel,
    Reschedule,
    RunNow, // a reschedule to the server's now
    Requeue,
    DeleteDead,
    Purge
};

// What happened to one task of an action: the core's push and id statuses in one list,
// so a view counts and words them without comparing strings. (Not the worker's
// delayq::TaskOutcome, which says how a handler's run of a task ended.)
enum class ActionOutcome
{
    Done,
    Created,
    Replaced,
    NotFound,
    Active,
    Dead,
    Pending,
    Exists,
    TooLarge,
    // Keep (docs/design/keep.md): a push's pending task moved (debounce), a running one given
    // its follow-up, or the id refused because it finished within its dedup window.
    Debounced,
    FollowUp,
    RecentlyDone
};

ActionOutcome outcomeOf(delayq::IdResult::Status status);
ActionOutcome outcomeOf(delayq::PushResult::Status status);
// The action did to this task what was asked.
bool succeeded(ActionOutcome outcome);
// Stable lower-case name, for logs and the details of a result box ("not_found").
QString outcomeName(ActionOutcome outcome);
// The verb of the action, for "Could not cancel: ...".
QString actionVerb(TaskAction action);
// The action done, for "Cancelled 3 tasks".
QString actionPastTense(TaskAction action);

} // namespace delayq::ui
