#pragma once

#include <delayq/task.h>

#include <QString>

namespace delayq::ui {

// What the app asked of a list of tasks.
enum class TaskAction
{
    Push,
    Cancel,
    Reschedule,
    Requeue,
    DeleteDead
};

// What happened to one task of an action: the core's push and id statuses in one list,
// so a view counts and words them without comparing strings.
enum class TaskOutcome
{
    Done,
    Created,
    Replaced,
    NotFound,
    Active,
    Dead,
    Pending,
    Exists,
    TooLarge
};

TaskOutcome outcomeOf(delayq::IdResult::Status status);
TaskOutcome outcomeOf(delayq::PushResult::Status status);
// The action did to this task what was asked.
bool succeeded(TaskOutcome outcome);
// Stable lower-case name, for logs and the details of a result box ("not_found").
QString outcomeName(TaskOutcome outcome);
// The verb of the action, for "Could not cancel: ...".
QString actionVerb(TaskAction action);
// The action done, for "Cancelled 3 tasks".
QString actionPastTense(TaskAction action);

} // namespace delayq::ui
