#include "window/windowchrome.h"

#include "audit/audittab.h"
#include "charts/historychart.h"
#include "charts/timelinechart.h"
#include "connection/connectionnotice.h"
#include "connection/layoutnotice.h"
#include "export/exportaction.h"
#include "overview/overviewpage.h"
#include "plain/plainkeybar.h"
#include "queue/queueactions.h"
#include "queue/queuecontrol.h"
#include "queue/queuelist.h"
#include "queue/refreshcontrol.h"
#include "tasks/taskactions.h"
#include "tasks/taskdetails.h"
#include "tasks/tasktabs.h"
#include "window/aboutbox.h"
#include "window/languagemenu.h"
#include "window/mainwindow.h"
#include "worker/workerdock.h"

#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace delayq::ui {

void WindowChrome::buildPages(MainWindow* w)
{
    auto* splitter = new QSplitter(Qt::Horizontal, w);
    splitter->setObjectName(QStringLiteral("tasksplitter"));
    splitter->addWidget(w->m_tabs);
    splitter->addWidget(w->m_details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({920, 280});
    w->m_plainBar = new PlainKeyBar(w);
    w->m_plainBar->hide();
    auto* central = new QWidget(w);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    w->m_layoutNotice = new LayoutNotice(w);
    centralLayout->addWidget(w->m_layoutNotice);
    centralLayout->addWidget(w->m_plainBar);
    centralLayout->addWidget(splitter, 1);
    w->m_overview = new OverviewPage(w->m_client, w);
    w->m_pages = new QStackedWidget(w);
    w->m_pages->addWidget(w->m_overview);
    w->m_pages->addWidget(central);
    // Over both pages: why the window is not connected, and that the figures are frozen.
    w->m_connectionNotice = new ConnectionNotice(w->m_client, w);
    auto* frame = new QWidget(w);
    auto* frameLayout = new QVBoxLayout(frame);
    frameLayout->setContentsMargins(0, 0, 0, 0);
    frameLayout->setSpacing(0);
    frameLayout->addWidget(w->m_connectionNotice);
    frameLayout->addWidget(w->m_refresh->makeNotice(frame));
    frameLayout->addWidget(w->m_pages, 1);
    w->setCentralWidget(frame);
}

void WindowChrome::buildFrame(MainWindow* window)
{
    buildDocks(window);
    buildToolBar(window);
    buildMenus(window);
    // What shows a server's figures; the worker dock has a connection of its own.
    window->m_connectionNotice->setViews({window->m_pages, window->m_queues, window->m_timeline,
                                          window->m_history, window->m_audit});
    QObject::connect(window->m_connectionNotice, &ConnectionNotice::connectRequested, window,
                     &MainWindow::chooseConnection);
}

void WindowChrome::buildDocks(MainWindow* w)
{
    auto dock = [w](const QString& title, const QString& name, QWidget* widget,
                    Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, w);
        d->setObjectName(name);
        d->setWidget(widget);
        w->addDockWidget(area, d);
        return d;
    };
    auto* queues = dock(MainWindow::tr("Queues"), QStringLiteral("queuesdock"), w->m_queues,
                        Qt::LeftDockWidgetArea);
    auto* timeline = dock(MainWindow::tr("Timeline"), QStringLiteral("timelinedock"), w->m_timeline,
                          Qt::BottomDockWidgetArea);
    auto* history = dock(MainWindow::tr("Acked / failed per minute"), QStringLiteral("historydock"),
                         w->m_history, Qt::BottomDockWidgetArea);
    w->splitDockWidget(timeline, history, Qt::Horizontal);
    w->resizeDocks({timeline, history}, {3, 1}, Qt::Horizontal);
    // A tab behind the history chart: it reads the trail only while it is in front.
    auto* audit = dock(MainWindow::tr("Audit"), QStringLiteral("auditdock"), w->m_audit,
                       Qt::BottomDockWidgetArea);
    w->tabifyDockWidget(history, audit);
    history->raise();
    // A tab beside the queue list, not a third column: opened on the right it squeezed the
    // task table to two columns. It starts hidden (View menu) and comes to the front when shown.
    w->addDockWidget(Qt::LeftDockWidgetArea, w->m_workerDock);
    w->tabifyDockWidget(queues, w->m_workerDock);
    w->m_workerDock->hide();
    QObject::connect(w->m_workerDock->toggleViewAction(), &QAction::toggled, w->m_workerDock,
                     [w](bool on) {
                         // After the dock is shown: raising a hidden tab does nothing.
                         if (on)
                             QTimer::singleShot(0, w->m_workerDock, &QDockWidget::raise);
                     });
    w->resizeDocks({timeline}, {260}, Qt::Vertical);
    w->resizeDocks({queues}, {270}, Qt::Horizontal);
    // On a cluster the list names each queue's node: room for it without squeezing the names.
    QObject::connect(w->m_queues, &QueueList::nodeColumnShown, w, [w, queues](bool shown) {
        w->resizeDocks({queues}, {shown ? 420 : 270}, Qt::Horizontal);
    });
}

void WindowChrome::buildToolBar(MainWindow* w)
{
    auto* bar = w->addToolBar(MainWindow::tr("Main"));
    bar->setObjectName(QStringLiteral("maintoolbar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* connectAction = bar->addAction(MainWindow::tr("Connect…"));
    QObject::connect(connectAction, &QAction::triggered, w, &MainWindow::chooseConnection);
    bar->addSeparator();
    w->m_overviewAction = bar->addAction(MainWindow::tr("Overview"));
    w->m_overviewAction->setToolTip(MainWindow::tr("Every queue of the server at a glance"));
    QObject::connect(w->m_overviewAction, &QAction::triggered, w, &MainWindow::showOverview);
    bar->addSeparator();
    w->m_actions->addTo(bar);
    bar->addAction(w->m_control->pauseAction());
    bar->addSeparator();
    w->m_refresh->addTo(bar); // Refresh every N s, Freeze figures
    bar->addSeparator();
    w->m_utc = bar->addAction(MainWindow::tr("UTC"));
    w->m_utc->setCheckable(true);
    w->m_utc->setToolTip(MainWindow::tr("Show times in UTC instead of local time"));
    QObject::connect(w->m_utc, &QAction::toggled, w, &MainWindow::setUtc);
}

void WindowChrome::buildMenus(MainWindow* w)
{
    auto* file = w->menuBar()->addMenu(MainWindow::tr("&File"));
    file->addAction(MainWindow::tr("&Connect…"), w, &MainWindow::chooseConnection);
    file->addSeparator();
    file->addAction(MainWindow::tr("&Quit"), QKeySequence::Quit, w, &QWidget::close);
    auto* tasks = w->menuBar()->addMenu(MainWindow::tr("&Tasks"));
    w->m_actions->addTo(tasks);
    auto* queueMenu = w->menuBar()->addMenu(MainWindow::tr("&Queue"));
    queueMenu->addAction(w->m_queueActions->requeueAllDead());
    queueMenu->addAction(w->m_queueActions->deleteAllDead());
    queueMenu->addAction(w->m_export->action());
    queueMenu->addSeparator();
    queueMenu->addAction(w->m_queueActions->purge());
    queueMenu->addSeparator();
    queueMenu->addAction(w->m_control->pauseAction());
    queueMenu->addAction(w->m_control->settingsAction());
    queueMenu->addAction(w->m_control->thresholdsAction());
    auto* view = w->menuBar()->addMenu(MainWindow::tr("&View"));
    view->addAction(w->m_overviewAction);
    view->addAction(w->m_control->allThresholdsAction());
    view->addAction(w->m_utc);
    view->addAction(w->m_refresh->pauseAction());
    view->addAction(MainWindow::tr("&Server…"), w, &MainWindow::showServer);
    view->addSeparator();
    for (auto* dock : w->findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    auto* language = new LanguageMenu(view);
    view->addMenu(language);
    QObject::connect(language, &LanguageMenu::languageChosen, w, [w] {
        w->statusBar()->showMessage(MainWindow::tr("The language changes at the next start."),
                                    15000);
    });
    auto* help = w->menuBar()->addMenu(MainWindow::tr("&Help"));
    help->addAction(MainWindow::tr("&About delayq-admin"), w, [w] { showAboutBox(w); });
}

} // namespace delayq::ui
