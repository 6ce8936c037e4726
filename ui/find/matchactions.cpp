#include "find/matchactions.h"

#include "client/adminclient.h"
#include "client/matchclient.h"
#include "client/membertext.h"
#include "client/taskaction.h"
#include "find/matchfilterdialog.h"
#include <delayq/timeparse.h>

#include <QLocale>
#include <QProgressDialog>

namespace delayq::ui {

MatchActions::MatchActions(MatchClient* client, QWidget* window)
    : QObject(window), m_client(client), m_window(window)
{
    m_confirm = [this](const Confirmation& confirmation) { return confirmation.ask(m_window); };
    connect(client, &MatchClient::counted, this, &MatchActions::onCounted);
    connect(client, &MatchClient::applied, this, &MatchActions::onApplied);
}

QString MatchActions::describe(const MatchFilter& filter, bool utc)
{
    const QString set = filter.set == TaskSet::Dead     ? tr("dead tasks")
                        : filter.set == TaskSet::Active ? tr("active tasks")
                                                        : tr("pending tasks");
    QString text = set;
    if (!filter.text.isEmpty())
        text = (filter.field == delayq::ScanField::Error ? tr("%1 whose last error contains \"%2\"")
                : filter.field == delayq::ScanField::Worker
                    ? tr("%1 held by a worker named like \"%2\"")
                    : tr("%1 whose payload contains \"%2\""))
                   .arg(text, MemberText::displayText(filter.text.left(200)));
    auto when = [utc](qint64 ms) { return QString::fromStdString(delayq::formatTime(ms, utc)); };
    if (filter.toMs >= 0)
        text = tr("%1, before %2").arg(text, when(filter.toMs + 1));
    if (filter.fromMs >= 0)
        text = tr("%1, from %2 on").arg(text, when(filter.fromMs));
    return text;
}

QDialog* MatchActions::ask(const QString& queue, const MatchFilter& filter, qint64 clockOffsetMs)
{
    auto* dialog = new MatchFilterDialog(filter, m_window);
    dialog->setClockOffset(clockOffsetMs);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, queue] {
        const TaskAction action = dialog->action();
        // Run now is a reschedule to the server's now (due -1, delay 0).
        if (action == TaskAction::RunNow)
            run(queue, dialog->filter(), TaskAction::Reschedule, -1, 0);
        else
            run(queue, dialog->filter(), action,
                action == TaskAction::Reschedule ? dialog->dueAtMs() : -1, 0);
    });
    dialog->open();
    return dialog;
}

void MatchActions::run(const QString& queue, const MatchFilter& filter, TaskAction action,
                       qint64 dueAtMs, qint64 delayMs)
{
    if (isBusy()) {
        emit resultReported(tr("A bulk action is already running: wait for it or cancel it"),
                            false);
        return;
    }
    m_queue = queue;
    m_filter = filter;
    m_action = action;
    m_dueAtMs = dueAtMs;
    m_delayMs = delayMs;
    m_tag = AdminClient::newTag();
    showProgress(tr("Counting the matching tasks…"), 0, 0);
    m_client->count(m_tag, queue, filter, kMaxIds);
}

void MatchActions::cancel()
{
    if (m_tag)
        m_client->cancelBulk(m_tag);
}

void MatchActions::showProgress(const QString& label, qint64 value, qint64 total)
{
    if (!m_progress) {
        m_progress = new QProgressDialog(m_window);
        m_progress->setWindowTitle(tr("Tasks that match"));
        m_progress->setCancelButtonText(tr("Cancel"));
        m_progress->setAutoClose(false);
        m_progress->setAutoReset(false);
        m_progress->setMinimumDuration(0);
        connect(m_progress, &QProgressDialog::canceled, this, &MatchActions::cancel);
        m_progress->show();
    }
    m_progress->setLabelText(label);
    // Per mille: a count of millions does not fit an int.
    m_progress->setRange(0, total > 0 ? 1000 : 0);
    if (total > 0)
        m_progress->setValue(int(qMin<qint64>(1000, value * 1000 / total)));
}

void MatchActions::end()
{
    m_tag = 0;
    if (m_progress) {
        m_progress->hide();
        m_progress->deleteLater();
    }
}

void MatchActions::onCounted(const MatchScanResult& step)
{
    if (step.tag != m_tag)
        return;
    QLocale locale;
    if (!step.finished) {
        showProgress(tr("Counting the matching tasks: %1 found, %2 of %3 read")
                         .arg(locale.toString(step.found), locale.toString(step.read),
                              locale.toString(step.total)),
                     step.read, step.total);
        return;
    }
    end();
    if (!step.error.isEmpty() || step.cancelled) {
        emit resultReported(
            step.error.isEmpty()
                ? tr("Counting stopped: nothing was changed")
                : tr("Could not count the matching tasks: %1").arg(step.error.message),
            false);
        return;
    }
    const qint64 n = step.ids.size();
    emit counted(n, step.capped);
    if (n == 0) {
        emit resultReported(tr("No task matches: nothing to do"), true);
        return;
    }
    const QString what = describe(m_filter, false);
    const QString count = Confirmation::tasks(n);
    Confirmation c;
    c.icon = m_action == TaskAction::DeleteDead || m_action == TaskAction::Cancel
                 ? QMessageBox::Warning
                 : QMessageBox::Question;
    const bool runNow = m_action == TaskAction::Reschedule && m_dueAtMs < 0 && m_delayMs == 0;
    switch (m_action) {
    case TaskAction::Cancel:
        c.title = tr("Cancel matching tasks");
        c.acceptText = tr("Cancel %1").arg(count);
        break;
    case TaskAction::Reschedule:
        c.title = runNow ? tr("Run matching tasks now") : tr("Reschedule matching tasks");
        c.acceptText = runNow ? tr("Run %1 now").arg(count) : tr("Reschedule %1").arg(count);
        break;
    case TaskAction::Requeue:
        c.title = tr("Requeue matching tasks");
        c.acceptText = tr("Requeue %1").arg(count);
        break;
    default:
        c.title = tr("Delete matching tasks");
        c.acceptText = tr("Delete %1").arg(count);
    }
    c.text = tr("%1 of queue %2 match: %3.\n\nThe action applies to these %4 tasks only; tasks "
                "that arrive meanwhile are left alone.")
                 .arg(count, m_queue, what, locale.toString(n));
    if (m_action == TaskAction::Reschedule && m_dueAtMs >= 0)
        c.text += QStringLiteral("\n\n") +
                  tr("New due time: %1")
                      .arg(QString::fromStdString(delayq::formatTime(m_dueAtMs, false)));
    if (step.capped)
        c.text += QStringLiteral("\n\n") +
                  tr("The count stopped at %1: more tasks may match. Run it again for the "
                     "others.")
                      .arg(locale.toString(n));
    c.rejectText = tr("Do nothing");
    if (!m_confirm || !m_confirm(c)) {
        emit resultReported(tr("Nothing was changed"), true);
        return;
    }
    m_tag = AdminClient::newTag();
    showProgress(tr("Working…"), 0, n);
    m_client->apply(m_tag, m_queue, m_action, step.ids, m_dueAtMs, m_delayMs);
}

void MatchActions::onApplied(const MatchApplyResult& step)
{
    if (step.tag != m_tag)
        return;
    QLocale locale;
    // "Requeued 15 of 15 dead tasks in orders": the action and the queue, not only counts.
    const QString set = m_filter.set == TaskSet::Dead     ? tr("dead")
                        : m_filter.set == TaskSet::Active ? tr("active")
                                                          : tr("pending");
    if (!step.finished) {
        showProgress(tr("%1 %2 of %3 %4 tasks in %5…", "Requeued 7 of 15 dead tasks in orders…")
                         .arg(actionPastTense(step.action), locale.toString(step.processed()),
                              locale.toString(step.total), set, step.queue),
                     step.processed(), step.total);
        emit progressed(step.processed(), step.total);
        return;
    }
    end();
    QString summary =
        tr("%1 %2 of %3 %4 tasks in %5; already gone: %6; running: %7; in another "
           "set: %8")
            .arg(actionPastTense(step.action), locale.toString(step.done),
                 locale.toString(step.total), set, step.queue, locale.toString(step.gone),
                 locale.toString(step.running), locale.toString(step.other));
    if (step.cancelled)
        summary = tr("Cancelled: %1").arg(summary);
    if (!step.error.isEmpty())
        summary = tr("Stopped by an error (%1): %2").arg(step.error.message, summary);
    emit finished(step);
    emit resultReported(summary,
                        step.error.isEmpty() && !step.cancelled && step.done == step.total);
}

} // namespace delayq::ui
