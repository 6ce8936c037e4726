#include "taskoutcome.h"

#include <QObject>

#include <cstddef>
#include <utility>

namespace delayq::ui {

namespace {

// A core status's outcome; `otherwise` for a status the table does not name.
template <typename Status, std::size_t N>
TaskOutcome lookUp(Status status, const std::pair<Status, TaskOutcome> (&table)[N],
                   TaskOutcome otherwise)
{
    for (const auto& [from, outcome] : table)
        if (from == status)
            return outcome;
    return otherwise;
}

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
    using S = delayq::IdResult::Status;
    static const std::pair<S, TaskOutcome> table[] = {{S::Done, TaskOutcome::Done},
                                                      {S::NotFound, TaskOutcome::NotFound},
                                                      {S::Active, TaskOutcome::Active},
                                                      {S::Dead, TaskOutcome::Dead},
                                                      {S::Pending, TaskOutcome::Pending}};
    return lookUp(status, table, TaskOutcome::NotFound);
}

TaskOutcome outcomeOf(delayq::PushResult::Status status)
{
    using S = delayq::PushResult::Status;
    static const std::pair<S, TaskOutcome> table[] = {{S::Created, TaskOutcome::Created},
                                                      {S::Exists, TaskOutcome::Exists},
                                                      {S::Replaced, TaskOutcome::Replaced},
                                                      {S::TooLarge, TaskOutcome::TooLarge},
                                                      {S::Active, TaskOutcome::Active}};
    return lookUp(status, table, TaskOutcome::Exists);
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
