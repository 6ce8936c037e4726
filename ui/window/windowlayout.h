#pragma once

class QAction;
class QMainWindow;
class QMenu;
class QStackedWidget;

namespace delayq::ui {

class AuditTab;
class GroupsTab;
class ConnectionNotice;
class ExportAction;
class ThroughputChart;
class LayoutNotice;
class OverviewPage;
class PlainKeyBar;
class QueueActions;
class QueueControl;
class QueueList;
class RefreshControl;
class SchedulesTab;
class TaskActions;
class TaskDetails;
class TaskTabs;
class TimelineChart;
class WorkerDock;

// What the main window shows, every piece made (and wired) by MainWindow.
struct WindowParts
{
    // The pages: the overview, and the task tabs beside the details under the notices.
    QStackedWidget* pages;
    OverviewPage* overview;
    TaskTabs* tabs;
    TaskDetails* details;
    LayoutNotice* layoutNotice;
    PlainKeyBar* plainBar;
    // Over both pages.
    ConnectionNotice* connectionNotice;
    RefreshControl* refresh;
    // The docks.
    QueueList* queues;
    TimelineChart* timeline;
    ThroughputChart* throughput;
    AuditTab* audit;
    SchedulesTab* schedules;
    GroupsTab* groups;
    WorkerDock* workerDock;
    // The toolbar and the menus.
    TaskActions* taskActions;
    QueueActions* queueActions;
    QueueControl* control;
    ExportAction* exportAction;
    QAction* connectAction;
    QAction* overviewAction;
    QAction* utcAction;
    QAction* serverAction;
    QAction* workersAction;
    QAction* aboutAction;
    QAction* quitAction;
    QMenu* languageMenu;
    QMenu* alertsMenu;
};

// Where each piece of the main window goes: the pages in the middle, the docks around them,
// the toolbar and the menus. It places what it is given and makes only the frames (splitter,
// docks, toolbar, menus); the window keeps what the pieces do.
namespace WindowLayout {

void place(QMainWindow* window, const WindowParts& parts);

} // namespace WindowLayout

} // namespace delayq::ui
