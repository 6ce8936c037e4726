#include "window/windowlayout.h"

#include "audit/audittab.h"
#include "charts/throughputchart.h"
#include "charts/timelinechart.h"
#include "connection/connectionnotice.h"
#include "connection/layoutnotice.h"
#include "export/exportaction.h"
#include "overview/overviewpage.h"
#include "plain/plainkeybar.h"
#include "queue/groupstab.h"
#include "queue/queueactions.h"
#include "queue/queuecontrol.h"
#include "queue/queuelist.h"
#include "queue/refreshcontrol.h"
#include "schedules/schedulestab.h"
#include "tasks/taskactions.h"
#include "tasks/taskdetails.h"
#include "tasks/tasktabs.h"
#include "worker/workerdock.h"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace delayq::ui::WindowLayout {

namespace {

QWidget* column(QWidget* parent, const QList<QWidget*>& widgets)
{
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    for (auto* widget : widgets)
        layout->addWidget(widget, widget == widgets.last() ? 1 : 0);
    return box;
}

void placePages(QMainWindow* w, const WindowParts& p)
{
    auto* splitter = new QSplitter(Qt::Horizontal, w);
    splitter->setObjectName(QStringLiteral("tasksplitter"));
    splitter->addWidget(p.tabs);
    // The details pane scrolls when the window is short: its rows, history and payload made
    // the window's minimum 685 px tall, so a connection notice over the pages pushed it past
    // a 1024 x 700 screen.
    auto* details = new QScrollArea(splitter);
    details->setObjectName(QStringLiteral("detailsscroll"));
    details->setWidgetResizable(true);
    details->setFrameShape(QFrame::NoFrame);
    details->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    details->setWidget(p.details);
    // As wide as the pane's own minimum and the scroll bar: narrower, its values were cut.
    details->setMinimumWidth(p.details->minimumSizeHint().width() +
                             details->verticalScrollBar()->sizeHint().width());
    splitter->addWidget(details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({920, 280});
    p.pages->addWidget(p.overview); // page 0
    p.pages->addWidget(column(w, {p.layoutNotice, p.plainBar, splitter}));
    // Over both pages: why the window is not connected, and that the figures are frozen.
    w->setCentralWidget(column(w, {p.connectionNotice, p.refresh->makeNotice(w), p.pages}));
}

QDockWidget* dock(QMainWindow* w, const QString& title, const QString& name, QWidget* widget,
                  Qt::DockWidgetArea area)
{
    auto* d = new QDockWidget(title, w);
    d->setObjectName(name);
    d->setWidget(widget);
    w->addDockWidget(area, d);
    return d;
}

void placeDocks(QMainWindow* w, const WindowParts& p)
{
    auto* queues = dock(w, QCoreApplication::translate("delayq::ui::WindowLayout", "Queues"),
                        QStringLiteral("queuesdock"), p.queues, Qt::LeftDockWidgetArea);
    auto* timeline = dock(w, QCoreApplication::translate("delayq::ui::WindowLayout", "Timeline"),
                          QStringLiteral("timelinedock"), p.timeline, Qt::BottomDockWidgetArea);
    auto* throughput = dock(
        w, QCoreApplication::translate("delayq::ui::WindowLayout", "Acked / failed per minute"),
        QStringLiteral("historydock"), p.throughput, // the saved window states name it so
        Qt::BottomDockWidgetArea);
    w->splitDockWidget(timeline, throughput, Qt::Horizontal);
    w->resizeDocks({timeline, throughput}, {3, 1}, Qt::Horizontal);
    // A tab behind the timeline, which has three quarters of the width: behind the throughput
    // chart it showed 2-4 of its 7 columns. It reads the trail only while it is in front.
    auto* audit = dock(w, QCoreApplication::translate("delayq::ui::WindowLayout", "Audit"),
                       QStringLiteral("auditdock"), p.audit, Qt::BottomDockWidgetArea);
    w->tabifyDockWidget(timeline, audit);
    // The open queue's recurring schedules, a tab beside the audit trail: loaded only in front.
    auto* schedules = dock(w, QCoreApplication::translate("delayq::ui::WindowLayout", "Schedules"),
                           QStringLiteral("schedulesdock"), p.schedules, Qt::BottomDockWidgetArea);
    w->tabifyDockWidget(audit, schedules);
    // Fair order's busiest groups, a tab beside the schedules: loaded only in front.
    auto* groups = dock(w, QCoreApplication::translate("delayq::ui::WindowLayout", "Groups"),
                        QStringLiteral("groupsdock"), p.groups, Qt::BottomDockWidgetArea);
    w->tabifyDockWidget(schedules, groups);
    timeline->raise();
    // A tab beside the queue list, not a third column: opened on the right it squeezed the
    // task table to two columns. It starts hidden (View menu) and comes to the front when shown.
    WorkerDock* worker = p.workerDock;
    w->addDockWidget(Qt::LeftDockWidgetArea, worker);
    w->tabifyDockWidget(queues, worker);
    worker->hide();
    QObject::connect(worker->toggleViewAction(), &QAction::toggled, worker, [worker](bool on) {
        // After the dock is shown: raising a hidden tab does nothing.
        if (on)
            QTimer::singleShot(0, worker, &QDockWidget::raise);
    });
    // 220 px: the chart stays readable, and the page above keeps 8 overview rows in a 700 px
    // window (260 left it 6).
    w->resizeDocks({timeline}, {220}, Qt::Vertical);
    w->resizeDocks({queues}, {270}, Qt::Horizontal);
    // On a cluster the list names each queue's node: room for it without squeezing the names.
    QObject::connect(p.queues, &QueueList::nodeColumnShown, w, [w, queues](bool shown) {
        w->resizeDocks({queues}, {shown ? 420 : 270}, Qt::Horizontal);
    });
}

void placeToolBar(QMainWindow* w, const WindowParts& p)
{
    auto* bar = w->addToolBar(QCoreApplication::translate("delayq::ui::WindowLayout", "Main"));
    bar->setObjectName(QStringLiteral("maintoolbar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(p.connectAction);
    bar->addSeparator();
    bar->addAction(p.overviewAction);
    bar->addSeparator();
    p.taskActions->addTo(bar);
    bar->addAction(p.control->pauseAction());
    bar->addSeparator();
    p.refresh->addTo(bar); // Refresh every N s, Freeze figures
    bar->addSeparator();
    bar->addAction(p.utcAction);
}

void placeMenus(QMainWindow* w, const WindowParts& p)
{
    auto* file =
        w->menuBar()->addMenu(QCoreApplication::translate("delayq::ui::WindowLayout", "&File"));
    file->addAction(p.connectAction);
    file->addSeparator();
    file->addAction(p.quitAction);
    auto* tasks =
        w->menuBar()->addMenu(QCoreApplication::translate("delayq::ui::WindowLayout", "&Tasks"));
    p.taskActions->addTo(tasks);
    auto* queueMenu =
        w->menuBar()->addMenu(QCoreApplication::translate("delayq::ui::WindowLayout", "&Queue"));
    queueMenu->addAction(p.queueActions->requeueAllDead());
    queueMenu->addAction(p.queueActions->deleteAllDead());
    queueMenu->addAction(p.exportAction->action());
    queueMenu->addSeparator();
    queueMenu->addAction(p.queueActions->purge());
    queueMenu->addSeparator();
    queueMenu->addAction(p.control->pauseAction());
    queueMenu->addAction(p.control->settingsAction());
    queueMenu->addAction(p.control->thresholdsAction());
    auto* view =
        w->menuBar()->addMenu(QCoreApplication::translate("delayq::ui::WindowLayout", "&View"));
    view->addAction(p.overviewAction);
    view->addAction(p.control->allThresholdsAction());
    view->addAction(p.utcAction);
    view->addAction(p.refresh->pauseAction());
    view->addAction(p.serverAction);
    view->addAction(p.workersAction);
    view->addSeparator();
    for (auto* dock : w->findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    view->addMenu(p.languageMenu);
    w->menuBar()->addMenu(p.alertsMenu);
    auto* help =
        w->menuBar()->addMenu(QCoreApplication::translate("delayq::ui::WindowLayout", "&Help"));
    help->addAction(p.aboutAction);
}

} // namespace

void place(QMainWindow* window, const WindowParts& parts)
{
    placePages(window, parts);
    placeDocks(window, parts);
    placeToolBar(window, parts);
    placeMenus(window, parts);
}

} // namespace delayq::ui::WindowLayout
