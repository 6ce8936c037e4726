#pragma once

#include "client/scheduletypes.h"
#include "widgets/confirmation.h"

#include <QPointer>
#include <QWidget>

#include <functional>

class QAction;
class QLabel;
class QStandardItemModel;
class QTableView;
class QToolBar;

namespace delayq::ui {

class AdminClient;
class BackfillDialog;
class ColumnFit;
class ScheduleDialog;

// The open queue's recurring schedules (docs/schedules.md): each one's rule, state, next and
// last fire and counters, with Add, Edit, Pause/Resume, Delete, Run now and Backfill. Loaded on the
// I/O thread, only while shown. Nothing is selected at first and the actions on one schedule wait
// for a selection, which follows the schedule's name across refreshes, never its row.
class SchedulesTab : public QWidget
{
    Q_OBJECT

public:
    using ConfirmHandler = std::function<bool(const Confirmation& confirmation)>;

    enum Column
    {
        Name,
        Rule,
        State,
        NextFire,
        LastFire,
        Fired,
        Skipped,
        ColumnCount
    };

    explicit SchedulesTab(AdminClient* client, QWidget* parent = nullptr);

    void setQueue(const QString& queue);
    // A plain sorted set has no schedules: a note says so.
    void setPlain(bool plain);
    void setReadOnly(bool readOnly, const QString& reason);
    void setUtc(bool utc);
    // The server the window is connected to: every confirmation names it.
    void setServer(const QString& server);
    void refresh();
    // The confirmations ask with a message box until a handler is set (tests answer them).
    void setConfirmHandler(ConfirmHandler handler) { m_confirm = std::move(handler); }

    // The selected schedule's name, empty when none is.
    QString selectedName() const { return m_selected; }
    // Selects the schedule named so (false when it is not listed).
    bool selectSchedule(const QString& name);
    const QList<delayq::ScheduleInfo>& schedules() const { return m_rows; }

    // The actions: they ask (Pause, Delete) or open a dialog (Add, Edit) first.
    void addSchedule();
    void editSelected();
    void togglePauseSelected();
    void deleteSelected();
    // Fire the selected schedule once, now (asked first); the rule stays.
    void runNowSelected();
    // Ask for a past window, then (asked again, naming it) make the rule's fires in it.
    void backfillSelected();

    QTableView* view() const { return m_view; }
    // In the tab's tool bar (which folds into a menu when the dock is narrow).
    QAction* addScheduleAction() const { return m_add; }
    QAction* editAction() const { return m_edit; }
    QAction* pauseAction() const { return m_pause; }
    QAction* deleteAction() const { return m_delete; }
    QAction* runNowAction() const { return m_runNow; }
    QAction* backfillAction() const { return m_backfill; }
    // The last result or error, plain text.
    QLabel* message() const { return m_message; }
    bool isNoteShown() const;
    // The add or edit dialog while it is open.
    ScheduleDialog* activeDialog() const;
    // The backfill dialog while it is open.
    BackfillDialog* activeBackfill() const;

signals:
    void loaded();
    void dialogOpened(delayq::ui::ScheduleDialog* dialog);
    void backfillOpened(delayq::ui::BackfillDialog* dialog);
    // A change was written (or refused, or found stale): the queue's schedules may differ.
    void changeFinished(const QString& queue, bool ok);
    void resultReported(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void request();
    void onListed(const ScheduleListResult& result);
    void onChanged(const ScheduleChangeResult& result);
    void fill();
    void updateNote();
    void updateActions();
    void onSelectionChanged();
    // The selected schedule as last listed.
    const delayq::ScheduleInfo* selected() const;
    void openDialog(ScheduleDialog* dialog);
    void showMessage(const QString& text, bool error);
    bool confirm(const Confirmation& confirmation);
    QString changeText(const ScheduleChangeResult& result) const;
    // The rule column: the rule, and its overlap policy and jitter when it has them.
    QString ruleText(const delayq::ScheduleRule& rule) const;

    AdminClient* m_client;
    QAction* m_add;
    QAction* m_edit;
    QAction* m_pause;
    QAction* m_delete;
    QAction* m_runNow;
    QAction* m_backfill;
    QToolBar* m_bar;
    QTableView* m_view;
    ColumnFit* m_fit;
    QStandardItemModel* m_model;
    QLabel* m_note;
    QLabel* m_message;
    QPointer<ScheduleDialog> m_dialog;
    QPointer<BackfillDialog> m_backfillDialog;
    ConfirmHandler m_confirm;
    QList<delayq::ScheduleInfo> m_rows;
    QString m_queue;
    QString m_selected;
    QString m_readOnlyReason;
    QString m_server;
    qint64 m_serverNow = 0;
    bool m_plain = false;
    bool m_utc = false;
    bool m_readOnly = false;
    bool m_filling = false;
    bool m_inFlight = false;
    bool m_dirty = false;
    quint64 m_tag = 0;
    QList<quint64> m_changeTags;
};

} // namespace delayq::ui
