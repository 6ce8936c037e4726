#pragma once

#include "client/bintypes.h"
#include "client/taskaction.h"

#include <QObject>
#include <QString>

class QAction;
class QTimer;
class QToolButton;
class QWidget;

namespace delayq::ui {

class AdminClient;
struct ActionResult;
struct BulkActionResult;
struct MatchApplyResult;

// The recycle bin in the window (docs/design/bin.md): the Undo the status bar offers right
// after a cancel, purge or delete of dead tasks (it restores what that removal kept), and the
// Queue menu's view of everything that can still be restored. Requests go to the I/O thread
// (BinClient); the GUI never waits on Redis.
class RecycleBinActions : public QObject
{
    Q_OBJECT

public:
    RecycleBinActions(AdminClient* client, QWidget* window);

    // For the status bar: hidden until a removal finishes with something to undo.
    QToolButton* undoButton() const { return m_undo; }
    // Queue → Recycle bin…
    QAction* viewAction() const { return m_view; }
    // The queue the view opens on; a plain key has no bin.
    void setQueue(const QString& queue, bool plain);
    void setReadOnly(bool readOnly);
    // The action the Undo would restore ("" when none is offered).
    const QString& offered() const { return m_action; }

signals:
    void resultReported(const QString& summary, bool ok);
    void refreshRequested();
    void dialogOpened(QWidget* dialog);

private:
    void offer(TaskAction removal, const QString& queue, const QString& action, qint64 tasks);
    void withdraw();
    void undo();
    void onRestored(const BinRestoreResult& result);
    void openView();

    AdminClient* m_client;
    QWidget* m_window;
    QToolButton* m_undo;
    QAction* m_view;
    QTimer* m_expiry;
    QString m_queue;        // the open queue
    QString m_offeredQueue; // the queue of the removal the Undo would restore
    QString m_action;
    bool m_plain = false;
    bool m_readOnly = false;
    quint64 m_tag = 0; // of the Undo's own restore
};

// The Undo's own text, naming what it undoes: "Undo cancel of 3 tasks", "Undo delete of 1 dead
// task", "Undo purge of orders (1,204 tasks)" (a long queue name cut, with "…"; an & kept
// as itself, not taken for a shortcut).
QString undoText(TaskAction removal, const QString& queue, qint64 tasks);

// What the recycle bin summary says for a restore: "Restored 3 tasks to queue orders. 1 was
// not restored: a task with its id is in the queue again (t1)."
QString restoreSummary(const BinRestoreResult& result);

} // namespace delayq::ui
