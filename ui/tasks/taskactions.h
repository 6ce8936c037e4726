#pragma once

#include "client/tasktypes.h"
#include "tasks/writeactions.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QAction;
class QMenu;
class QToolBar;
class QDialog;
class QWidget;

namespace delayq::ui {

class AdminClient;
class MatchActions;
class TaskClient;
class TaskClipboard;
class TaskMenu;
class TaskTabs;
struct MatchFilter;

// The task actions with their shortcuts: push (Ctrl+N), cancel (Del), reschedule (Ctrl+R),
// requeue and delete dead tasks, refresh (F5), find (Ctrl+F). Each asks for confirmation
// naming the tasks it touches (ids, due times, payload previews) with buttons that say the
// action, and reports what happened to each. Once confirmed, the selection is cleared, so a
// second key press cannot land on the task that slid into the row.
// Writes are disabled, with the reason as tooltip, when the session is read-only. On a plain
// sorted set only push, cancel and reschedule apply. While the overview hides the tables,
// the actions on selected tasks are off: their shortcuts reach no hidden selection.
class TaskActions : public WriteActions
{
    Q_OBJECT

public:
    TaskActions(AdminClient* client, TaskTabs* tabs, QWidget* window);

    QAction* push() const { return m_push; }
    QAction* cancel() const { return m_cancel; }
    QAction* reschedule() const { return m_reschedule; }
    QAction* runNow() const { return m_runNow; }
    // Every task a filter matches (text, times), not only the loaded rows: MatchActions.
    QAction* actOnMatches() const { return m_actOnMatches; }
    MatchActions* matchActions() const { return m_matchActions; }
    TaskMenu* taskMenu() const { return m_menu; }
    TaskClipboard* clipboard() const { return m_clipboard; }
    // The dialog that asks which tasks and which action, starting from `filter`.
    void actOn(const MatchFilter& filter);
    QAction* requeue() const { return m_requeue; }
    QAction* deleteDead() const { return m_deleteDead; }
    QAction* refresh() const { return m_refresh; }
    QAction* find() const { return m_find; }
    // The actions in their groups, the same on the toolbar and in the Tasks menu.
    void addTo(QToolBar* bar) const;
    void addTo(QMenu* menu) const;
    QList<QAction*> writeActions() const;

    // Due times in the texts: UTC or local, and "in 5m" from the server's clock.
    void setUtc(bool utc) { m_utc = utc; }
    void setClockOffset(qint64 ms) { m_clockOffsetMs = ms; }
    // Tests answer the confirmations themselves; the default asks with a message box.
    void setConfirmHandler(ConfirmHandler handler);
    // The push or reschedule dialog currently open (non-modal to the event loop).
    QDialog* activeDialog() const { return m_dialog; }
    // Enables what applies to the current tab and selection.
    void updateEnabled() override;

    // Up to five tasks, one line each (id, due or death time, payload or error preview),
    // then "and N more".
    static QString describeTasks(const QList<TaskRow>& tasks, TaskSet set, bool plain, qint64 nowMs,
                                 bool utc);

signals:
    // One task was pushed into `queue`: the window selects it.
    void taskPushed(const QString& queue, const QString& id);

private:
    void onPush();
    void onCancel();
    void onReschedule();
    void onRunNow();
    void onRequeue();
    void onDeleteDead();
    void onFinished(const ActionResult& result);
    // A TaskClient request on ids (cancel, requeue, ...), given the tag and the queue.
    using IdRequest =
        std::function<void(TaskClient*, quint64 tag, const QString& queue, const QStringList&)>;
    // Asks (naming the tasks), then clears the selection and sends the request.
    void confirmThen(const QList<TaskRow>& tasks, TaskSet set, Confirmation confirmation,
                     IdRequest send);
    // A new request tag whose answer this object reports.
    quint64 track();
    // The loaded selected tasks of the current table for `action`; says so when there are
    // none. None while the action is off or the session read-only.
    QList<TaskRow> selection(QAction* action, const QString& verb);
    qint64 serverNow() const;
    // Before sending: the tasks are still in `queue`'s table of `set` as the operator was
    // shown them (same due time), as far as the window last read; else what changed ("" when
    // nothing did). The server then still refuses what it no longer holds.
    QString changedSince(const QList<TaskRow>& tasks, TaskSet set, const QString& queue) const;
    // The task tables are on screen (not behind the overview): only then can a task action
    // aim at what the operator sees selected.
    bool tablesShown() const;
    bool eventFilter(QObject* watched, QEvent* event) override;

    TaskTabs* m_tabs;
    bool m_utc = false;
    qint64 m_clockOffsetMs = 0;
    QPointer<QDialog> m_dialog;
    QList<quint64> m_tags;
    QAction* m_push;
    QAction* m_cancel;
    QAction* m_reschedule;
    QAction* m_runNow;
    QAction* m_actOnMatches;
    MatchActions* m_matchActions;
    TaskClipboard* m_clipboard;
    TaskMenu* m_menu;
    QAction* m_requeue;
    QAction* m_deleteDead;
    QAction* m_refresh;
    QAction* m_find;
};

} // namespace delayq::ui
