#include "queue/queueactions.h"

#include "client/adminclient.h"
#include "client/queueclient.h"
#include "client/taskclient.h"
#include "plain/plaintooltip.h"
#include "queue/purgedialog.h"
#include "widgets/confirmation.h"
#include "widgets/stepprogress.h"

#include <QAction>
#include <QCoreApplication>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressDialog>

namespace delayq::ui {

namespace {

// "1 task", "12,345 dead tasks"
QString runningLabel(TaskAction action, const QString& queue, qint64 done, qint64 total)
{
    const QString of = total < 0
                           ? QLocale().toString(done)
                           : QCoreApplication::translate("delayq::ui::QueueActions", "%1 of %2")
                                 .arg(QLocale().toString(done), QLocale().toString(total));
    switch (action) {
    case TaskAction::Requeue:
        return QCoreApplication::translate("delayq::ui::QueueActions",
                                           "Requeueing the dead tasks of %1: %2…")
            .arg(queue, of);
    case TaskAction::DeleteDead:
        return QCoreApplication::translate("delayq::ui::QueueActions",
                                           "Deleting the dead tasks of %1: %2…")
            .arg(queue, of);
    default: // Purge: the one other queue-wide change
        break;
    }
    return QCoreApplication::translate("delayq::ui::QueueActions", "Purging %1: %2 tasks…")
        .arg(queue, of);
}

} // namespace

QueueActions::QueueActions(AdminClient* client, QWidget* window) : WriteActions(client, window)
{
    auto make = [this](const QString& text, const QString& tip) {
        auto* action = new QAction(text, this);
        action->setStatusTip(tip);
        action->setData(tip); // the tooltip to restore when the reason to be off ends
        return action;
    };
    m_requeueAll = make(tr("Requeue all dead…"),
                        tr("Put every dead task of the queue back in pending, due now"));
    m_deleteAll = make(tr("Delete all dead…"), tr("Delete every dead task of the queue for good"));
    m_purge = make(tr("Purge queue…"),
                   tr("Delete every task of the queue (pending, active, dead); config and stats "
                      "stay"));
    connect(m_requeueAll, &QAction::triggered, this, [this] { ask(TaskAction::Requeue); });
    connect(m_deleteAll, &QAction::triggered, this, [this] { ask(TaskAction::DeleteDead); });
    connect(m_purge, &QAction::triggered, this, [this] { ask(TaskAction::Purge); });
    connect(client->tasks(), &TaskClient::countsLoaded, this, &QueueActions::onCounts);
    connect(client->queues(), &QueueClient::bulkProgressed, this, &QueueActions::onProgress);
    connect(client->queues(), &QueueClient::bulkFinished, this, &QueueActions::onFinished);
    updateEnabled();
}

void QueueActions::updateEnabled()
{
    QString why;
    if (m_readOnly)
        why = tr("Read-only: %1").arg(m_readOnlyReason);
    else if (m_queue.isEmpty())
        why = tr("Open a queue, or select one in the Overview");
    else if (m_plain)
        why = tr("Not for a plain sorted set: it has no dead tasks, and Cancel removes members");
    else if (m_running != 0 || m_countsTag != 0)
        why = tr("A queue-wide action is already under way");
    // The texts name the queue a click acts on (on the Overview: the row selected there).
    const bool named = !m_queue.isEmpty() && !m_plain;
    const QString name = m_queue.size() > 24 ? m_queue.left(23) + QChar(0x2026) : m_queue;
    m_requeueAll->setText(named ? tr("Requeue all dead of %1…").arg(name)
                                : tr("Requeue all dead…"));
    m_deleteAll->setText(named ? tr("Delete all dead of %1…").arg(name) : tr("Delete all dead…"));
    m_purge->setText(named ? tr("Purge %1…").arg(name) : tr("Purge queue…"));
    for (QAction* action : actions()) {
        action->setEnabled(why.isEmpty());
        action->setToolTip(why.isEmpty() ? action->data().toString() : plainToolTip(why));
    }
}

PurgeDialog* QueueActions::purgeDialog() const
{
    return m_purgeDialog;
}

QProgressDialog* QueueActions::progressDialog() const
{
    return m_progress;
}

void QueueActions::ask(TaskAction action)
{
    if (!m_purge->isEnabled())
        return;
    // Asks with the counts as they are now, not as the last refresh saw them.
    m_asked = action;
    m_countsTag = AdminClient::newTag();
    m_client->tasks()->loadCounts(m_countsTag, m_queue);
    updateEnabled();
}

void QueueActions::onCounts(const CountsResult& counts)
{
    if (counts.tag != m_countsTag || m_countsTag == 0)
        return;
    m_countsTag = 0;
    updateEnabled();
    // The operator moved on (another queue, a plain key, read-only) while the counts came.
    if (counts.queue != m_queue || !m_purge->isEnabled())
        return;
    const QString queue = counts.queue;
    if (!counts.error.isEmpty()) {
        emit resultReported(
            tr("Could not read the counts of queue %1: %2").arg(queue, counts.error.message),
            false);
        return;
    }
    if (m_asked == TaskAction::Purge) {
        const qint64 total = counts.pending + counts.active + counts.dead;
        if (total == 0) {
            emit resultReported(tr("Queue %1 has no tasks: nothing to purge.").arg(queue), true);
            return;
        }
        m_confirmed = total;
        auto* dialog = new PurgeDialog(queue, counts.pending, counts.active, counts.dead, m_window);
        connect(dialog, &QDialog::accepted, this, [this, dialog] {
            if (!m_readOnly && m_running == 0)
                start(TaskAction::Purge, dialog->queue());
        });
        m_purgeDialog = dialog;
        showDialog(dialog);
        return;
    }
    if (counts.dead == 0) {
        emit resultReported(tr("Queue %1 has no dead tasks.").arg(queue), true);
        return;
    }
    const bool requeue = m_asked == TaskAction::Requeue;
    m_confirmed = counts.dead;
    Confirmation confirmation;
    confirmation.icon = QMessageBox::Warning;
    confirmation.rejectText = tr("Keep");
    if (requeue) {
        confirmation.title = tr("Requeue all dead tasks");
        confirmation.text = tr("Move all %1 of queue %2 back to pending, due now?\n\nEach starts "
                               "again with no attempts used. Tasks that die while this runs stay "
                               "dead.")
                                .arg(Confirmation::tasks(counts.dead, tr("dead")), queue);
        confirmation.acceptText = tr("Requeue %1").arg(Confirmation::tasks(counts.dead, QString()));
        confirmation.rejectText = tr("Leave them dead");
    } else {
        confirmation.title = tr("Delete all dead tasks");
        confirmation.text = tr("Delete all %1 of queue %2 for good?\n\nThis cannot be undone.")
                                .arg(Confirmation::tasks(counts.dead, tr("dead")), queue);
        confirmation.acceptText = tr("Delete %1").arg(Confirmation::tasks(counts.dead, QString()));
    }
    const bool yes = confirm(confirmation);
    if (yes && !m_readOnly && m_running == 0)
        start(m_asked, queue);
}

void QueueActions::start(TaskAction action, const QString& queue)
{
    m_running = AdminClient::newTag();
    m_runningAction = action;
    m_runningQueue = queue;
    updateEnabled();

    auto* label = new QLabel;
    label->setTextFormat(Qt::PlainText); // the queue name is shown as it is
    label->setText(runningLabel(action, queue, 0, -1));
    auto* progress = StepProgress::make(
        m_window, action == TaskAction::Purge ? tr("Purge queue") : tr("Dead tasks"), tr("Cancel"));
    progress->setLabel(label);
    connect(progress, &QProgressDialog::canceled, this, &QueueActions::cancelRunning);
    progress->setValue(0);
    m_progress = progress;

    switch (action) {
    case TaskAction::Requeue:
        m_client->queues()->requeueAllDead(m_running, queue, m_confirmed, m_batch);
        break;
    case TaskAction::DeleteDead:
        m_client->queues()->deleteAllDead(m_running, queue, m_confirmed, m_batch);
        break;
    case TaskAction::Purge:
        m_client->queues()->purge(m_running, queue, m_confirmed, m_batch);
        break;
    default: // ask() offers only the three queue-wide changes
        break;
    }
}

void QueueActions::cancelRunning()
{
    if (m_running == 0)
        return;
    m_client->queues()->cancelBulk(m_running);
    if (m_progress)
        m_progress->setLabelText(tr("Stopping after the current step…"));
}

void QueueActions::onProgress(quint64 tag, qint64 done, qint64 total)
{
    if (tag != m_running)
        return;
    StepProgress::step(m_progress, done, total,
                       runningLabel(m_runningAction, m_runningQueue, done, total));
}

void QueueActions::onFinished(const BulkActionResult& result)
{
    if (result.tag != m_running)
        return;
    m_running = 0;
    if (m_progress) {
        // hide(), not close(): closing a progress dialog reports a cancel.
        m_progress->hide();
        m_progress->deleteLater();
    }
    updateEnabled();
    const QString summary = summarize(result);
    const bool ok = result.error.isEmpty() && !result.cancelled;
    emit resultReported(summary, ok);
    if (!result.error.isEmpty()) {
        auto* box =
            new QMessageBox(QMessageBox::Warning, tr("Result"), summary, QMessageBox::Ok, m_window);
        box->setTextFormat(Qt::PlainText);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit refreshRequested();
}

QString QueueActions::summarize(const BulkActionResult& r)
{
    const QString dead = tr("dead");
    QString done;
    switch (r.action) {
    case TaskAction::Requeue:
        done = tr("Requeued %1 of %2: they are pending again, due now.")
                   .arg(Confirmation::tasks(r.done, dead), r.queue);
        break;
    case TaskAction::DeleteDead:
        done = tr("Deleted %1 of %2 for good.").arg(Confirmation::tasks(r.done, dead), r.queue);
        break;
    case TaskAction::Purge:
        done = tr("Purged %1 from %2.").arg(Confirmation::tasks(r.done), r.queue);
        break;
    default: // no other action runs queue-wide
        break;
    }
    if (!r.error.isEmpty())
        return tr("Stopped by an error: %1 %2").arg(r.error.message, done);
    if (r.cancelled)
        return tr("Cancelled: %1 The rest are still there.").arg(done);
    // It stops at the count that was confirmed; what came since is the operator's call.
    if (r.left > 0)
        return (r.action == TaskAction::Purge
                    ? tr("%1 %2 arrived while it ran and stay: purge again for them.")
                    : tr("%1 %2 died while it ran and stay dead: run it again for them."))
            .arg(done,
                 Confirmation::tasks(r.left, r.action == TaskAction::Purge ? QString() : dead));
    return done;
}

} // namespace delayq::ui
