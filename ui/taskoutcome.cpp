#include "taskoutcome.h"

#include <QObject>

namespace delayq::ui {

TaskOutcome outcomeOf(delayq::IdResult::Status status)
{
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
    switch (outcome) {
    case TaskOutcome::Done:
        return QStringLiteral("done");
    case TaskOutcome::Created:
        return QStringLiteral("created");
    case TaskOutcome::Replaced:
        return QStringLiteral("replaced");
    case TaskOutcome::NotFound:
        return QStringLiteral("not_found");
    case TaskOutcome::Active:
        return QStringLiteral("active");
    case TaskOutcome::Dead:
        return QStringLiteral("dead");
    case TaskOutcome::Pending:
        return QStringLiteral("pending");
    case TaskOutcome::Exists:
        return QStringLiteral("exists");
    case TaskOutcome::TooLarge:
        return QStringLiteral("too_large");
    }
    return {};
}

QString actionVerb(TaskAction action)
{
    switch (action) {
    case TaskAction::Push:
        return QObject::tr("push");
    case TaskAction::Cancel:
        return QObject::tr("cancel");
    case TaskAction::Reschedule:
        return QObject::tr("reschedule");
    case TaskAction::Requeue:
        return QObject::tr("requeue");
    case TaskAction::DeleteDead:
        return QObject::tr("delete");
    }
    return {};
}

} // namespace delayq::ui
