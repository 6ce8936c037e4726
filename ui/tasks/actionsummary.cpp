#include "tasks/actionsummary.h"

#include "client/membertext.h"
#include "widgets/duetext.h"

#include <QCoreApplication>
#include <QLocale>
#include <QMap>
#include <QObject>

namespace delayq::ui {

namespace {

// What happened to `n` tasks, worded for one or for several (the app has no English
// translation that would give a %n text its singular).
QString describe(ActionOutcome outcome, TaskAction action, qint64 n)
{
    const bool one = n == 1;
    switch (outcome) {
    case ActionOutcome::NotFound:
        return QCoreApplication::translate("delayq::ui::ActionSummary", "no longer existed");
    case ActionOutcome::Active:
        if (action == TaskAction::Push)
            return one ? QCoreApplication::translate("delayq::ui::ActionSummary",
                                                     "was running, so not replaced")
                       : QCoreApplication::translate("delayq::ui::ActionSummary",
                                                     "were running, so not replaced");
        return one ? QCoreApplication::translate("delayq::ui::ActionSummary",
                                                 "was already running and was not changed")
                   : QCoreApplication::translate("delayq::ui::ActionSummary",
                                                 "were already running and were not changed");
    case ActionOutcome::Dead:
        return one ? QCoreApplication::translate("delayq::ui::ActionSummary",
                                                 "was dead (requeue it from the Dead tab)")
                   : QCoreApplication::translate("delayq::ui::ActionSummary",
                                                 "were dead (requeue them from the Dead tab)");
    case ActionOutcome::Pending:
        return one ? QCoreApplication::translate("delayq::ui::ActionSummary",
                                                 "was pending, not dead")
                   : QCoreApplication::translate("delayq::ui::ActionSummary",
                                                 "were pending, not dead");
    case ActionOutcome::Exists:
        return one ? QCoreApplication::translate(
                         "delayq::ui::ActionSummary",
                         "already existed with that id and was left as it was")
                   : QCoreApplication::translate(
                         "delayq::ui::ActionSummary",
                         "already existed with that id and were left as they were");
    case ActionOutcome::TooLarge:
        return one ? QCoreApplication::translate("delayq::ui::ActionSummary",
                                                 "was larger than the queue's max_payload")
                   : QCoreApplication::translate("delayq::ui::ActionSummary",
                                                 "were larger than the queue's max_payload");
    case ActionOutcome::RecentlyDone:
        return one ? QCoreApplication::translate(
                         "delayq::ui::ActionSummary",
                         "finished within its dedup window and was not pushed again")
                   : QCoreApplication::translate(
                         "delayq::ui::ActionSummary",
                         "finished within their dedup window and were not pushed again");
    case ActionOutcome::Done:
    case ActionOutcome::Created:
    case ActionOutcome::Replaced:
    case ActionOutcome::Debounced:
    case ActionOutcome::FollowUp:
        break;
    }
    return outcomeName(outcome);
}

} // namespace

QString ActionSummary::of(const ActionResult& result, bool utc)
{
    if (!result.error.isEmpty())
        return QCoreApplication::translate("delayq::ui::ActionSummary", "Could not %1: %2")
            .arg(actionVerb(result.action), result.error.message);
    if (result.action == TaskAction::Push && result.outcomes.size() == 1) {
        const IdOutcome& pushed = result.outcomes.first();
        const QString id = MemberText::displayText(pushed.id.left(80));
        const QString when = DueText::describe(pushed.due, result.serverNow, utc);
        if (pushed.outcome == ActionOutcome::Debounced && pushed.due >= 0)
            return QCoreApplication::translate("delayq::ui::ActionSummary",
                                               "Debounced %1 in queue %2: now due %3.")
                .arg(id, result.queue, when);
        if (pushed.outcome == ActionOutcome::FollowUp && pushed.due >= 0)
            return QCoreApplication::translate("delayq::ui::ActionSummary",
                                               "%1 is running in queue %2: one follow-up is due "
                                               "%3.")
                .arg(id, result.queue, when);
        // The window's end is the due time of the answer (push.lua).
        if (pushed.outcome == ActionOutcome::RecentlyDone && pushed.due >= 0)
            return QCoreApplication::translate("delayq::ui::ActionSummary",
                                               "Not pushed: %1 finished in queue %2 within its "
                                               "dedup window, which ends %3.")
                .arg(id, result.queue, when);
        if (succeeded(pushed.outcome) && pushed.due >= 0)
            return pushed.outcome == ActionOutcome::Created
                       ? QCoreApplication::translate("delayq::ui::ActionSummary",
                                                     "Pushed %1 due %2 to queue %3.")
                             .arg(id, when, result.queue)
                       : QCoreApplication::translate("delayq::ui::ActionSummary",
                                                     "Replaced %1, now due %2, in queue %3.")
                             .arg(id, when, result.queue);
    }
    QMap<ActionOutcome, int> byOutcome;
    int done = 0;
    for (const auto& o : result.outcomes) {
        ++byOutcome[o.outcome];
        done += succeeded(o.outcome) ? 1 : 0;
    }
    const int total = static_cast<int>(result.outcomes.size());
    const QString verb = actionPastTense(result.action);
    QString text = total == 1 ? QCoreApplication::translate("delayq::ui::ActionSummary",
                                                            "%1 %2 of 1 task in queue %3.")
                                    .arg(verb)
                                    .arg(done)
                                    .arg(result.queue)
                              : QCoreApplication::translate("delayq::ui::ActionSummary",
                                                            "%1 %2 of %3 tasks in queue %4.")
                                    .arg(verb)
                                    .arg(done)
                                    .arg(QLocale().toString(total))
                                    .arg(result.queue);
    for (auto it = byOutcome.cbegin(); it != byOutcome.cend(); ++it) {
        if (succeeded(it.key()))
            continue;
        text +=
            QLatin1Char(' ') + QCoreApplication::translate("delayq::ui::ActionSummary", "%1 %2.")
                                   .arg(it.value())
                                   .arg(describe(it.key(), result.action, it.value()));
    }
    return text;
}

QStringList ActionSummary::failures(const ActionResult& result)
{
    QStringList lines;
    for (const auto& o : result.outcomes)
        if (!succeeded(o.outcome) && lines.size() < 200)
            // A plain member can be a whole message: its start names it well enough.
            lines.append(MemberText::displayText(o.id.left(200)) + QStringLiteral(": ") +
                         outcomeName(o.outcome));
    return lines;
}

} // namespace delayq::ui
