#include "client/taskaction.h"

#include <QCoreApplication>
#include <QObject>

namespace delayq::ui {

namespace {

// The words of an action, in the order of the enum.
struct ActionWords
{
    const char* verb;
    const char* pastTense;
};
const ActionWords kActionWords[] = {{QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "push"),
                                     QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "Pushed")},
                                    {QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "cancel"),
                                     QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "Cancelled")},
                                    {QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "reschedule"),
                                     QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "Rescheduled")},
                                    // Run now is a reschedule, and is worded as one.
                                    {QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "reschedule"),
                                     QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "Rescheduled")},
                                    {QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "requeue"),
                                     QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "Requeued")},
                                    {QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "delete"),
                                     QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "Deleted")},
                                    {QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "purge"),
                                     QT_TRANSLATE_NOOP("delayq::ui::TaskAction", "Purged")}};

} // namespace

ActionOutcome outcomeOf(delayq::IdResult::Status status)
{
    // No default: a new core status must be given its outcome here (-Wswitch says so).
    switch (status) {
    case delayq::IdResult::Status::Done:
        return ActionOutcome::Done;
    case delayq::IdResult::Status::NotFound:
        return ActionOutcome::NotFound;
    case delayq::IdResult::Status::Active:
        return ActionOutcome::Active;
    case delayq::IdResult::Status::Dead:
        return ActionOutcome::Dead;
    case delayq::IdResult::Status::Pending:
        return ActionOutcome::Pending;
    case delayq::IdResult::Status::Exists:
    case delayq::IdResult::Status::Moved:
        return ActionOutcome::Exists;
    }
    return ActionOutcome::NotFound;
}

ActionOutcome outcomeOf(delayq::PushResult::Status status)
{
    switch (status) {
    case delayq::PushResult::Status::Created:
        return ActionOutcome::Created;
    case delayq::PushResult::Status::Exists:
        return ActionOutcome::Exists;
    case delayq::PushResult::Status::Replaced:
        return ActionOutcome::Replaced;
    case delayq::PushResult::Status::TooLarge:
        return ActionOutcome::TooLarge;
    case delayq::PushResult::Status::Active:
        return ActionOutcome::Active;
    case delayq::PushResult::Status::Debounced:
        return ActionOutcome::Debounced;
    case delayq::PushResult::Status::FollowUp:
        return ActionOutcome::FollowUp;
    case delayq::PushResult::Status::RecentlyDone:
        return ActionOutcome::RecentlyDone;
    }
    return ActionOutcome::Exists;
}

bool succeeded(ActionOutcome outcome)
{
    return outcome == ActionOutcome::Done || outcome == ActionOutcome::Created ||
           outcome == ActionOutcome::Replaced || outcome == ActionOutcome::Debounced ||
           outcome == ActionOutcome::FollowUp;
}

QString outcomeName(ActionOutcome outcome)
{
    // In the order of the enum.
    static const char* const names[] = {"done",      "created",   "replaced",  "not_found",
                                        "active",    "dead",      "pending",   "exists",
                                        "too_large", "debounced", "follow_up", "recently_done"};
    return QString::fromLatin1(names[static_cast<int>(outcome)]);
}

QString actionVerb(TaskAction action)
{
    return QCoreApplication::translate("delayq::ui::TaskAction",
                                       kActionWords[static_cast<int>(action)].verb);
}

QString actionPastTense(TaskAction action)
{
    return QCoreApplication::translate("delayq::ui::TaskAction",
                                       kActionWords[static_cast<int>(action)].pastTense);
}

} // namespace delayq::ui
