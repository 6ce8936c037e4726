#pragma once

#include "admintypes.h"

#include <QMainWindow>
#include <QPointer>

class QLabel;

namespace delayq::ui {

class AdminClient;
class ConnectionStatus;
class DetailsFollower;
class HistoryChart;
class PlainKeyBar;
class ExportAction;
class QueueActions;
class QueueList;
class RefreshControl;
class ServerView;
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
    HistoryChart* history() const { return m_history; }
    QueueList* queueList() const { return m_queues; }
    TaskActions* actions() const { return m_actions; }
    QueueActions* queueActions() const { return m_queueActions; }
    ExportAction* exportAction() const { return m_export; }
    ConnectionStatus* connectionStatus() const { return m_status; }
    WorkerDock* workerDock() const { return m_workerDock; }
    QString queue() const { return m_queue; }

    void connectTo(const ConnectionSettings& settings);
    void openQueue(const QString& name);
    // A plain sorted set (unit "ms" | "s"), in the same table, timeline and actions.
    // `chosen`: the user picked the unit (kept for the key); else the unit detected or ""
    // (detected on the I/O thread) gives way to one the user chose for this key before.
    void openPlainKey(const QString& key, const QString& unit, bool chosen = false);
    PlainKeyBar* plainBar() const { return m_plainBar; }
    bool isPlain() const { return m_plain; }
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
    // The Server view (View → Server…): the cluster's nodes and slots, or the one server.
    ServerView* showServer();

signals:
    void queueChanged(const QString& queue);
    // After openQueue: the first page of pending tasks and the timeline are both shown.
    void queueLoaded();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildDocks();
    void buildToolBar();
    void buildMenus();
    void connectClient();
    void connectViews();
    void updateTitle();
    void updateZone();
    void setPlainMode(bool plain, const QString& unit);
    // Logs a Sentinel failover the first time a status names a new master.
    void noticeFailover(const ServerInfo& info);
    void onCounts(const CountsResult& result);
    void checkLoaded();
    void chooseConnection();
    void showQueue(const QString& name);

    AdminClient* m_client;
    TaskTabs* m_tabs;
    TaskDetails* m_details;
    DetailsFollower* m_detailsFollower;
    TimelineChart* m_timeline;
    HistoryChart* m_history;
    QueueList* m_queues;
    TaskActions* m_actions;
    QueueActions* m_queueActions;
    ExportAction* m_export;
    ConnectionStatus* m_status;
    WorkerDock* m_workerDock;
    PlainKeyBar* m_plainBar;
    RefreshControl* m_refresh;
    QAction* m_utc = nullptr;
    QLabel* m_zone = nullptr;
    QMenu* m_viewMenu = nullptr;
    QString m_queue;
    QString m_displayUrl;
    QString m_masterAddress; // through Sentinel: the master last seen
    QPointer<ServerView> m_serverView;
    qint64 m_clockOffsetMs = 0;
    bool m_countsInFlight = false;
    quint64 m_countsTag = 0;
    bool m_waitingForLoad = false;
    bool m_plain = false;
    bool m_firstPageShown = false;
    bool m_timelineShown = false;
};

} // namespace delayq::ui
