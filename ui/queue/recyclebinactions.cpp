#include "queue/recyclebinactions.h"

#include "client/adminclient.h"
#include "client/binclient.h"
#include "client/matchclient.h"
#include "client/matchtypes.h"
#include "client/queueclient.h"
#include "client/taskclient.h"
#include "client/tasktypes.h"
#include "queue/recyclebindialog.h"

#include <QAction>
#include <QLocale>
#include <QTimer>
#include <QToolButton>
#include <QWidget>

namespace delayq::ui {

namespace {

// How long the Undo stays offered after a removal; the bin keeps the tasks longer (bin_keep),
// and the Queue menu's view restores them then.
constexpr int kUndoOfferedMs = 120000;
constexpr quint64 kUndoTagBase = 0x0b1a000000000000ULL;
// The most of a queue's name the Undo says (its tooltip has it whole): the status bar shares
// a laptop's width with the connection's line.
constexpr int kUndoQueueChars = 24;

} // namespace

QString undoText(TaskAction removal, const QString& queue, qint64 tasks)
{
    const QString n = QLocale().toString(tasks);
    QString text;
    if (removal == TaskAction::Purge) {
        QString name = queue.size() > kUndoQueueChars
                           ? queue.left(kUndoQueueChars - 1) + QStringLiteral("…")
                           : queue;
        name.replace(QLatin1Char('&'), QStringLiteral("&&"));
        text = tasks == 1 ? RecycleBinActions::tr("Undo purge of %1 (1 task)").arg(name)
                          : RecycleBinActions::tr("Undo purge of %1 (%2 tasks)").arg(name, n);
    } else if (removal == TaskAction::DeleteDead) {
        text = tasks == 1 ? RecycleBinActions::tr("Undo delete of 1 dead task")
                          : RecycleBinActions::tr("Undo delete of %1 dead tasks").arg(n);
    } else {
        text = tasks == 1 ? RecycleBinActions::tr("Undo cancel of 1 task")
                          : RecycleBinActions::tr("Undo cancel of %1 tasks").arg(n);
    }
    return text;
}

QString restoreSummary(const BinRestoreResult& result)
{
    QString text = result.restored == 1
                       ? RecycleBinActions::tr("Restored 1 task to queue %1.").arg(result.queue)
                       : RecycleBinActions::tr("Restored %1 tasks to queue %2.")
                             .arg(result.restored)
                             .arg(result.queue);
    if (!result.exists.isEmpty())
        text += QLatin1Char(' ') +
                RecycleBinActions::tr("Not restored, a task with the same id is in the queue "
                                      "again: %1.")
                    .arg(QStringList(result.exists.mid(0, 5)).join(QStringLiteral(", ")));
    if (result.gone > 0)
        text += QLatin1Char(' ') +
                RecycleBinActions::tr("No longer in the recycle bin: %1.").arg(result.gone);
    return text;
}

RecycleBinActions::RecycleBinActions(AdminClient* client, QWidget* window)
    : QObject(window), m_client(client), m_window(window), m_undo(new QToolButton(window)),
      m_view(new QAction(tr("Recycle &Bin…"), this)), m_expiry(new QTimer(this))
{
    m_undo->setText(tr("Undo"));
    m_undo->setObjectName(QStringLiteral("undoRemoval"));
    // A tool button is a few pixels taller than the status bar's labels: its height is left
    // out of the bar's, so the window still fits a 1024 x 700 screen.
    m_undo->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    m_undo->setAutoRaise(true);
    m_undo->hide();
    m_view->setObjectName(QStringLiteral("recycleBin"));
    m_view->setToolTip(tr("What cancel, purge and delete of dead tasks removed and can still be "
                          "restored, with the audit entry each came from"));
    m_view->setEnabled(false);
    m_expiry->setSingleShot(true);
    connect(m_expiry, &QTimer::timeout, this, &RecycleBinActions::withdraw);
    connect(m_undo, &QToolButton::clicked, this, &RecycleBinActions::undo);
    connect(m_view, &QAction::triggered, this, &RecycleBinActions::openView);
    connect(m_client->bin(), &BinClient::restored, this, &RecycleBinActions::onRestored);
    // Every removal the window makes: a selection's, a search's matches', a queue-wide one.
    connect(m_client->tasks(), &TaskClient::actionFinished, this, [this](const ActionResult& r) {
        qint64 done = 0;
        for (const auto& o : r.outcomes)
            done += o.outcome == ActionOutcome::Done;
        if (r.error.isEmpty() &&
            (r.action == TaskAction::Cancel || r.action == TaskAction::DeleteDead))
            offer(r.action, r.queue, r.binAction, done);
    });
    connect(m_client->matches(), &MatchClient::applied, this, [this](const MatchApplyResult& r) {
        if (r.finished && (r.action == TaskAction::Cancel || r.action == TaskAction::DeleteDead))
            offer(r.action, r.queue, r.binAction, r.done);
    });
    connect(m_client->queues(), &QueueClient::bulkFinished, this,
            [this](const BulkActionResult& r) {
                if (r.action == TaskAction::Purge || r.action == TaskAction::DeleteDead)
                    offer(r.action, r.queue, r.binAction, r.done);
            });
}

void RecycleBinActions::setQueue(const QString& queue, bool plain)
{
    m_queue = queue;
    m_plain = plain;
    m_view->setEnabled(!queue.isEmpty() && !plain);
}

void RecycleBinActions::setReadOnly(bool readOnly)
{
    m_readOnly = readOnly;
    m_undo->setEnabled(!readOnly);
}

void RecycleBinActions::offer(TaskAction removal, const QString& queue, const QString& action,
                              qint64 tasks)
{
    if (action.isEmpty() || tasks <= 0)
        return;
    m_offeredQueue = queue;
    m_action = action;
    // Named on the button itself: an Undo that said only "Undo" left the operator to guess
    // which of their last actions it would take back.
    m_undo->setText(undoText(removal, queue, tasks));
    m_undo->setToolTip(tasks == 1
                           ? tr("Put the task just removed from queue %1 back as it was").arg(queue)
                           : tr("Put the %1 tasks just removed from queue %2 back as they were")
                                 .arg(tasks)
                                 .arg(queue));
    m_undo->setEnabled(!m_readOnly);
    m_undo->show();
    m_expiry->start(kUndoOfferedMs);
}

void RecycleBinActions::withdraw()
{
    m_action.clear();
    m_undo->hide();
    m_expiry->stop();
}

void RecycleBinActions::undo()
{
    if (m_action.isEmpty())
        return;
    m_tag = kUndoTagBase + (m_tag & 0xffffffff) + 1;
    m_client->bin()->restore(m_tag, m_offeredQueue, m_action);
    withdraw();
}

void RecycleBinActions::onRestored(const BinRestoreResult& result)
{
    if (result.tag != m_tag)
        return; // the view's own restore: it reports it
    if (!result.error.isEmpty()) {
        emit resultReported(result.error.text(), false);
        return;
    }
    emit resultReported(restoreSummary(result), result.exists.isEmpty() && result.gone == 0);
    emit refreshRequested();
}

void RecycleBinActions::openView()
{
    if (m_queue.isEmpty() || m_plain)
        return;
    auto* dialog = new RecycleBinDialog(m_client, m_queue, m_readOnly, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RecycleBinDialog::resultReported, this, &RecycleBinActions::resultReported);
    connect(dialog, &RecycleBinDialog::restored, this, &RecycleBinActions::refreshRequested);
    dialog->show();
    emit dialogOpened(dialog);
}

} // namespace delayq::ui
