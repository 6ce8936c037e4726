#include "client/adminclient.h"
#include "redissuite.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QHeaderView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QWheelEvent>

using namespace delayq::ui;
using delayq::TaskSet;

// The lazily paged task model against a real redis-server.
class TestTaskModel : public RedisSuite
{
    Q_OBJECT

protected:
    void initSuite() override
    {
        m_client = new AdminClient(this);
        QSignalSpy connected(m_client, &AdminClient::connected);
        m_client->connectTo(ConnectionSettings::forUrl(QString::fromStdString(m_server.unixUrl())));
        QVERIFY(connected.wait(10000));
    }

private slots:
    void passesModelTester()
    {
        pushTasks(QStringLiteral("q"), 1000, nowMs() + 3600000, 1000);
        TaskModel model(m_client, TaskSet::Pending);
        model.setPageSize(100);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setQueue(QStringLiteral("q"));
        QTRY_COMPARE(model.rowCount(), 1000);
        // The tester reads rows; reading far rows loads their pages.
        model.data(model.index(950, 0));
        QTRY_VERIFY(model.taskAt(950) != nullptr);
        pushTasks(QStringLiteral("q"), 200, nowMs() + 60000, 1);
        QSignalSpy refreshed(&model, &TaskModel::refreshed);
        model.refresh();
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(model.rowCount(), 1200);
        pushTasks(QStringLiteral("q2"), 1, nowMs(), 1);
        model.setQueue(QStringLiteral("q2"));
        QTRY_COMPARE(model.rowCount(), 1);
    }

    void pagesLazily_data()
    {
        QTest::addColumn<int>("total");
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<int>("row");
        QTest::newRow("first page") << 50 << 20 << 5;
        QTest::newRow("middle page") << 500 << 100 << 250;
        QTest::newRow("last row") << 1001 << 100 << 1000;
        QTest::newRow("page boundary") << 400 << 200 << 200;
    }
    void pagesLazily()
    {
        QFETCH(int, total);
        QFETCH(int, pageSize);
        QFETCH(int, row);
        pushTasks(QStringLiteral("lazy"), total, nowMs() + 60000, 10);
        TaskModel model(m_client, TaskSet::Pending);
        model.setPageSize(pageSize);
        QSignalSpy refreshed(&model, &TaskModel::refreshed);
        model.setQueue(QStringLiteral("lazy"));
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(model.rowCount(), total);
        // Only the first page is fetched on open.
        QVERIFY(model.taskAt(0) != nullptr);
        if (row >= pageSize)
            QVERIFY(model.taskAt(row) == nullptr);
        QCOMPARE(
            model
                .data(model.index(row, model.columnOf(TaskModel::Field::Id)), TaskModel::LoadedRole)
                .toBool(),
            row < pageSize);
        QTRY_VERIFY(model.taskAt(row) != nullptr);
        const QByteArray expected =
            m_server
                .cli({QStringLiteral("ZRANGE"), QStringLiteral("dq:{lazy}:pending"),
                      QString::number(row), QString::number(row)})
                .trimmed();
        QCOMPARE(model.idAt(row).toUtf8(), expected);
    }

    void refreshKeepsSelection()
    {
        const qint64 base = nowMs() + 3600000;
        pushTasks(QStringLiteral("sel"), 300, base, 1000);
        TaskTable table(m_client, TaskSet::Pending);
        table.model()->setPageSize(100);
        table.resize(800, 600);
        table.show();
        QSignalSpy refreshed(table.model(), &TaskModel::refreshed);
        table.setQueue(QStringLiteral("sel"));
        QVERIFY(refreshed.wait(5000));
        table.jumpToRow(10);
        const QString id = table.model()->idAt(10);
        QVERIFY(!id.isEmpty());
        QTableView* view = table.view();
        const int y = view->visualRect(view->currentIndex()).top();

        // Five tasks due earlier push the selected one down by five rows; the table keeps its
        // place by task: the selected one stays where it was on the screen.
        pushTasks(QStringLiteral("sel"), 5, base - 60000, 1);
        table.refresh();
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(table.view()->selectionModel()->currentIndex().row(), 15);
        QCOMPARE(table.selectedIds(), QStringList{id});
        QCOMPARE(view->visualRect(view->currentIndex()).top(), y);

        // Tasks before it leave (cancelled): it moves up and stays selected.
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "sel");
        auto first = q.page(delayq::TaskSet::Pending, 0, 8);
        std::vector<std::string> ids;
        for (const auto& t : first)
            ids.push_back(t.id);
        q.cancel(ids);
        table.refresh();
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(table.view()->selectionModel()->currentIndex().row(), 7);
        QCOMPARE(table.selectedIds(), QStringList{id});
        QCOMPARE(table.model()->rowCount(), 297);
        // Eight rows left above it, with only five scrolled past: the table is at its top and
        // the task moved up three rows, still in view.
        QCOMPARE(view->verticalScrollBar()->value(), 0);
        QVERIFY(view->viewport()->rect().contains(view->visualRect(view->currentIndex())));
    }

    void refreshDropsASelectionWhoseTaskWent_data()
    {
        QTest::addColumn<bool>("claimed");
        QTest::newRow("cancelled") << false;
        QTest::newRow("consumed by a worker") << true;
    }
    void refreshDropsASelectionWhoseTaskWent()
    {
        QFETCH(bool, claimed);
        // Due already, so that a worker's claim takes the first one, the selected one.
        pushTasks(QStringLiteral("gone"), 50, nowMs() - 60000, 10);
        TaskTable table(m_client, TaskSet::Pending);
        table.resize(800, 600);
        table.show();
        QSignalSpy refreshed(table.model(), &TaskModel::refreshed);
        table.setQueue(QStringLiteral("gone"));
        QVERIFY(refreshed.wait(5000));
        const int row = claimed ? 0 : 10;
        table.jumpToRow(row);
        const QString id = table.model()->idAt(row);
        QCOMPARE(table.selectedIds(), QStringList{id});

        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "gone");
        if (claimed)
            QCOMPARE(q.claim(1, 60000, "w").tasks.at(0).id, id.toStdString());
        else
            QCOMPARE(q.cancel({id.toStdString()}).at(0).status, delayq::IdResult::Status::Done);
        QSignalSpy left(&table, &TaskTable::selectionLeft);
        table.refresh();
        QVERIFY(refreshed.wait(5000));
        // Said, not silent (the window shows it in the status bar).
        QCOMPARE(left.size(), 1);
        QCOMPARE(left.first().at(0).toStringList(), QStringList{id});
        // The row it left holds the next task now: that one was not chosen.
        QCOMPARE(table.model()->rowCount(), 49);
        QCOMPARE(table.selectedIds(), QStringList());
        QVERIFY(!table.view()->selectionModel()->currentIndex().isValid());
        QVERIFY(table.currentTask() == nullptr);
    }

    void refreshFollowsASelectionScrolledAway()
    {
        const qint64 base = nowMs() + 3600000;
        pushTasks(QStringLiteral("away"), 600, base, 1000);
        TaskTable table(m_client, TaskSet::Pending);
        table.model()->setPageSize(100);
        table.resize(800, 600);
        table.show();
        QSignalSpy refreshed(table.model(), &TaskModel::refreshed);
        table.setQueue(QStringLiteral("away"));
        QVERIFY(refreshed.wait(5000));
        table.jumpToRow(10);
        const QString id = table.model()->idAt(10);
        // Scrolled far away: pages 2 to 5 are the ones last looked at.
        for (int row : {250, 350, 450, 550}) {
            table.model()->ensureLoaded(row);
            QTRY_VERIFY(table.model()->taskAt(row));
            table.model()->data(table.model()->index(row, 0));
        }
        pushTasks(QStringLiteral("away"), 5, base - 60000, 1);
        table.refresh();
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(table.selectedIds(), QStringList{id});
        QCOMPARE(table.view()->selectionModel()->currentIndex().row(), 15);
    }

    void selectTaskChecksTheRowByItsId()
    {
        pushTasks(QStringLiteral("byid"), 300, nowMs() + 3600000, 1000);
        TaskTable table(m_client, TaskSet::Pending);
        table.model()->setPageSize(100);
        table.resize(800, 600);
        table.show();
        QSignalSpy refreshed(table.model(), &TaskModel::refreshed);
        table.setQueue(QStringLiteral("byid"));
        QVERIFY(refreshed.wait(5000));
        const QString target = table.model()->idAt(10);
        const QString stale = table.model()->idAt(7);
        // Three tasks before it leave; the table has not refreshed, its row 7 is another task.
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "byid");
        std::vector<std::string> first;
        for (const auto& t : q.page(delayq::TaskSet::Pending, 0, 3))
            first.push_back(t.id);
        q.cancel(first);
        QCOMPARE(*q.rankOf(delayq::TaskSet::Pending, target.toStdString()), 7LL);
        QCOMPARE(table.model()->idAt(7), stale);
        QSignalSpy shown(&table, &TaskTable::rowShown);
        table.selectTask(target, 7);
        QVERIFY(shown.wait(5000));
        QCOMPARE(table.selectedIds(), QStringList{target});
        QCOMPARE(table.currentTask()->id, target);

        // A rank the page no longer bears out (the task went): nothing selected, said so.
        QSignalSpy missed(&table, &TaskTable::taskMissed);
        q.cancel({target.toStdString()});
        table.selectTask(target, 7);
        QVERIFY(missed.wait(5000));
        QCOMPARE(missed.first().at(0).toString(), target);
        QCOMPARE(table.selectedIds(), QStringList());
        QVERIFY(table.currentTask() == nullptr);
    }

    void jumpsToTime()
    {
        const qint64 base = nowMs() + 3600000;
        pushTasks(QStringLiteral("jump"), 1000, base, 1000);
        TaskTable table(m_client, TaskSet::Pending);
        table.model()->setPageSize(100);
        table.show();
        QSignalSpy refreshed(table.model(), &TaskModel::refreshed);
        table.setQueue(QStringLiteral("jump"));
        QVERIFY(refreshed.wait(5000));
        QSignalSpy shown(&table, &TaskTable::rowShown);
        // Between the 700th and 701st task: the first due at or after it is row 701.
        table.jumpToTime(base + 700 * 1000 + 500);
        QVERIFY(shown.wait(5000));
        QCOMPARE(shown.takeFirst().at(0).toInt(), 701);
        QCOMPARE(table.currentTask()->score, base + 701 * 1000);
    }

    void showsTimesInLocalTimeOrUtc()
    {
        // 2030-01-02 03:04:05.678 UTC: a fixed instant, shown to the millisecond.
        const qint64 due = 1893553445678;
        pushTasks(QStringLiteral("utc"), 1, due, 1);
        TaskModel model(m_client, TaskSet::Pending);
        QSignalSpy refreshed(&model, &TaskModel::refreshed);
        model.setQueue(QStringLiteral("utc"));
        QVERIFY(refreshed.wait(5000));
        const QModelIndex time = model.index(0, model.columnOf(TaskModel::Field::Time));
        const QString local = QDateTime::fromMSecsSinceEpoch(due, Qt::LocalTime)
                                  .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
        QCOMPARE(time.data().toString(), local);
        model.setUtc(true);
        QCOMPARE(time.data().toString(), QStringLiteral("2030-01-02 03:04:05.678Z"));
        QVERIFY(model.headerData(time.column(), Qt::Horizontal)
                    .toString()
                    .contains(QStringLiteral("UTC")));
        const QModelIndex when = model.index(0, model.columnOf(TaskModel::Field::Relative));
        QVERIFY2(when.data().toString().startsWith(QStringLiteral("in ")),
                 qPrintable(when.data().toString()));
    }

    // The Active tab says which leases ran out and wait for a reap (their worker died or
    // hung), and says a live lease's deadline as a time to come.
    void activeTabMarksExpiredLeases()
    {
        pushTasks(QStringLiteral("leases"), 2, nowMs() - 1000, 1);
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "leases");
        const auto died = q.claim(1, 100, "died");
        QCOMPARE(died.tasks.size(), size_t(1));
        QCOMPARE(q.claim(1, 600000, "alive").tasks.size(), size_t(1));
        QTRY_VERIFY(conn.serverTimeMs() > died.tasks[0].leaseDeadline + 1000);
        TaskModel model(m_client, TaskSet::Active);
        QSignalSpy refreshed(&model, &TaskModel::refreshed);
        model.setQueue(QStringLiteral("leases"));
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(model.rowCount(), 2);
        const int when = model.columnOf(TaskModel::Field::Relative);
        // Ordered by deadline: the expired lease first.
        const QString expired = model.index(0, when).data().toString();
        QVERIFY2(expired.startsWith(QStringLiteral("expired ")) &&
                     expired.endsWith(QStringLiteral(" ago, waiting for a reap")),
                 qPrintable(expired));
        QVERIFY(model.index(0, when).data(Qt::ForegroundRole).isValid());
        const QString live = model.index(1, when).data().toString();
        QVERIFY2(live.startsWith(QStringLiteral("in ")), qPrintable(live));
        QVERIFY(!model.index(1, when).data(Qt::ForegroundRole).isValid());
    }

    // The view is given a window of the rows, never the whole set: what the GUI thread does
    // per row (QHeaderView keeps and walks a section per row on every reset and refresh)
    // then stays the same on a queue of any size. The table's bar spans every task, jumps
    // and the bar move the window, and a selection stays on its task or goes, never
    // sliding to the task that took its row number.
    void viewHoldsAWindowOfTheRows()
    {
        pushTasks(QStringLiteral("window"), 1000, nowMs() + 3600000, 1000);
        TaskTable table(m_client, TaskSet::Pending);
        table.model()->setPageSize(50);
        table.model()->setWindowRows(200);
        table.resize(800, 600);
        table.show();
        QSignalSpy refreshed(table.model(), &TaskModel::refreshed);
        table.setQueue(QStringLiteral("window"));
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(table.model()->total(), 1000);
        QVERIFY(table.model()->isWindowed());
        QCOMPARE(table.model()->rowCount(), 200);
        QCOMPARE(table.view()->verticalHeader()->count(), 200);
        QScrollBar* bar = table.scrollBar();
        QVERIFY(bar->isVisible());
        QCOMPARE(bar->maximum() + bar->pageStep(), 1000);
        QCOMPARE(bar->value(), 0);
        QCOMPARE(table.selectedIds(), QStringList()); // nothing selected on opening

        // The last task: the window moves to the end; the row shows the task ranked last.
        QSignalSpy shown(&table, &TaskTable::rowShown);
        table.jumpToRow(999);
        QTRY_COMPARE(shown.size(), 1);
        QCOMPARE(shown.first().at(0).toLongLong(), 999);
        QCOMPARE(table.model()->base(), 800);
        QCOMPARE(table.model()->rowCount(), 200);
        QCOMPARE(table.view()->verticalHeader()->count(), 200);
        QCOMPARE(table.selectedIds(), QStringList{rankedId(QStringLiteral("window"), 999)});
        QCOMPARE(table.currentTask()->id, rankedId(QStringLiteral("window"), 999));
        QVERIFY(bar->value() <= 999 && bar->value() + bar->pageStep() > 999);

        // The bar dragged to rank 500: the window follows, rank 500 at the top; the selected
        // task left the window, so nothing is selected (not the task now on its row), and the
        // table says so (TaskTabs puts it in the status bar).
        QSignalSpy dropped(&table, &TaskTable::selectionOutOfWindow);
        bar->setValue(500);
        QCOMPARE(table.model()->rankOf(table.view()->rowAt(0)), 500);
        QTRY_COMPARE(table.model()->idAt(table.view()->rowAt(0)),
                     rankedId(QStringLiteral("window"), 500));
        QCOMPARE(table.selectedIds(), QStringList());
        QVERIFY(table.currentTask() == nullptr);
        QCOMPARE(dropped.size(), 1);
        QCOMPARE(dropped.first().at(0).toStringList(),
                 QStringList{rankedId(QStringLiteral("window"), 999)});

        // A task near the window's edge, selected: the view scrolls it to the middle, near
        // the edge, and the window moves under it (as after the wheel or the keys): the same
        // task stays selected at the same place on the screen.
        const qint64 base = table.model()->base();
        table.jumpToRow(base + 20);
        const QString id = rankedId(QStringLiteral("window"), base + 20);
        const int y = table.view()->visualRect(table.view()->currentIndex()).top();
        QTRY_VERIFY(table.model()->base() != base);
        QTRY_COMPARE(shown.size(), 2);
        QCOMPARE(table.selectedIds(), QStringList{id});
        QCOMPARE(table.currentTask()->id, id);
        QCOMPARE(table.model()->rankOf(table.view()->currentIndex().row()), base + 20);
        QCOMPARE(table.view()->visualRect(table.view()->currentIndex()).top(), y);
        QCOMPARE(bar->value(), table.model()->rankOf(table.view()->rowAt(0)));
        QCOMPARE(table.view()->verticalHeader()->count(), 200);

        // The wheel over the rows scrolls the view (its own bar is hidden) and the table's
        // bar follows.
        const int top = bar->value();
        const QPointF at(10, 10);
        QWheelEvent wheel(at, table.view()->viewport()->mapToGlobal(at), QPoint(), QPoint(0, -120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(table.view()->viewport(), &wheel);
        QVERIFY(bar->value() > top);
        QCOMPARE(bar->value(), table.model()->rankOf(table.view()->rowAt(0)));
    }

    void emptyQueueHasNoRows()
    {
        TaskModel model(m_client, TaskSet::Dead);
        QSignalSpy refreshed(&model, &TaskModel::refreshed);
        model.setQueue(QStringLiteral("nothing"));
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(model.rowCount(), 0);
    }

private:
    static qint64 nowMs() { return QDateTime::currentMSecsSinceEpoch(); }

    // The id the server ranks at `rank` in the queue's pending set.
    QString rankedId(const QString& queue, qint64 rank)
    {
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, queue.toStdString());
        const auto page = q.page(delayq::TaskSet::Pending, rank, 1);
        return page.empty() ? QString() : QString::fromStdString(page.front().id);
    }

    void pushTasks(const QString& queue, int count, qint64 firstDue, qint64 stepMs)
    {
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, queue.toStdString());
        std::vector<delayq::PushRequest> requests;
        for (int i = 0; i < count; ++i) {
            delayq::PushRequest r;
            r.dueAtMs = firstDue + i * stepMs;
            r.payload = "{\"i\":" + std::to_string(i) + "}";
            requests.push_back(r);
        }
        q.pushBatch(requests);
    }

    AdminClient* m_client = nullptr;
};

QTEST_MAIN(TestTaskModel)
#include "tst_taskmodel.moc"
