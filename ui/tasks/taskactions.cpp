#include "tasks/taskactions.h"

#include "client/adminclient.h"
#include "client/membertext.h"
#include "client/taskclient.h"
#include "find/findbar.h"
#include "find/matchactions.h"
#include "plain/plaintooltip.h"
#include "tasks/actionsummary.h"
#include "tasks/pushdialog.h"
#include "tasks/rescheduledialog.h"
#include "tasks/taskclipboard.h"
#include "tasks/taskmenu.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "widgets/duetext.h"

#include <QAction>
#include <QDateTime>
#include <QEvent>
#include <QItemSelectionModel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QTableView>
#include <QToolBar>

namespace delayq::ui {

namespace {

// Both QToolBar and QMenu have addAction(QAction*) and addSeparator(), but no common base
// that does.
template <typename Bar> void addGroups(Bar* bar, const QList<QList<QAction*>>& groups)
{
    for (qsizetype i = 0; i < groups.size(); ++i) {
        if (i > 0)
            bar->addSeparator();
        for (QAction* a : groups.at(i))
            bar->addAction(a);
    }
}

} // namespace

void TaskActions::addTo(QToolBar* bar) const
{
    addGroups(bar,
              {{m_push, m_cancel, m_reschedule, m_requeue, m_deleteDead}, {m_refresh, m_find}});
}

void TaskActions::addTo(QMenu* menu) const
{
    addGroups(menu, {{m_push, m_cancel, m_reschedule, m_runNow},
                     {m_requeue, m_deleteDead},
                     {m_actOnMatches},
                     {m_find, m_refresh}});
}

TaskActions::TaskActions(AdminClient* client, TaskTabs* tabs, QWidget* window)
    : WriteActions(client, window), m_tabs(tabs)
{
    auto make = [this](const QString& text, const QKeySequence& key, const QString& tip) {
        auto* action = new QAction(text, this);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WindowShortcut);
        action->setToolTip(tip);
        action->setStatusTip(tip);
        action->setData(tip); // the tooltip to restore when read-only ends
        m_window->addAction(action);
        return action;
    };
    m_push = make(tr("&Push…"), QKeySequence(Qt::CTRL | Qt::Key_N), tr("Push tasks (Ctrl+N)"));
    m_cancel = make(tr("&Cancel"), QKeySequence(Qt::Key_Delete),
                    tr("Cancel the selected pending tasks (Del)"));
    m_reschedule = make(tr("&Reschedule…"), QKeySequence(Qt::CTRL | Qt::Key_R),
                        tr("Reschedule the selected pending tasks (Ctrl+R)"));
    m_runNow = make(tr("Run &now"), QKeySequence(), tr("Make the selected pending tasks due now"));
    m_actOnMatches =
        make(tr("Act on &matching tasks…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M),
             tr("Cancel, reschedule, requeue or delete every task a filter matches"));
    m_requeue = make(tr("Re&queue"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
                     tr("Put the selected dead tasks back in pending, due now"));
    m_deleteDead = make(tr("&Delete"), QKeySequence(Qt::SHIFT | Qt::Key_Delete),
                        tr("Delete the selected dead tasks for good"));
    m_refresh = make(tr("Re&fresh"), QKeySequence(Qt::Key_F5), tr("Refresh now (F5)"));
    m_find = make(tr("&Find…"), QKeySequence(Qt::CTRL | Qt::Key_F),
                  tr("Find a task by id or jump to a time (Ctrl+F)"));

    connect(m_push, &QAction::triggered, this, &TaskActions::onPush);
    connect(m_cancel, &QAction::triggered, this, &TaskActions::onCancel);
    connect(m_reschedule, &QAction::triggered, this, &TaskActions::onReschedule);
    connect(m_runNow, &QAction::triggered, this, &TaskActions::onRunNow);
    connect(m_actOnMatches, &QAction::triggered, this, [this] {
        MatchFilter filter;
        filter.set = m_tabs->current()->set();
        actOn(filter);
    });
    connect(tabs, &TaskTabs::actOnMatchesRequested, this, &TaskActions::actOn);
    m_matchActions = new MatchActions(tabs->matchClient(), window);
    connect(m_matchActions, &MatchActions::resultReported, this, &TaskActions::resultReported);
    connect(m_matchActions, &MatchActions::finished, this, &TaskActions::refreshRequested);
    m_clipboard = new TaskClipboard(client, this);
    connect(m_clipboard, &TaskClipboard::copied, this,
            [this](const QString& what) { emit resultReported(tr("Copied %1").arg(what), true); });
    m_menu = new TaskMenu(this, tabs, m_clipboard, this);
    connect(m_requeue, &QAction::triggered, this, &TaskActions::onRequeue);
    connect(m_deleteDead, &QAction::triggered, this, &TaskActions::onDeleteDead);
    connect(m_refresh, &QAction::triggered, this, &TaskActions::refreshRequested);
    connect(m_find, &QAction::triggered, tabs, &TaskTabs::showFind);
    connect(client->tasks(), &TaskClient::actionFinished, this, &TaskActions::onFinished);
    connect(tabs, &TaskTabs::currentTaskChanged, this, &TaskActions::updateEnabled);
    for (auto set : {TaskSet::Pending, TaskSet::Active, TaskSet::Dead})
        connect(tabs->table(set)->view()->selectionModel(), &QItemSelectionModel::selectionChanged,
                this, &TaskActions::updateEnabled);
    tabs->installEventFilter(this);
    updateEnabled();
}

bool TaskActions::tablesShown() const
{
    return m_tabs->isVisibleTo(m_window);
}

bool TaskActions::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_tabs && (event->type() == QEvent::Show || event->type() == QEvent::Hide))
        updateEnabled();
    return WriteActions::eventFilter(watched, event);
}

QList<QAction*> TaskActions::writeActions() const
{
    return {m_push, m_cancel, m_reschedule, m_runNow, m_requeue, m_deleteDead, m_actOnMatches};
}

void TaskActions::updateEnabled()
{
    const TaskSet set = m_tabs->current()->set();
    const bool selected =
        tablesShown() && m_tabs->current()->view()->selectionModel()->hasSelection();
    const bool open = !m_queue.isEmpty();
    m_push->setEnabled(!m_readOnly);
    m_cancel->setEnabled(!m_readOnly && open && selected && set == TaskSet::Pending);
    m_reschedule->setEnabled(!m_readOnly && open && selected && set == TaskSet::Pending);
    m_runNow->setEnabled(m_reschedule->isEnabled());
    m_actOnMatches->setEnabled(!m_plain && !m_readOnly && open && tablesShown() &&
                               set != TaskSet::Active);
    m_tabs->findBar()->setWritable(!m_readOnly);
    m_requeue->setEnabled(!m_plain && !m_readOnly && open && selected && set == TaskSet::Dead);
    m_deleteDead->setEnabled(!m_plain && !m_readOnly && open && selected && set == TaskSet::Dead);
    for (auto* action : writeActions())
        action->setToolTip(m_readOnly ? plainToolTip(tr("Read-only: %1").arg(m_readOnlyReason))
                                      : action->data().toString());
    m_refresh->setEnabled(open);
    m_find->setEnabled(open);
}

void TaskActions::setConfirmHandler(ConfirmHandler handler)
{
    m_confirm = handler;
    m_matchActions->setConfirmHandler(std::move(handler));
}

void TaskActions::actOn(const MatchFilter& filter)
{
    if (m_readOnly || m_plain || m_queue.isEmpty())
        return;
    if (filter.set == TaskSet::Active) {
        emit resultReported(tr("No bulk action applies to active tasks"), false);
        return;
    }
    m_dialog = m_matchActions->ask(m_queue, filter, m_clockOffsetMs);
    emit dialogOpened(m_dialog);
}

qint64 TaskActions::serverNow() const
{
    return QDateTime::currentMSecsSinceEpoch() + m_clockOffsetMs;
}

QList<TaskRow> TaskActions::selection(QAction* action, const QString& verb)
{
    if (m_readOnly || !action->isEnabled() || !tablesShown())
        return {};
    TaskTable* table = m_tabs->current();
    const QList<TaskRow> tasks = table->selectedTasks();
    const int rows = static_cast<int>(table->view()->selectionModel()->selectedRows().size());
    if (tasks.isEmpty())
        emit resultReported(tr("Nothing to %1: select tasks first").arg(verb), false);
    else if (tasks.size() < rows)
        emit resultReported(tr("%1 of the %2 selected rows are still loading and are left out")
                                .arg(rows - tasks.size())
                                .arg(rows),
                            false);
    return tasks;
}

QString TaskActions::describeTasks(const QList<TaskRow>& tasks, TaskSet set, bool plain,
                                   qint64 nowMs, bool utc)
{
    constexpr int kShown = 5;
    constexpr int kPreview = 60;
    auto preview = [](const QString& text) {
        const QString line = text.simplified();
        return line.size() > kPreview ? line.left(kPreview) + QChar(0x2026) : line;
    };
    QStringList lines;
    for (const TaskRow& task : tasks.mid(0, kShown)) {
        // A death passed; a due time is owed.
        const QString when = set == TaskSet::Dead && !plain
                                 ? DueText::describePast(task.score, nowMs, utc)
                                 : DueText::describe(task.score, nowMs, utc);
        QString line = QStringLiteral("• ");
        if (plain) {
            line += preview(MemberText::displayText(task.id.left(kPreview * 4))) +
                    QStringLiteral(" — ") + tr("due %1").arg(when);
        } else if (set == TaskSet::Dead) {
            line +=
                MemberText::displayText(task.id) + QStringLiteral(" — ") + tr("died %1").arg(when);
            if (!task.lastError.isEmpty())
                line += QStringLiteral(" — ") + preview(task.lastError);
        } else {
            line +=
                MemberText::displayText(task.id) + QStringLiteral(" — ") + tr("due %1").arg(when);
            const QString payload =
                preview(MemberText::displayBytes(task.payload.left(kPreview * 4).toStdString()));
            if (!payload.isEmpty())
                line += QStringLiteral(" — ") + payload;
        }
        lines.append(line);
    }
    if (tasks.size() > kShown)
        lines.append(tr("and %1 more").arg(QLocale().toString(tasks.size() - kShown)));
    return lines.join(QLatin1Char('\n'));
}

namespace {

QStringList idsOf(const QList<TaskRow>& tasks)
{
    QStringList ids;
    ids.reserve(tasks.size());
    for (const TaskRow& task : tasks)
        ids.append(task.id);
    return ids;
}

} // namespace

void TaskActions::onPush()
{
    if (m_readOnly)
        return;
    auto* dialog = new PushDialog(m_queue, m_window);
    dialog->setPlain(m_plain);
    dialog->setClock(m_clockOffsetMs, m_utc);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { m_client->tasks()->push(track(), dialog->spec()); });
    m_dialog = dialog;
    showDialog(dialog);
}

void TaskActions::onCancel()
{
    const QList<TaskRow> tasks = selection(m_cancel, tr("cancel"));
    if (tasks.isEmpty())
        return;
    const qint64 n = tasks.size();
    Confirmation confirmation;
    confirmation.title = m_plain ? tr("Cancel messages") : tr("Cancel tasks");
    // Whole sentences for one and for several, as Confirmation::tasks() does: the app has no
    // English translation to give a %n text its singular.
    if (m_plain)
        confirmation.text = (n == 1 ? tr("Remove %1 from %2? It will not be delivered.")
                                    : tr("Remove %1 from %2? They will not be delivered."))
                                .arg(n == 1 ? tr("1 message") : tr("%1 messages").arg(n), m_queue);
    else
        confirmation.text =
            (n == 1 ? tr("Cancel %1 of queue %2?\n\nIt is deleted and will not run, unless a "
                         "worker has already started it: then it is left alone.")
                    : tr("Cancel %1 of queue %2?\n\nThey are deleted and will not run. A task a "
                         "worker has already started is left alone."))
                .arg(Confirmation::tasks(n, tr("pending")), m_queue);
    confirmation.acceptText =
        m_plain ? (n == 1 ? tr("Cancel 1 message") : tr("Cancel %1 messages").arg(n))
                : tr("Cancel %1").arg(Confirmation::tasks(n));
    confirmation.rejectText = tr("Keep");
    confirmThen(tasks, TaskSet::Pending, confirmation, &TaskClient::cancel);
}

void TaskActions::onReschedule()
{
    const QList<TaskRow> tasks = selection(m_reschedule, tr("reschedule"));
    if (tasks.isEmpty())
        return;
    auto* dialog = new RescheduleDialog(tasks, m_window);
    dialog->setClock(m_clockOffsetMs, m_utc);
    // Named as Cancel names them: a task that slid under the pointer is seen before it moves.
    dialog->setTarget(m_queue, describeTasks(tasks, TaskSet::Pending, m_plain, serverNow(), m_utc));
    connect(dialog, &QDialog::accepted, this, [this, dialog, tasks, queue = m_queue] {
        // The rescheduled tasks move away from their rows: select nothing, as after Cancel.
        m_tabs->table(TaskSet::Pending)->clearSelection();
        if (const QString changed = changedSince(tasks, TaskSet::Pending, queue);
            !changed.isEmpty()) {
            emit resultReported(changed, false);
            return;
        }
        m_client->tasks()->reschedule(track(), queue, idsOf(tasks), dialog->dueAtMs(),
                                      dialog->delayMs());
    });
    m_dialog = dialog;
    showDialog(dialog);
}

void TaskActions::onRunNow()
{
    const QList<TaskRow> tasks = selection(m_runNow, tr("run"));
    if (tasks.isEmpty())
        return;
    Confirmation confirmation;
    confirmation.title = tr("Run tasks now");
    confirmation.text =
        (tasks.size() == 1 ? tr("Make %1 of queue %2 due now? A worker takes it at once.")
                           : tr("Make %1 of queue %2 due now? A worker takes them at once."))
            .arg(Confirmation::tasks(tasks.size(), tr("pending")), m_queue);
    confirmation.acceptText = tr("Run %1 now").arg(Confirmation::tasks(tasks.size()));
    confirmation.rejectText = tr("Keep their time");
    confirmThen(tasks, TaskSet::Pending, confirmation,
                [](TaskClient* client, quint64 tag, const QString& queue, const QStringList& ids) {
                    client->reschedule(tag, queue, ids, -1, 0);
                });
}

void TaskActions::onRequeue()
{
    const QList<TaskRow> tasks = selection(m_requeue, tr("requeue"));
    if (tasks.isEmpty())
        return;
    Confirmation confirmation;
    confirmation.title = tr("Requeue dead tasks");
    confirmation.text =
        (tasks.size() == 1
             ? tr("Move %1 of queue %2 back to pending, due now?\n\nIts attempts start again "
                  "from 0: it gets the full number of tries again.")
             : tr("Move %1 of queue %2 back to pending, due now?\n\nTheir attempts start again "
                  "from 0: each gets the full number of tries again."))
            .arg(Confirmation::tasks(tasks.size(), tr("dead")), m_queue);
    confirmation.acceptText = tr("Requeue %1").arg(Confirmation::tasks(tasks.size()));
    confirmation.rejectText = tr("Leave dead");
    confirmThen(tasks, TaskSet::Dead, confirmation, &TaskClient::requeue);
}

void TaskActions::onDeleteDead()
{
    const QList<TaskRow> tasks = selection(m_deleteDead, tr("delete"));
    if (tasks.isEmpty())
        return;
    Confirmation confirmation;
    confirmation.icon = QMessageBox::Warning;
    confirmation.title = tr("Delete dead tasks");
    confirmation.text = tr("Delete %1 of queue %2 for good? This cannot be undone.")
                            .arg(Confirmation::tasks(tasks.size(), tr("dead")), m_queue);
    confirmation.acceptText = tr("Delete %1").arg(Confirmation::tasks(tasks.size()));
    confirmation.rejectText = tr("Keep");
    confirmThen(tasks, TaskSet::Dead, confirmation, &TaskClient::deleteDead);
}

void TaskActions::confirmThen(const QList<TaskRow>& tasks, TaskSet set, Confirmation confirmation,
                              IdRequest send)
{
    confirmation.text +=
        QStringLiteral("\n\n") + describeTasks(tasks, set, m_plain, serverNow(), m_utc);
    const QString queue = m_queue;
    if (!confirm(confirmation))
        return;
    // The row a removed task leaves is taken by the next one: nothing stays aimed at.
    m_tabs->current()->clearSelection();
    // The table went on refreshing while the operator read the confirmation.
    if (const QString changed = changedSince(tasks, set, queue); !changed.isEmpty()) {
        emit resultReported(changed, false);
        return;
    }
    send(m_client->tasks(), track(), queue, idsOf(tasks));
}

QString TaskActions::changedSince(const QList<TaskRow>& tasks, TaskSet set,
                                  const QString& queue) const
{
    if (queue != m_queue)
        return tr("Nothing was done: the window shows queue %1 now, not %2").arg(m_queue, queue);
    const TaskModel* model = m_tabs->table(set)->model();
    if (model->queue() != queue)
        return {};
    for (const TaskRow& task : tasks) {
        const TaskRow* now = model->findTask(task.id);
        const QString id = MemberText::displayText(task.id.left(200));
        if (!now)
            return tr("Nothing was done: task %1 left queue %2 (consumed, cancelled or moved) "
                      "since it was shown")
                .arg(id, queue);
        if (now->score != task.score)
            return tr("Nothing was done: task %1 of queue %2 is due %3 now, not %4 as shown")
                .arg(id, queue, DueText::describe(now->score, serverNow(), m_utc),
                     DueText::describe(task.score, serverNow(), m_utc));
    }
    return {};
}

quint64 TaskActions::track()
{
    const quint64 tag = AdminClient::newTag();
    m_tags.append(tag);
    return tag;
}

void TaskActions::onFinished(const ActionResult& result)
{
    if (!m_tags.removeOne(result.tag))
        return;
    const QString summary = ActionSummary::of(result, m_utc);
    const QStringList details = ActionSummary::failures(result);
    const bool allDone = result.error.isEmpty() && details.isEmpty();
    emit resultReported(summary, allDone);
    if (result.action == TaskAction::Push && result.outcomes.size() == 1 && allDone)
        emit taskPushed(result.queue, result.outcomes.first().id);
    if (!allDone && m_confirm) {
        auto* box =
            new QMessageBox(QMessageBox::Warning, tr("Result"), summary, QMessageBox::Ok, m_window);
        box->setTextFormat(Qt::PlainText);
        if (!details.isEmpty())
            box->setDetailedText(details.join(QLatin1Char('\n')));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit refreshRequested();
}

} // namespace delayq::ui
