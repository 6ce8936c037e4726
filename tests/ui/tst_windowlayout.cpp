#include "audit/audittab.h"
#include "charts/timelinechart.h"
#include "find/findbar.h"
#include "overview/overviewmodel.h"
#include "overview/overviewpage.h"
#include "overview/serverview.h"
#include "queue/queuelist.h"
#include "schedules/schedulestab.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include "worker/workerdock.h"
#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/schedules.h>

#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStyle>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <qcustomplot.h>

using namespace delayq::ui;
using delayq::TaskSet;

// The window at a laptop's 1024 x 700 and at 1600 x 1000: every page shows the columns an
// operator needs, and none makes the window wider than the screen.
class TestWindowLayout : public WindowSuite
{
    Q_OBJECT

public:
    TestWindowLayout() : WindowSuite(QStringLiteral("tst_windowlayout")) {}

private:
    MainWindow* window() const { return m_fixture.window(); }

    // A queue with a task in each set, a long payload and a long error, opened.
    void openFullQueue()
    {
        m_fixture.pushDead(QStringLiteral("orders"), {QStringLiteral("gone")});
        // With an actor, as the CLI and the app have: the pushes are in the audit trail.
        delayq::ConnectionOptions options = delayq::ConnectionOptions::fromUrl(m_server.unixUrl());
        options.actor = delayq::Actor::ofThisProcess("delayq", "0.1");
        delayq::Connection conn(options);
        delayq::Queue q(conn, "orders");
        // Dead by the exec handler: its wrapper first, then what the command said.
        for (int i = 0; i < 2; ++i) {
            delayq::PushRequest d;
            d.id = "wh-" + std::to_string(i) + "-order-confirmation";
            d.payload = "{\"hook\":" + std::to_string(i) + "}";
            q.push(d);
        }
        for (const auto& t : q.claim(10, 600000, "w").tasks)
            if (t.id.rfind("wh-", 0) == 0)
                QVERIFY(q.nack(t.id, t.token, kExecError.toStdString(), delayq::Queue::kNackDeadNow)
                            .dead);

        delayq::PushRequest r;
        r.payload = "{\"order\":" + std::string(300, '7') + "}";
        for (int i = 0; i < 3; ++i)
            q.push(r);
        QVERIFY(q.claim(1, 600000, "worker-0123456789ab").tasks.size() == 1);
        // More queues than the overview must show at once, with long names.
        for (const char* name :
             {"invoices-monthly", "mail", "mail-transactional", "payments", "reports-nightly",
              "search-reindex", "thumbnails", "webhooks-eu-partner-callbacks", "webhooks"}) {
            delayq::Queue other(conn, name);
            other.push(delayq::PushRequest{});
        }
        // Two queues in fair order with busy groups: the overview's Busiest groups column shows.
        for (const char* name : {"tenants-fair", "tenants-fair-eu"}) {
            delayq::Queue fair(conn, name);
            fair.setConfig("order", "fair");
            std::vector<delayq::PushRequest> pushes;
            for (const char* group : {"tenant-0042-enterprise-accounts", "tenant-7", ""})
                for (int i = 0; i < 3; ++i) {
                    delayq::PushRequest p;
                    p.group = group;
                    p.dueAtMs = conn.serverNowMs() - 1000;
                    pushes.push_back(p);
                }
            fair.pushBatch(pushes);
        }
        // A schedule every 20 s, and a line in the audit trail.
        delayq::ScheduleRule rule;
        rule.name = "heartbeat";
        rule.everyMs = 20000;
        rule.payload = "{}";
        delayq::Schedules(conn, "orders").add(rule);
        q.setConfig("history", "10");
        m_fixture.openQueue(QStringLiteral("orders"));
    }

    static inline const QString kExecError = QStringLiteral(
        "exec: exit 7: smtp: 550 mailbox unavailable: user ops@example.com rejected");

    void showAt(const QSize& size)
    {
        window()->resize(size);
        QVERIFY(QTest::qWaitForWindowExposed(window()));
        QTRY_COMPARE(window()->size(), size);
        QCoreApplication::sendPostedEvents();
    }

    // The section is inside the viewport, whole, and at least `chars` characters wide.
    static bool isReadable(QTableView* view, int column, int chars, QString* why)
    {
        const QHeaderView* header = view->horizontalHeader();
        const QString name = view->model()->headerData(column, Qt::Horizontal).toString();
        const int at = header->sectionViewportPosition(column);
        const int width = header->sectionSize(column);
        const int room = view->viewport()->width();
        const int least = view->fontMetrics().averageCharWidth() * chars;
        if (header->isSectionHidden(column) || at < 0 || at + width > room || width < least) {
            *why = QStringLiteral("%1: at %2, %3 px wide, viewport %4 px, wanted %5 px")
                       .arg(name)
                       .arg(at)
                       .arg(width)
                       .arg(room)
                       .arg(least);
            return false;
        }
        return true;
    }

    static void checkTable(QTableView* view, const QList<QPair<int, int>>& columns)
    {
        for (const auto& [column, chars] : columns) {
            QString why;
            QVERIFY2(isReadable(view, column, chars, &why), qPrintable(why));
        }
    }

    // Each section's header text whole: `columns` (all when empty) at least as wide as their
    // header asks.
    static void checkHeaders(QTableView* view, const QList<int>& columns)
    {
        const QHeaderView* header = view->horizontalHeader();
        for (int c = 0; c < header->count(); ++c) {
            if (header->isSectionHidden(c) || (!columns.isEmpty() && !columns.contains(c)))
                continue;
            const QString name = view->model()->headerData(c, Qt::Horizontal).toString();
            // The text and the header's margins (the sort arrow's room counted where it is).
            const int margin =
                header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
            const int text = header->fontMetrics().size(0, name).width() + 2 * margin;
            QVERIFY2(header->sectionSize(c) >= text,
                     qPrintable(QStringLiteral("header %1: %2 px, its text needs %3 px")
                                    .arg(name)
                                    .arg(header->sectionSize(c))
                                    .arg(text)));
        }
    }

    void checkMinimumWidth(const char* page)
    {
        QCoreApplication::sendPostedEvents();
        const int least = window()->minimumSizeHint().width();
        QVERIFY2(least <= 1024, qPrintable(QStringLiteral("%1: %2 px").arg(page).arg(least)));
        QVERIFY2(window()->width() <= qMax(1024, m_size.width()),
                 qPrintable(QStringLiteral("%1: grew to %2 px").arg(page).arg(window()->width())));
    }

    QSize m_size;

private slots:
    void pagesAtSize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("laptop 1024x700") << QSize(1024, 700);
        QTest::newRow("desktop 1600x1000") << QSize(1600, 1000);
    }
    void pagesAtSize()
    {
        QFETCH(QSize, size);
        m_size = size;
        openFullQueue();
        showAt(size);
        TaskTabs* tabs = window()->tabs();
        // The columns of each set: all of them but the relative time on the dead tab, the
        // payload (the last one) with room for a readable start.
        const struct
        {
            TaskSet set;
            QList<QPair<TaskModel::Field, int>> fields;
        } sets[] = {
            {TaskSet::Pending,
             {{TaskModel::Field::Time, 12},
              {TaskModel::Field::Relative, 6},
              {TaskModel::Field::Id, 8},
              {TaskModel::Field::Attempts, 3},
              {TaskModel::Field::Payload, 12}}},
            {TaskSet::Active,
             {{TaskModel::Field::Time, 12},
              {TaskModel::Field::Relative, 6},
              {TaskModel::Field::Id, 8},
              {TaskModel::Field::Worker, 8},
              {TaskModel::Field::Attempts, 3},
              {TaskModel::Field::Payload, 12}}},
            {TaskSet::Dead,
             {{TaskModel::Field::Time, 12},
              {TaskModel::Field::Id, 8},
              {TaskModel::Field::Attempts, 3},
              {TaskModel::Field::LastError, 10},
              {TaskModel::Field::Payload, 12}}},
        };
        for (const auto& s : sets) {
            tabs->setCurrentSet(s.set);
            TaskTable* table = tabs->table(s.set);
            QTRY_VERIFY(table->model()->total() > 0);
            QCoreApplication::sendPostedEvents();
            QList<QPair<int, int>> columns;
            for (const auto& [field, chars] : s.fields)
                columns.append({table->model()->columnOf(field), chars});
            checkTable(table->view(), columns);
            if (QTest::currentTestFailed())
                return;
            // Nothing to scroll sideways to: every column is on screen.
            QVERIFY(!table->view()->horizontalScrollBar()->isVisible() ||
                    table->view()->horizontalScrollBar()->maximum() == 0);
            checkMinimumWidth("tasks");
        }

        // The Dead tab (in front): an error reads from what the command said, whole in its
        // tooltip; at 1600 px the error column takes the room the ids do not need.
        TaskTable* dead = tabs->table(TaskSet::Dead);
        const int errorColumn = dead->model()->columnOf(TaskModel::Field::LastError);
        const int idColumn = dead->model()->columnOf(TaskModel::Field::Id);
        int row = 0;
        while (row < dead->model()->rowCount() &&
               !dead->model()->idAt(row).startsWith(QStringLiteral("wh-")))
            ++row;
        QVERIFY(row < dead->model()->rowCount());
        const QModelIndex error = dead->model()->index(row, errorColumn);
        const QString shown = error.data().toString();
        QVERIFY2(shown.startsWith(QStringLiteral("smtp: 550 mailbox unavailable")),
                 qPrintable(shown));
        QCOMPARE(error.data(Qt::ToolTipRole).toString(), kExecError);
        if (size.width() >= 1600) {
            QTableView* view = dead->view();
            const QFontMetrics fm = view->fontMetrics();
            const int wanted = qMin(fm.horizontalAdvance(shown), fm.averageCharWidth() * 60);
            QVERIFY2(
                view->columnWidth(errorColumn) >= wanted,
                qPrintable(QStringLiteral("error column %1 px, its text %2 px, id column %3 px")
                               .arg(view->columnWidth(errorColumn))
                               .arg(wanted)
                               .arg(view->columnWidth(idColumn))));
            int widestId = 0;
            for (int r = 0; r < dead->model()->rowCount(); ++r)
                widestId = qMax(widestId, fm.horizontalAdvance(dead->model()->idAt(r)));
            QVERIFY2(view->columnWidth(idColumn) <= qMax(80, widestId + 40),
                     qPrintable(QStringLiteral("id column %1 px for ids of %2 px")
                                    .arg(view->columnWidth(idColumn))
                                    .arg(widestId)));
        }

        // The find bar open on the Dead tab, searching the errors, with matches and a
        // message, does not widen the window either.
        tabs->showFind();
        QVERIFY(tabs->findBar()->isVisible());
        checkMinimumWidth("dead tasks with the find bar");
        if (QTest::currentTestFailed())
            return;
        tabs->findBar()->input()->setText(QStringLiteral("mailbox unavailable"));
        tabs->findBar()->findTextButton()->click();
        // Generous, as the fixture's queue open: under ASan beside three other suites the
        // search once took over the default 5 s (a fresh-clone run, 2026-12-07).
        QTRY_COMPARE_WITH_TIMEOUT(tabs->findBar()->matchList()->count(), 2, 30000);
        tabs->findBar()->setError(QStringLiteral("no task with id ") +
                                  QString(80, QLatin1Char('x')));
        checkMinimumWidth("tasks with the find bar");
        if (QTest::currentTestFailed())
            return;

        // The embedded worker's panel shown.
        window()->workerDock()->show();
        checkMinimumWidth("tasks with the worker panel");
        if (QTest::currentTestFailed())
            return;
    }

    void overviewAtSize_data() { pagesAtSize_data(); }
    // The overview: every column but the node (shown on a cluster only).
    void overviewAtSize()
    {
        QFETCH(QSize, size);
        m_size = size;
        openFullQueue();
        showAt(size);
        window()->showOverview();
        QTRY_VERIFY(window()->overview()->model()->rowCount() > 0);
        QCoreApplication::sendPostedEvents();
        QList<QPair<int, int>> columns;
        QTRY_VERIFY(!window()->overview()->view()->isColumnHidden(OverviewModel::Groups));
        for (int c = OverviewModel::Name; c < OverviewModel::ColumnCount; ++c)
            if (c != OverviewModel::Node && c != OverviewModel::Server) // both hidden here
                columns.append({c, c == OverviewModel::Name ? 8 : 3});
        checkTable(window()->overview()->view(), columns);
        if (QTest::currentTestFailed())
            return;
        // At least 8 rows on screen, and every header whole.
        QTableView* view = window()->overview()->view();
        QTRY_VERIFY(view->model()->rowCount() >= 10);
        // Waited for: the page's other parts (the consumer alarms, a "not live" line) follow
        // each refresh, and under ASan in CI one read the view at 128 px of a 348 px page
        // before the layout had settled. The message names what has the rest of the page.
        const auto rowsShown = [view] { return view->viewport()->height() / view->rowHeight(0); };
        const auto parts = [this] {
            QStringList shown;
            for (const QWidget* w : window()->overview()->findChildren<QWidget*>(
                     QString(), Qt::FindDirectChildrenOnly))
                if (w->isVisible())
                    shown << QStringLiteral("%1 %2 px")
                                 .arg(w->objectName().isEmpty()
                                          ? QString::fromLatin1(w->metaObject()->className())
                                          : w->objectName())
                                 .arg(w->height());
            return shown.join(QStringLiteral(", "));
        };
        QTRY_VERIFY2_WITH_TIMEOUT(
            rowsShown() >= 8,
            qPrintable(QStringLiteral("%1 rows shown, viewport %2 px, page %3 px: %4")
                           .arg(rowsShown())
                           .arg(view->viewport()->height())
                           .arg(window()->overview()->height())
                           .arg(parts())),
            10000);
        checkHeaders(view, {});
        if (QTest::currentTestFailed())
            return;
        checkMinimumWidth("overview");
        if (QTest::currentTestFailed())
            return;

        // The queue dock shows "webhooks" and "payments" whole, not "webho…".
        QTableView* queues = window()->queueList()->view();
        QTRY_VERIFY(queues->model()->rowCount() >= 10);
        const int name = queues->fontMetrics().horizontalAdvance(QStringLiteral("payments")) + 8;
        QVERIFY2(queues->columnWidth(0) >= name,
                 qPrintable(QStringLiteral("queue names %1 px, \"payments\" needs %2 px")
                                .arg(queues->columnWidth(0))
                                .arg(name)));
    }

    // The Audit and Schedules views: every column on screen, none cut below a readable width,
    // the action, the counts and the state whole; the timeline's dense fires leave the bars
    // visible.
    void docksAtSize_data() { pagesAtSize_data(); }
    void docksAtSize()
    {
        QFETCH(QSize, size);
        m_size = size;
        openFullQueue();
        showAt(size);
        auto* auditDock = window()->findChild<QDockWidget*>(QStringLiteral("auditdock"));
        QVERIFY(auditDock);
        auditDock->raise();
        QTableView* audit = window()->audit()->view();
        QTRY_VERIFY2(audit->isVisible() && audit->model()->rowCount() >= 1,
                     qPrintable(QStringLiteral("visible %1, %2 rows")
                                    .arg(audit->isVisible())
                                    .arg(audit->model()->rowCount())));
        QCoreApplication::sendPostedEvents();
        // Time 10, ACL user 6, OS user@host 8, Tool 6, Action, Tasks, Ids / detail 14.
        checkTable(audit, {{0, 10}, {1, 6}, {2, 8}, {3, 6}, {4, 6}, {5, 2}, {6, 14}});
        checkHeaders(audit, {4, 5});
        if (QTest::currentTestFailed())
            return;
        checkMinimumWidth("audit");

        auto* schedulesDock = window()->findChild<QDockWidget*>(QStringLiteral("schedulesdock"));
        QVERIFY(schedulesDock);
        schedulesDock->raise();
        QTableView* schedules = window()->schedules()->view();
        QTRY_VERIFY(schedules->isVisible() && schedules->model()->rowCount() == 1);
        QCoreApplication::sendPostedEvents();
        checkTable(schedules, {{SchedulesTab::Name, 8},
                               {SchedulesTab::Rule, 10},
                               {SchedulesTab::State, 5},
                               {SchedulesTab::NextFire, 8},
                               {SchedulesTab::LastFire, 5},
                               {SchedulesTab::Fired, 1},
                               {SchedulesTab::Skipped, 1}});
        checkHeaders(schedules, {SchedulesTab::State, SchedulesTab::Fired, SchedulesTab::Skipped,
                                 SchedulesTab::LastFire});
        if (QTest::currentTestFailed())
            return;
        checkMinimumWidth("schedules");

        // Every 20 s over the timeline's day: thousands of fires, drawn as ticks at the top
        // edge, not as lines down through the bars.
        auto* timelineDock = window()->findChild<QDockWidget*>(QStringLiteral("timelinedock"));
        timelineDock->raise();
        TimelineChart* timeline = window()->timeline();
        QTRY_VERIFY(timeline->firesShown().size() > 100);
        QCPGraph* fires = timeline->plot()->graph(0);
        QVERIFY(fires);
        // Each fire's line spans the top tenth of the plot only.
        QCOMPARE(fires->valueAxis()->range().lower, -9.0);
        QCOMPARE(fires->valueAxis()->range().upper, 1.0);
    }

    // Both notices over the pages at once (a request unanswered for 500 ms, on a frozen
    // window) leave the window at a laptop's 1024 x 700, on the tasks page and the overview:
    // a slow answer under load once made the window 725 px tall.
    void noticesFitAt_data()
    {
        QTest::addColumn<bool>("overview");
        QTest::newRow("tasks") << false;
        QTest::newRow("overview") << true;
    }
    void noticesFitAt()
    {
        QFETCH(bool, overview);
        openFullQueue();
        if (overview)
            window()->showOverview();
        auto* notice = window()->findChild<QFrame*>(QStringLiteral("connectionnotice"));
        QVERIFY(notice);
        auto* text = notice->findChild<QLabel*>();
        QVERIFY(text);
        text->setText(QStringLiteral("redis://orders-primary.internal.example.com:6379 has not "
                                     "answered for 0.5 s — reconnecting…"));
        notice->show();
        auto* freeze = window()->findChild<QLabel*>(QStringLiteral("frozennotice"));
        QVERIFY(freeze);
        freeze->setText(QStringLiteral("Live updates off since 03:12:45: the figures shown "
                                       "change only on F5 or after an action of yours."));
        freeze->show();
        showAt(QSize(1024, 700));
        QVERIFY2(window()->minimumSizeHint().height() <= 700,
                 qPrintable(QStringLiteral("%1 px").arg(window()->minimumSizeHint().height())));
        // The details pane scrolls up and down only: none of it is cut at the right.
        auto* details = window()->findChild<QScrollArea*>(QStringLiteral("detailsscroll"));
        QVERIFY(details);
        QVERIFY2(details->widget()->width() <= details->viewport()->width(),
                 qPrintable(QStringLiteral("details %1 px in a viewport of %2 px")
                                .arg(details->widget()->width())
                                .arg(details->viewport()->width())));
    }

    // Scrolled down to a task's payload, the details pane goes back to its top when another
    // queue opens: its field labels were left scrolled out of view.
    void detailsScrollBackWhenAnotherQueueOpens()
    {
        openFullQueue();
        showAt(QSize(1024, 700));
        auto* details = window()->findChild<QScrollArea*>(QStringLiteral("detailsscroll"));
        QVERIFY(details);
        // Taller than its viewport, as on a short screen.
        details->widget()->setMinimumHeight(details->viewport()->height() + 400);
        QCoreApplication::sendPostedEvents();
        QScrollBar* bar = details->verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 0);
        bar->setValue(bar->maximum());
        m_fixture.openQueue(QStringLiteral("mail"));
        QTRY_COMPARE(window()->queue(), QStringLiteral("mail"));
        QCOMPARE(bar->value(), 0);
    }

    // The server view, with the open queue's shards, fits a laptop's screen.
    void serverViewFits()
    {
        openFullQueue();
        ServerView view(window()->client(), window()->queue(), window());
        QSignalSpy loaded(&view, &ServerView::loaded);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(view.shards()->rowCount(), 1);
        QVERIFY(view.sizeHint().width() <= 1024);
        QVERIFY(view.minimumSizeHint().width() <= 1024);
        QVERIFY(view.minimumSizeHint().height() <= 700);
        QVERIFY(view.width() <= 1024 && view.height() <= 700);
    }
};

QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
