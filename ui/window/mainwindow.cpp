#include "window/mainwindow.h"

#include "alerts/alertcenter.h"
#include "audit/audittab.h"
#include "charts/throughputchart.h"
#include "charts/timelinechart.h"
#include "client/adminclient.h"
#include "client/openqueue.h"
#include "client/plainclient.h"
#include "connection/connectiondialog.h"
#include "connection/connectionnotice.h"
#include "connection/connectionprofiles.h"
#include "connection/connectionstatus.h"
#include "connection/layoutnotice.h"
#include "connection/sessionstore.h"
#include "export/exportaction.h"
#include "overview/overviewpage.h"
#include "overview/serverview.h"
#include "overview/watchedserversview.h"
#include "overview/workersview.h"
#include "plain/plainkeybar.h"
#include "queue/groupstab.h"
#include "queue/purgedialog.h"
#include "queue/queueactions.h"
#include "queue/queuecontrol.h"
#include "queue/queuelist.h"
#include "queue/queueload.h"
#include "queue/recyclebinactions.h"
#include "queue/refreshcontrol.h"
#include "queue/thresholds.h"
#include "schedules/schedulestab.h"
#include "tasks/detailsfollower.h"
#include "tasks/taskactions.h"
#include "tasks/taskdetails.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "widgets/duetext.h"
#include "widgets/layoutbatch.h"
#include "window/aboutbox.h"
#include "window/languagemenu.h"
#include "window/windowlayout.h"
#include "worker/workerdock.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QToolButton>
#include <QApplication>
#include <QCloseEvent>
#include <QLabel>
#include <QScreen>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTableView>

namespace delayq::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("MainWindow"));
    m_client = new AdminClient(this);
    m_open = new OpenQueue(this);
    m_tabs = new TaskTabs(m_client, this);
    m_details = new TaskDetails(this);
    m_detailsFollower = new DetailsFollower(m_client, m_tabs, m_details, this);
    m_refresh = new RefreshControl(this);
    connect(m_refresh, &RefreshControl::refreshDue, this, &MainWindow::refreshAll);
    m_plainBar = new PlainKeyBar(this);
    m_plainBar->hide();
    m_layoutNotice = new LayoutNotice(this);
    m_overview = new OverviewPage(m_client, this);
    m_pages = new QStackedWidget(this);
    m_connectionNotice = new ConnectionNotice(m_client, this);
    m_timeline = new TimelineChart(m_client, this);
    m_timeline->setThresholdOf(
        [](const QString& queue) { return Thresholds::forQueue(queue).overdueMs; });
    m_throughput = new ThroughputChart(m_client, this);
    m_audit = new AuditTab(m_client, this);
    m_schedules = new SchedulesTab(m_client, this);
    m_groups = new GroupsTab(m_client, this);
    m_queues = new QueueList(m_client, this);
    m_actions = new TaskActions(m_client, m_tabs, this);
    m_queueActions = new QueueActions(m_client, this);
    m_bin = new RecycleBinActions(m_client, this);
    m_control = new QueueControl(m_client, this);
    m_export = new ExportAction(m_client, this);
    m_export->setSelection([this] { return m_tabs->current()->set(); },
                           [this] { return m_tabs->current()->selectedIds(); });
    m_status = new ConnectionStatus(this);
    m_workerDock = new WorkerDock(m_client, this);
    // Alerts go out only while the operator cannot see the window.
    m_alerts = new AlertCenter([this] { return isMinimized() || !isVisible(); }, this);
    m_zone = new QLabel(this);
    m_zone->setToolTip(tr("The zone of the times shown (View → UTC switches)"));
    statusBar()->addPermanentWidget(m_bin->undoButton());
    statusBar()->addPermanentWidget(m_zone);
    statusBar()->addPermanentWidget(m_status);

    m_load = new QueueLoad(m_client, m_tabs, m_timeline, m_layoutNotice, this);
    connect(m_load, &QueueLoad::loaded, this, &MainWindow::queueLoaded);
    connect(m_load, &QueueLoad::countsFailed, this, [this](const QString& message) {
        m_countsFailure = message;
        statusBar()->showMessage(message, 8000);
    });
    // Its 8 s would outlast a short outage: "not connected" beside a live status bar.
    connect(m_load, &QueueLoad::countsRecovered, this, [this] {
        if (statusBar()->currentMessage() == m_countsFailure)
            statusBar()->clearMessage();
    });

    WindowLayout::place(this, makeParts());
    // The recycle bin's view, in the Queue menu before the purge it can undo.
    for (QAction* menu : menuBar()->actions())
        if (menu->menu() && menu->menu()->actions().contains(m_queueActions->purge()))
            menu->menu()->insertAction(m_queueActions->purge(), m_bin->viewAction());
    followOpenQueue();
    connectClient();
    connectViews();
    connectOverview();
    // Never larger than the screen: on a laptop's 1024 x 700 it opened 1280 px wide. The size
    // is the window's inside; the window manager's title bar comes on top (its height is not
    // known before the window is shown), and at the screen's full height it pushed the status
    // bar, where an outage is said, off the bottom.
    constexpr int kTitleBarAllowance = 48;
    resize(screen() ? QSize(1280, 820).boundedTo(screen()->availableSize() -
                                                 QSize(0, kTitleBarAllowance))
                    : QSize(1280, 820));
    updateTitle();
    updateZone();
}

MainWindow::~MainWindow() = default;

WindowParts MainWindow::makeParts()
{
    auto* connectAction = new QAction(tr("&Connect…"), this);
    connect(connectAction, &QAction::triggered, this, &MainWindow::chooseConnection);
    m_overviewAction = new QAction(tr("Overview"), this);
    m_overviewAction->setToolTip(tr("Every queue of the server at a glance"));
    connect(m_overviewAction, &QAction::triggered, this, &MainWindow::showOverview);
    m_utc = new QAction(tr("UTC"), this);
    m_utc->setCheckable(true);
    m_utc->setToolTip(tr("Show times in UTC instead of local time"));
    connect(m_utc, &QAction::toggled, this, &MainWindow::setUtc);
    auto* serverAction = new QAction(tr("&Server…"), this);
    connect(serverAction, &QAction::triggered, this, &MainWindow::showServer);
    auto* workersAction = new QAction(tr("&Workers…"), this);
    workersAction->setToolTip(tr("Every worker of every queue, from their heartbeats"));
    connect(workersAction, &QAction::triggered, this, &MainWindow::showWorkers);
    auto* quitAction = new QAction(tr("&Quit"), this);
    quitAction->setShortcut(QKeySequence::Quit);
    connect(quitAction, &QAction::triggered, this, &MainWindow::quit);
    auto* aboutAction = new QAction(tr("&About delayq-admin"), this);
    connect(aboutAction, &QAction::triggered, this, [this] { showAboutBox(this); });
    auto* language = new LanguageMenu(this);
    connect(language, &LanguageMenu::languageChosen, this, [this] {
        statusBar()->showMessage(tr("The language changes at the next start."), 15000);
    });
    return {.pages = m_pages,
            .overview = m_overview,
            .tabs = m_tabs,
            .details = m_details,
            .layoutNotice = m_layoutNotice,
            .plainBar = m_plainBar,
            .connectionNotice = m_connectionNotice,
            .refresh = m_refresh,
            .queues = m_queues,
            .timeline = m_timeline,
            .throughput = m_throughput,
            .audit = m_audit,
            .schedules = m_schedules,
            .groups = m_groups,
            .workerDock = m_workerDock,
            .taskActions = m_actions,
            .queueActions = m_queueActions,
            .control = m_control,
            .exportAction = m_export,
            .connectAction = connectAction,
            .overviewAction = m_overviewAction,
            .utcAction = m_utc,
            .serverAction = serverAction,
            .workersAction = workersAction,
            .aboutAction = aboutAction,
            .quitAction = quitAction,
            .languageMenu = language,
            .alertsMenu = m_alerts->menu()};
}

void MainWindow::connectAlerts()
{
    connect(m_alerts, &AlertCenter::showRequested, this, &MainWindow::comeBack);
    connect(m_alerts, &AlertCenter::quitRequested, this, &MainWindow::quit);
    connect(m_alerts, &AlertCenter::openRequested, this,
            [this](const QString& server, const QString& queue) {
                comeBack();
                if (server != m_alerts->ownServer()) {
                    statusBar()->showMessage(
                        tr("That alert is about %1: connect to it (File → Connect…) to see it")
                            .arg(server),
                        30000);
                    return;
                }
                if (!queue.isEmpty())
                    openQueue(queue);
            });
}

void MainWindow::quit()
{
    m_quitting = true;
    close();
}

void MainWindow::comeBack()
{
    showNormal();
    raise();
    activateWindow();
}

void MainWindow::connectClient()
{
    connect(m_client, &AdminClient::connected, this, [this](const ServerInfo& info) {
        m_status->setConnected(info);
        m_displayUrl = info.displayUrl;
        const QString profile = ConnectionProfiles::nameFor(
            ConnectionProfiles::stripPassword(m_client->settings().url));
        m_alerts->setOwnServer(profile.isEmpty() ? info.displayUrl : profile);
        m_open->setServer(info.displayUrl);
        m_open->setClockOffset(info.clockOffsetMs);
        m_open->setReadOnly(info.readOnly, info.readOnlyReason);
        updateTitle();
        m_queues->refresh();
        refreshAll();
    });
    connect(m_client, &AdminClient::statusUpdated, m_status, &ConnectionStatus::setStatus);
    connect(m_client, &AdminClient::unanswered, m_status, &ConnectionStatus::setUnanswered);
    connect(m_client, &AdminClient::answered, m_status, &ConnectionStatus::setAnswered);
    connect(m_status, &ConnectionStatus::masterChanged, this,
            [this](const QString& group, const QString& address) {
                const QString line =
                    tr("Failover: %1 is now served by master %2").arg(group, address);
                statusBar()->showMessage(line, 30000);
                m_workerDock->note(line);
            });
    // The title names the server tried and says when it is not connected (updateTitle).
    connect(m_client, &AdminClient::connecting, this, [this](const QString& displayUrl) {
        m_status->setConnecting(displayUrl);
        m_displayUrl = displayUrl;
        updateTitle();
    });
    connect(m_client, &AdminClient::disconnected, this,
            [this](const QString& reason, bool retrying) {
                m_status->setDisconnected(reason, retrying);
                m_alerts->ownUnreachable(reason);
                updateTitle();
            });
    connectAlerts();
    // The embedded worker logs in as the same user, so it stops too rather than fail each claim.
    connect(m_client, &AdminClient::readOnlyDetected, this,
            [this](const QString& reason) { m_open->setReadOnly(true, reason); });
    // The unit detected on the I/O thread, when none was given or remembered.
    connect(m_client->plain(), &PlainClient::plainKeySet, m_open, &OpenQueue::setUnit);
}

void MainWindow::connectViews()
{
    // What shows a server's figures; the worker dock has a connection of its own.
    m_connectionNotice->setViews(
        {m_pages, m_queues, m_timeline, m_throughput, m_audit, m_schedules, m_groups});
    connect(m_connectionNotice, &ConnectionNotice::connectRequested, this,
            &MainWindow::chooseConnection);
    connect(m_queues, &QueueList::queueOpened, this, &MainWindow::openQueue);
    connect(m_queues, &QueueList::plainKeyOpened, this,
            [this](const QString& key, const QString& unit) { openPlainKey(key, unit); });
    connect(m_plainBar, &PlainKeyBar::unitChosen, this,
            [this](const QString& key, const QString& unit) { openPlainKey(key, unit, true); });
    connect(m_tabs, &TaskTabs::statusMessage, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    connect(m_actions, &TaskActions::refreshRequested, this, &MainWindow::refreshAll);
    // After an action the find bar's matches are checked at once, not at the next 10 s.
    connect(m_actions, &TaskActions::refreshRequested, m_tabs, &TaskTabs::checkMatches);
    connect(m_queueActions, &QueueActions::refreshRequested, this, &MainWindow::refreshAll);
    connect(m_queueActions, &QueueActions::resultReported, this, &MainWindow::showResult);
    connect(m_bin, &RecycleBinActions::resultReported, this, &MainWindow::showResult);
    connect(m_bin, &RecycleBinActions::refreshRequested, this, &MainWindow::refreshAll);
    connect(m_actions, &TaskActions::resultReported, this, &MainWindow::showResult);
    connect(m_export, &ExportAction::resultReported, this, &MainWindow::showResult);
    // The purge dialog offers a backup first.
    connect(m_queueActions, &QueueActions::dialogOpened, this, [this](QDialog* dialog) {
        if (auto* purge = qobject_cast<PurgeDialog*>(dialog))
            connect(purge, &PurgeDialog::exportRequested, m_export,
                    [this](const QString& queue) { m_export->ask(queue); });
    });
    // The operator sees the task just pushed, selected, without looking for it.
    connect(m_actions, &TaskActions::taskPushed, this,
            [this](const QString& queue, const QString& id) {
                if (queue == m_open->name())
                    m_tabs->selectTask(id);
            });
    // A schedule added, changed or deleted: its fires on the timeline follow at once.
    connect(m_schedules, &SchedulesTab::changeFinished, this, [this](const QString& queue) {
        if (queue == m_open->name())
            m_timeline->refresh();
    });
    connect(m_schedules, &SchedulesTab::resultReported, this, &MainWindow::showResult);
    connect(m_timeline, &TimelineChart::timeClicked, this, [this](qint64 ms) {
        m_tabs->setCurrentSet(TaskSet::Pending);
        m_tabs->table(TaskSet::Pending)->scrollToTime(ms);
    });
}

void MainWindow::connectOverview()
{
    connect(m_overview, &OverviewPage::queueOpened, this, &MainWindow::openQueue);
    connect(m_overview, &OverviewPage::plainKeyOpened, this,
            [this](const QString& key, const QString& unit) { openPlainKey(key, unit); });
    connect(m_overview, &OverviewPage::pauseRequested, m_control, &QueueControl::setPaused);
    connect(m_overview, &OverviewPage::settingsRequested, m_control, &QueueControl::openSettings);
    connect(m_overview, &OverviewPage::thresholdsRequested, m_control,
            &QueueControl::openThresholds);
    connect(m_overview, &OverviewPage::refreshed, this, &MainWindow::onOverview);
    connect(m_overview, &OverviewPage::selectedRowChanged, this, &MainWindow::updateQueueTarget);
    connect(m_pages, &QStackedWidget::currentChanged, this, &MainWindow::updateQueueTarget);
    connect(m_overview, &OverviewPage::refreshed, m_alerts, &AlertCenter::ownReadingDone);
    WatchedServersView* watched = m_overview->watched();
    connect(m_alerts, &AlertCenter::watchedRead, watched, &WatchedServersView::setReading);
    connect(m_alerts, &AlertCenter::watchedUnreachable, watched,
            &WatchedServersView::setUnreachable);
    connect(m_alerts, &AlertCenter::watchEnded, watched, &WatchedServersView::remove);
    connect(m_queues, &QueueList::plainKeysListed, this, [this] {
        m_overview->setPlainKeys(m_queues->plainRows());
        m_overview->refresh(); // the keys now, not at the next tick
    });
    connect(m_control, &QueueControl::thresholdsChanged, m_overview,
            &OverviewPage::reloadThresholds);
    connect(m_control, &QueueControl::pausedChanged, this,
            [this](const QString& queue, bool paused) {
                if (paused)
                    m_pausedQueues.insert(queue);
                else
                    m_pausedQueues.remove(queue);
                updateTitle();
                m_overview->refresh();
            });
    connect(m_control, &QueueControl::settingsSaved, m_overview, &OverviewPage::refresh);
    connect(m_control, &QueueControl::resultReported, this, &MainWindow::showResult);
}

void MainWindow::onOverview(const OverviewResult& result)
{
    if (!result.error.isEmpty())
        return;
    QSet<QString> paused;
    for (const auto& row : result.rows)
        if (row.paused)
            paused.insert(row.name);
    m_queues->setPausedQueues(paused);
    m_pausedQueues = paused;
    updateQueueTarget();
    updateTitle();
}

void MainWindow::updateQueueTarget()
{
    QString target = m_open->name();
    bool plain = m_open->isPlain();
    if (isOverviewShown()) {
        // What the operator selected on the page they see, never the queue hidden behind it.
        const OverviewRow* row = m_overview->selectedRow();
        target = row ? row->name : QString();
        plain = row && row->plain;
    }
    // The queue list marks the same queue, never the one hidden behind the Overview.
    m_queues->setCurrentQueue(target);
    m_control->setQueue(target, plain);
    m_control->setQueuePaused(!plain && m_pausedQueues.contains(target));
    m_queueActions->setPlain(plain);
    m_queueActions->setQueue(target);
    m_bin->setQueue(target, plain);
}

void MainWindow::showOverview()
{
    m_pages->setCurrentIndex(0);
    m_overview->refresh();
}

bool MainWindow::isOverviewShown() const
{
    return m_pages->currentIndex() == 0;
}

void MainWindow::chooseConnection()
{
    auto* dialog = new ConnectionDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->startFrom(m_client->settings());
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const ConnectionSettings chosen = dialog->settings();
        // Remembered for the next start (without any password), so only a first start
        // falls back to the sandbox.
        SessionStore::saveConnection(chosen);
        connectTo(chosen);
        openQueue({});
    });
    dialog->open();
}

void MainWindow::connectTo(const ConnectionSettings& settings)
{
    m_status->setConnecting({});
    m_open->setReadOnly(settings.readOnly, tr("this connection is read-only"));
    m_bin->setReadOnly(settings.readOnly);
    m_client->connectTo(settings);
    m_workerDock->followConnection();
}

void MainWindow::openQueue(const QString& name)
{
    if (m_open->isPlain())
        m_client->plain()->setPlainKey({}, {});
    const LayoutBatch batch(this); // each piece shows and hides its parts: one layout pass
    m_open->open(name, false);
}

void MainWindow::openPlainKey(const QString& key, const QString& unit, bool chosen)
{
    const QString effective = PlainKeyBar::unitFor(key, unit, chosen);
    // Posted before the loads the pieces ask for, so they already go to the plain key.
    m_client->plain()->setPlainKey(key, effective);
    const LayoutBatch batch(this);
    m_open->open(key, true, effective);
}

void MainWindow::followOpenQueue()
{
    // The load of a queue just opened is waited for before its pieces ask for their pages.
    connect(m_open, &OpenQueue::opened, m_load, [this] { m_load->start(m_open->name()); });
    m_open->follow(m_tabs);
    m_open->follow(m_timeline);
    m_open->follow(m_throughput);
    m_open->follow(m_audit);
    m_open->follow(m_schedules);
    m_open->follow(m_groups);
    m_open->follow(m_details);
    m_open->follow(m_detailsFollower);
    m_open->follow(m_actions);
    m_open->follow(m_export);
    m_open->follow(m_workerDock);
    m_open->follow(m_overview);
    // The queue-wide actions aim at the open queue or the Overview's row (updateQueueTarget):
    // of the state they follow only whether the connection may write.
    connect(m_open, &OpenQueue::readOnlyChanged, this, [this] {
        m_queueActions->setReadOnly(m_open->isReadOnly(), m_open->readOnlyReason());
        m_control->setReadOnly(m_open->isReadOnly(), m_open->readOnlyReason());
    });
    connect(m_open, &OpenQueue::serverChanged, m_control,
            [this] { m_control->setServer(m_open->server()); });
    connect(m_open, &OpenQueue::unitChanged, m_plainBar,
            [this] { m_plainBar->setKey(m_open->name(), m_open->unit()); });
    connect(m_open, &OpenQueue::utcChanged, this, [this] {
        updateZone();
        m_detailsFollower->follow(); // the details again, in the new zone
    });
    connect(m_open, &OpenQueue::opened, this, &MainWindow::onOpened);
}

void MainWindow::onOpened()
{
    const QString name = m_open->name();
    m_plainBar->setVisible(m_open->isPlain());
    if (m_open->isPlain())
        m_plainBar->setKey(name, m_open->unit());
    updateQueueTarget();
    if (m_serverView)
        m_serverView->setQueue(m_open->isPlain() ? QString() : name); // from its next refresh
    m_pages->setCurrentIndex(name.isEmpty() ? 0 : 1);
    updateTitle();
    emit queueChanged(name);
    refreshAll();
}

QString MainWindow::queue() const
{
    return m_open->name();
}

bool MainWindow::isPlain() const
{
    return m_open->isPlain();
}

void MainWindow::refreshAll()
{
    if (!m_client->isConnected())
        return;
    m_queues->refresh();
    m_overview->refresh();
    if (m_open->name().isEmpty())
        return;
    m_tabs->refresh();
    m_throughput->refresh();
    m_audit->refresh();
    m_schedules->refresh();
    m_groups->refresh();
    // The timeline waits for the counts: its default window starts at the oldest task.
    m_load->refreshCounts();
}

void MainWindow::showResult(const QString& summary)
{
    statusBar()->showMessage(summary, 15000);
}

void MainWindow::setRefreshInterval(int ms)
{
    m_refresh->setInterval(ms);
}

void MainWindow::setPaused(bool paused)
{
    m_refresh->setPaused(paused);
}

void MainWindow::setUtc(bool utc)
{
    if (m_utc && m_utc->isChecked() != utc) {
        m_utc->setChecked(utc); // toggled() comes back here and does the rest
        return;
    }
    m_open->setUtc(utc);
}

ServerView* MainWindow::showServer()
{
    // A plain key has no shards.
    const QString nativeQueue = m_open->isPlain() ? QString() : m_open->name();
    if (!m_serverView) {
        m_serverView = new ServerView(m_client, nativeQueue, this);
        m_serverView->setAttribute(Qt::WA_DeleteOnClose);
    } else {
        m_serverView->setQueue(nativeQueue);
        m_serverView->reload();
    }
    m_serverView->show();
    m_serverView->raise();
    return m_serverView;
}

WorkersView* MainWindow::showWorkers()
{
    if (!m_workersView) {
        m_workersView = new WorkersView(m_client, this);
        m_workersView->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_workersView, &WorkersView::heldTasksRequested, this,
                [this](const QString& queue, const QString& worker) {
                    openQueue(queue);
                    m_tabs->findHeldBy(worker);
                });
    } else {
        m_workersView->reload();
    }
    m_workersView->show();
    m_workersView->raise();
    return m_workersView;
}

void MainWindow::updateTitle()
{
    const QString queue = m_open->name();
    QString title = QStringLiteral("delayq-admin");
    if (!queue.isEmpty())
        title += QStringLiteral(" — ") + queue;
    if (!queue.isEmpty() && !m_open->isPlain() && m_pausedQueues.contains(queue))
        title += QLatin1Char(' ') + tr("(paused)");
    if (!m_displayUrl.isEmpty())
        title += QStringLiteral(" — ") + m_displayUrl;
    if (!m_displayUrl.isEmpty() && !m_status->isUp())
        title += QLatin1Char(' ') + tr("(not connected)");
    setWindowTitle(title);
}

void MainWindow::updateZone()
{
    m_zone->setText(tr("Times: %1").arg(DueText::zoneName(isUtc())));
}

bool MainWindow::isUtc() const
{
    return m_utc && m_utc->isChecked();
}

void MainWindow::restoreLayout()
{
    const SessionStore::View view = SessionStore::view();
    restoreGeometry(view.geometry);
    restoreState(view.state);
    setUtc(view.utc);
}

bool MainWindow::openLastQueue()
{
    // Only on the server it was open on: the same name elsewhere is another queue.
    const SessionStore::OpenQueue last = SessionStore::openQueue();
    if (last.name.isEmpty() ||
        last.server != ConnectionDialog::stripPassword(m_client->settings().url))
        return false;
    if (last.plain)
        openPlainKey(last.name, QString());
    else
        openQueue(last.name);
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // With a tray, closing hides the window and alerts go on; the tray's Quit ends the app.
    if (m_alerts->tray() && m_alerts->tray()->isVisible() && !m_quitting) {
        hide();
        event->ignore();
        m_alerts->tray()->showMessage(
            QStringLiteral("delayq-admin"),
            tr("Still watching from the tray: alerts go on. Quit from the tray's menu."));
        return;
    }
    SessionStore::saveView({saveGeometry(), saveState(), isUtc()});
    SessionStore::saveOpenQueue({m_client->settings().url, m_open->name(), m_open->isPlain()});
    QMainWindow::closeEvent(event);
}

} // namespace delayq::ui
