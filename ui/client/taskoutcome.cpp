#include "client/taskoutcome.h"

#include <QObject>

namespace delayq::ui {

namespace {

// The words of an action, in the order of the enum.
struct ActionWords
{
    const char* verb;
    const char* pastTense;
};
const ActionWords kActionWords[] = {
    {QT_TRANSLATE_NOOP("QObject", "push"), QT_TRANSLATE_NOOP("QObject", "Pushed")},
    {QT_TRANSLATE_NOOP("QObject", "cancel"), QT_TRANSLATE_NOOP("QObject", "Cancelled")},
    {QT_TRANSLATE_NOOP("QObject", "reschedule"), QT_TRANSLATE_NOOP("QObject", "Rescheduled")},
    {QT_TRANSLATE_NOOP("QObject", "requeue"), QT_TRANSLATE_NOOP("QObject", "Requeued")},
    {QT_TRANSLATE_NOOP("QObject", "delete"), QT_TRANSLATE_NOOP("QObject", "Deleted")}};

} // namespace

TaskOutcome outcomeOf(delayq::IdResult::Status status)
{
    // No default: a new core status must be given its outcome here (-Wswitch says so).
    switch (status) {
    case delayq::IdResult::Status::Done:
        return TaskOutcome::Done;
    case delayq::IdResult::Status::NotFound:
        return TaskOutcome::NotFound;
    case delayq::IdResult::Status::Active:
        return TaskOutcome::Active;
    case delayq::IdResult::Status::Dead:
        return TaskOutcome::Dead;
    case delayq::IdResult::Status::Pending:
        return TaskOutcome::Pending;
    }
    return TaskOutcome::NotFound;
}

TaskOutcome outcomeOf(delayq::PushResult::Status status)
{
    switch (status) {
    case delayq::PushResult::Status::Created:
        return TaskOutcome::Created;
    case delayq::PushResult::Status::Exists:
        return TaskOutcome::Exists;
    case delayq::PushResult::Status::Replaced:
        return TaskOutcome::Replaced;
    case delayq::PushResult::Status::TooLarge:
        return TaskOutcome::TooLarge;
    case delayq::PushResult::Status::Active:
        return TaskOutcome::Active;
    }
    return TaskOutcome::Exists;
}

bool succeeded(TaskOutcome outcome)
{
    return outcome == TaskOutcome::Done || outcome == TaskOutcome::Created ||
           outcome == TaskOutcome::Replaced;
}

QString outcomeName(TaskOutcome outcome)
{
    // In the order of the enum.
    static const char* const names[] = {"done", "created", "replaced", "not_found", "active",
                                        "dead", "pending", "exists",   "too_large"};
    return QString::fromLatin1(names[static_cast<int>(outcome)]);
}

QString actionVerb(TaskAction action)
{
    return QObject::tr(kActionWords[static_cast<int>(action)].verb);
}

QString actionPastTense(TaskAction action)
{
    return QObject::tr(kActionWords[static_cast<int>(action)].pastTense);
}

} // namespace delayq::ui
