#pragma once

#include "client/queuetypes.h"
#include "client/tasktypes.h"
#include "tasks/writeactions.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QAction;
class QDialog;
class QProgressDialog;
class QWidget;

namespace delayq::ui {

class AdminClient;
class PurgeDialog;

// Queue-wide actions of the Queue menu: requeue all dead tasks, delete all dead tasks,
// purge the queue. Each first reads the queue's counts, then asks: a confirmation naming
// the queue and the count, or for a purge the PurgeDialog that wants the name typed. The
// work runs in bounded steps on the client, with a progress dialog that can cancel it.
// Off without a native queue, on a plain key (it has no dead tasks and no task data to
// purge), on a read-only session, and while one runs.
class QueueActions : public WriteActions
{
    Q_OBJECT

public:
    QueueActions(AdminClient* client, QWidget* window);

    QAction* requeueAllDead() const { return m_requeueAll; }
    QAction* deleteAllDead() const { return m_deleteAll; }
    QAction* purge() const { return m_purge; }
    QList<QAction*> actions() const { return {m_requeueAll, m_deleteAll, m_purge}; }

    // Tests answer the confirmations themselves; the default asks with a message box.
    void setConfirmHandler(ConfirmHandler handler) { m_confirm = std::move(handler); }
    // Tasks per step (1..1000); smaller steps answer other requests sooner.
    void setBatch(int batch) { m_batch = batch; }

    bool isRunning() const { return m_running != 0; }
    // Stops the running action before its next step.
    void cancelRunning();
    // The purge dialog while it is open (non-modal to the event loop).
    PurgeDialog* purgeDialog() const;
    QProgressDialog* progressDialog() const;

    // "Purged 12,345 tasks from orders."
    static QString summarize(const BulkActionResult& result);

private:
    void ask(TaskAction action);
    void onCounts(const CountsResult& counts);
    void start(TaskAction action, const QString& queue);
    void onProgress(quint64 tag, qint64 done, qint64 total);
    void onFinished(const BulkActionResult& result);
    void updateEnabled() override;

    int m_batch = 500;
    quint64 m_countsTag = 0; // the counts an action waits for before it asks
    TaskAction m_asked = TaskAction::Purge;
    quint64 m_running = 0;
    TaskAction m_runningAction = TaskAction::Purge;
    QString m_runningQueue;
    qint64 m_confirmed = 0; // the count the confirmation named: the change stops there
    QPointer<PurgeDialog> m_purgeDialog;
    QPointer<QProgressDialog> m_progress;
    QAction* m_requeueAll;
    QAction* m_deleteAll;
    QAction* m_purge;
};

} // namespace delayq::ui
