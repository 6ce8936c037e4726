#pragma once

#include "admintypes.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QAction;
class QDialog;
class QWidget;

namespace delayq::ui {

class AdminClient;
class TaskTabs;

// The task actions with their shortcuts: push (Ctrl+N), cancel (Del), reschedule (Ctrl+R),
// requeue and delete dead tasks, refresh (F5), find (Ctrl+F). Each asks for confirmation
// stating what will happen to how many tasks, and reports what happened to each.
// Writes are disabled, with the reason as tooltip, when the session is read-only.
class TaskActions : public QObject
{
    Q_OBJECT

public:
    using ConfirmHandler = std::function<bool(const QString& title, const QString& text)>;

    TaskActions(AdminClient* client, TaskTabs* tabs, QWidget* window);

    QAction* push() const { return m_push; }
    QAction* cancel() const { return m_cancel; }
    QAction* reschedule() const { return m_reschedule; }
    QAction* requeue() const { return m_requeue; }
    QAction* deleteDead() const { return m_deleteDead; }
    QAction* refresh() const { return m_refresh; }
    QAction* find() const { return m_find; }
    QList<QAction*> writeActions() const;

    void setQueue(const QString& queue);
    void setReadOnly(bool readOnly, const QString& reason);
    // On a plain sorted set only push, cancel and reschedule apply.
    void setPlain(bool plain);
    bool isReadOnly() const { return m_readOnly; }
    // Tests answer the confirmations themselves; the default asks with a message box.
    void setConfirmHandler(ConfirmHandler handler) { m_confirm = std::move(handler); }
    // The push or reschedule dialog currently open (non-modal to the event loop).
    QDialog* activeDialog() const { return m_dialog; }
    // Enables what applies to the current tab and selection.
    void updateEnabled();

    // "Cancelled 3 of 5 tasks: 2 were already running and were not cancelled."
    static QString summarize(const ActionResult& result);

signals:
    void refreshRequested();
    void dialogOpened(QDialog* dialog);
    void resultReported(const QString& summary, bool allDone);

private:
    void onPush();
    void onCancel();
    void onReschedule();
    void onRequeue();
    void onDeleteDead();
    void onFinished(const ActionResult& result);
    bool confirm(const QString& title, const QString& text);
    QStringList selection(const QString& verb);

    AdminClient* m_client;
    TaskTabs* m_tabs;
    QWidget* m_window;
    QString m_queue;
    bool m_readOnly = false;
    bool m_plain = false;
    QString m_readOnlyReason;
    ConfirmHandler m_confirm;
    QPointer<QDialog> m_dialog;
    QList<quint64> m_tags;
    QAction* m_push;
    QAction* m_cancel;
    QAction* m_reschedule;
    QAction* m_requeue;
    QAction* m_deleteDead;
    QAction* m_refresh;
    QAction* m_find;
};

} // namespace delayq::ui
