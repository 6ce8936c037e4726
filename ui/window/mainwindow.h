#pragma once

#include "client/connectiontypes.h"
#include "client/overviewtypes.h"
#include "window/windowlayout.h"

#include <QMainWindow>
#include <QPointer>
#include <QSet>

class QLabel;
class QStackedWidget;

namespace delayq::ui {

class AdminClient;
class AlertCenter;
class ConnectionNotice;
class ConnectionStatus;
class DetailsFollower;
class AuditTab;
class GroupsTab;
class ThroughputChart;
class LayoutNotice;
class OpenQueue;
class OverviewPage;
class PlainKeyBar;
class QueueLoad;
class ExportAction;
class QueueActions;
class QueueControl;
class QueueList;
class RecycleBinActions;
class RefreshControl;
class SchedulesTab;
class ServerView;
class WorkersView;
class TaskActions;
class TaskDetails;
class TaskTabs;
class TimelineChart;
class WorkerDock;

// Puts the pieces together: queue list, task tabs with details, timeline and throughput
// charts in docks, the actions, the live refresh and the connection state. The pieces do
// their own work; this class only wires them.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    AdminClient* client() const { return m_client; }
    TaskTabs* tabs() const { return m_tabs; }
    TaskDetails* details() const { return m_details; }
    TimelineChart* timeline() const { return m_timeline; }
    ThroughputChart* throughput() const { return m_throughput; }
    AuditTab* audit() const { return m_audit; }
    SchedulesTab* schedules() const { return m_schedules; }
    GroupsTab* groups() const { return m_groups; }
    QueueList* queueList() const { return m_queues; }
    TaskActions* actions() const { return m_actions; }
    RecycleBinActions* recycleBin() const { return m_bin; }
    QueueActions* queueActions() const { return m_queueActions; }
    ExportAction* exportAction() const { return m_export; }
    ConnectionStatus* connectionStatus() const { return m_status; }
    ConnectionNotice* connectionNotice() const { return m_connectionNotice; }
    RefreshControl* refreshControl() const { return m_refresh; }
    WorkerDock* workerDock() const { return m_workerDock; }
    OverviewPage* overview() const { return m_overview; }
    QueueControl* queueControl() const { return m_control; }
    QAction* overviewAction() const { return m_overviewAction; }
    // The overview in place of the task tables (the open queue stays open behind it).
    void showOverview();
    bool isOverviewShown() const;
    QString queue() const;
    // What is open, for every piece of the window to follow.
    const OpenQueue* open() const { return m_open; }

    void connectTo(const ConnectionSettings& settings);
    void openQueue(const QString& name);
    // A plain sorted set (unit "ms" | "s"), in the same table, timeline and actions.
    // `chosen`: the user picked the unit (kept for the key); else the unit detected or ""
    // (detected on the I/O thread) gives way to one the user chose for this key before.
    void openPlainKey(const QString& key, const QString& unit, bool chosen = false);
    PlainKeyBar* plainBar() const { return m_plainBar; }
    bool isPlain() const;
    // Everything the open queue shows, now (coalesced with what is in flight).
    void refreshAll();
    void setRefreshInterval(int ms);
    void setPaused(bool paused);
    void setUtc(bool utc);
    bool isUtc() const;
    // The last session's window layout and UTC choice (not for screenshots or tests).
    void restoreLayout();
    // Opens the queue or plain key that was open when the window last closed, if that was
    // on the server this window is connected to; false when there is none.
    bool openLastQueue();
    // The Server view (View → Server…): the cluster's nodes and slots, or the one server,
    // and the shards of the native queue open.
    ServerView* showServer();
    AlertCenter* alerts() const { return m_alerts; }
    WorkersView* showWorkers();

signals:
    void queueChanged(const QString& queue);
    // After openQueue: the first page of pending tasks and the timeline are both shown.
    void queueLoaded();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    // The window's own actions, and every piece for WindowLayout to place.
    WindowParts makeParts();
    void connectClient();
    void connectViews();
    void updateTitle();
    void updateZone();
    // Every piece that shows the open queue follows m_open; the window does the rest here.
    void followOpenQueue();
    void onOpened();
    void showResult(const QString& summary);
    void chooseConnection();
    // The overview's snapshot: pause markers in the queue list, the title and the actions.
    void onOverview(const OverviewResult& result);
    void connectAlerts();
    // Shows the window again (from the tray, or a click on a notification).
    void comeBack();
    // Closes for real, even with a tray to hide in (File → Quit, the tray's Quit).
    void quit();
    void connectOverview();
    // The queue the Queue menu and the toolbar's queue actions aim at, and the queue list
    // marks: the open queue, or while the Overview is shown the row selected there (none:
    // they are off and nothing is marked).
    void updateQueueTarget();

    AdminClient* m_client;
    OpenQueue* m_open;
    TaskTabs* m_tabs;
    TaskDetails* m_details;
    DetailsFollower* m_detailsFollower;
    TimelineChart* m_timeline;
    ThroughputChart* m_throughput;
    AuditTab* m_audit;
    SchedulesTab* m_schedules;
    GroupsTab* m_groups;
    QueueList* m_queues;
    TaskActions* m_actions;
    RecycleBinActions* m_bin;
    QueueActions* m_queueActions;
    QueueControl* m_control;
    OverviewPage* m_overview;
    QStackedWidget* m_pages;
    QAction* m_overviewAction = nullptr;
    ExportAction* m_export;
    ConnectionStatus* m_status;
    ConnectionNotice* m_connectionNotice = nullptr;
    WorkerDock* m_workerDock;
    PlainKeyBar* m_plainBar;
    RefreshControl* m_refresh;
    QueueLoad* m_load;
    QAction* m_utc = nullptr;
    QLabel* m_zone = nullptr;
    LayoutNotice* m_layoutNotice = nullptr;
    QString m_displayUrl;
    QString m_countsFailure; // the status bar's message of the last failed counts
    QPointer<ServerView> m_serverView;
    QPointer<WorkersView> m_workersView;
    AlertCenter* m_alerts;
    bool m_quitting = false;      // File → Quit: close for real, even with a tray
    QSet<QString> m_pausedQueues; // as the last overview snapshot says
};

} // namespace delayq::ui
