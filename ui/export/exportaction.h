#pragma once

#include "client/exporttypes.h"
#include "client/tasktypes.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QAction;
class QDialog;
class QProgressDialog;
class QWidget;

namespace delayq::ui {

class AdminClient;
class ExportDialog;

// The Queue menu's Export…: asks with an ExportDialog, then writes the file on the I/O thread
// in bounded steps (AdminClient::exportTasks) with a progress dialog that can cancel it.
// A read, so it stays on for a read-only session; off without a queue and while one runs.
class ExportAction : public QObject
{
    Q_OBJECT

public:
    ExportAction(AdminClient* client, QWidget* window);

    QAction* action() const { return m_action; }
    void setQueue(const QString& queue);
    void setPlain(bool plain);
    // Where the dialog learns the current tab's set and the selected ids when it opens.
    void setSelection(std::function<TaskSet()> currentSet,
                      std::function<QStringList()> selectedIds);

    // Opens the dialog for the open queue (or `queue`, for the purge dialog's "Export first").
    void ask(const QString& queue = {});
    // Starts an export without asking (what the dialog's Export button does).
    void start(const ExportRequest& request);
    bool isRunning() const { return m_running != 0; }
    void cancelRunning();
    ExportDialog* dialog() const;
    QProgressDialog* progressDialog() const;

    // "Exported 1,234 tasks of orders to /home/me/orders.jsonl."
    static QString summarize(const ExportResult& result);

signals:
    void dialogOpened(QDialog* dialog);
    void resultReported(const QString& summary, bool ok);
    void finished(const delayq::ui::ExportResult& result);

private:
    void onProgress(quint64 tag, qint64 written, qint64 total);
    void onFinished(const ExportResult& result);
    void updateEnabled();

    AdminClient* m_client;
    QWidget* m_window;
    QString m_queue;
    bool m_plain = false;
    std::function<TaskSet()> m_currentSet = [] { return TaskSet::Pending; };
    std::function<QStringList()> m_selectedIds = [] { return QStringList(); };
    quint64 m_running = 0;
    QString m_runningQueue;
    QPointer<ExportDialog> m_dialog;
    QPointer<QProgressDialog> m_progress;
    QAction* m_action;
};

} // namespace delayq::ui
