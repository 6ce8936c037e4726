#pragma once

#include "client/matchtypes.h"
#include "widgets/confirmation.h"

#include <QObject>
#include <QPointer>
#include <QProgressDialog>

#include <functional>

class QDialog;
class QWidget;

namespace delayq::ui {

class MatchClient;

// A bulk action on all tasks that match a filter, not only the loaded rows: it counts the
// matches first (bounded steps, at most kMaxIds), asks with the exact count, then acts on
// exactly those ids in bounded steps with progress and Cancel, and reports per outcome (done,
// already gone, running). Tasks that arrive meanwhile are not among the ids: never touched.
class MatchActions : public QObject
{
    Q_OBJECT

public:
    using ConfirmHandler = std::function<bool(const Confirmation& confirmation)>;
    static constexpr int kMaxIds = 100000;

    MatchActions(MatchClient* client, QWidget* window);

    void setConfirmHandler(ConfirmHandler handler) { m_confirm = std::move(handler); }
    // Opens the dialog that asks which tasks (starting from `filter`) and which action, and
    // runs it once accepted. clockOffsetMs: the server's clock minus this machine's.
    QDialog* ask(const QString& queue, const MatchFilter& filter, qint64 clockOffsetMs);
    // action Reschedule: to dueAtMs when >= 0, else delayMs from the server's now (0: run now).
    void run(const QString& queue, const MatchFilter& filter, TaskAction action,
             qint64 dueAtMs = -1, qint64 delayMs = 0);
    void cancel();
    bool isBusy() const { return m_tag != 0; }
    QProgressDialog* progress() const { return m_progress; }

    // "pending tasks containing "x" in their payload, due before 09:30".
    static QString describe(const MatchFilter& filter, bool utc);

signals:
    void counted(qint64 count, bool capped);
    void progressed(qint64 done, qint64 total);
    void finished(const delayq::ui::MatchApplyResult& result);
    void resultReported(const QString& summary, bool allDone);

private:
    void onCounted(const MatchScanResult& step);
    void onApplied(const MatchApplyResult& step);
    void showProgress(const QString& label, qint64 value, qint64 total);
    void end();

    MatchClient* m_client;
    QWidget* m_window;
    ConfirmHandler m_confirm;
    QPointer<QProgressDialog> m_progress;
    quint64 m_tag = 0;
    QString m_queue;
    MatchFilter m_filter;
    TaskAction m_action = TaskAction::Cancel;
    qint64 m_dueAtMs = -1;
    qint64 m_delayMs = 0;
};

} // namespace delayq::ui
