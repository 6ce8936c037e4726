#include "client/adminclient.h"
#include "find/findbar.h"
#include "overview/workersview.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include "workerbeat.h"
#include <delayq/connection.h>
#include <delayq/delivery.h>
#include <delayq/queue.h>
#include <delayq/worker.h>
#include <delayq/workerregistry.h>

#include <QDialogButtonBox>
#include <QItemSelectionModel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <atomic>
#include <thread>

using namespace delayq::ui;
using namespace std::chrono_literals;

// View → Workers… against a real redis-server and a real worker: every worker of every queue
// with its figures, a silent one shown gone, nothing selected at first, a selection kept by
// name across refreshes, and Show held tasks finding the worker's tasks in the Active tab.
class TestWorkersView : public WindowSuite
{
    Q_OBJECT

public:
    TestWorkersView() : WindowSuite(QStringLiteral("tst_workersview")) {}

private:
    // The row of the worker named so, -1 when it is not listed.
    static int rowOf(const QTableWidget* table, const QString& name)
    {
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, 1)->text() == name)
                return r;
        return -1;
    }
    static QString cell(const QTableWidget* table, const QString& name, int column)
    {
        const int r = rowOf(table, name);
        return r < 0 ? QString() : table->item(r, column)->text();
    }
    // A worker of `mail` on another host that beat once, live for 300 ms: gone after that.
    void silentBeat()
    {
        delayq::Connection c(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::WorkerInfo info = workerInfo(c.serverTimeMs(), 1000);
        // A handler as long as a real one's command line.
        info.handler = "exec:/usr/local/bin/deliver-webhook --config "
                       "/etc/delayq/hooks/partner-callbacks.yaml --timeout 30s";
        info.host = "elsewhere";
        beatAs(c, "mail", "silent", info, 300);
    }

private slots:
    void listsWorkersAndFindsTheTasksOneHolds()
    {
        m_fixture.pushTasks(QStringLiteral("jobs"), {"held-1", "held-2"});
        std::atomic<bool> release{false};
        delayq::WorkerOptions o;
        o.connection = delayq::ConnectionOptions::fromUrl(m_server.unixUrl());
        o.queue = "jobs";
        o.name = "w-held";
        o.handlerKind = "test";
        o.batch = 2;
        o.maxBatch = 2;
        o.heartbeatInterval = 200ms;
        delayq::Worker worker(o, [&](const delayq::ClaimedTask&) {
            while (!release)
                std::this_thread::sleep_for(5ms);
            return delayq::HandlerResult::ack();
        });
        // However the test ends, the handler lets go, so the worker's destructor can stop it.
        const std::shared_ptr<void> letGo(nullptr, [&](void*) { release = true; });
        QVERIFY(worker.start());
        QTRY_COMPARE(worker.counters().inFlight, 2LL);
        silentBeat();
        m_fixture.connectWindow();

        WorkersView* view = m_fixture.window()->showWorkers();
        QTableWidget* table = view->table();
        // Reloads until the worker's beat says it holds both and the silent one is gone.
        QTRY_VERIFY_WITH_TIMEOUT(
            (view->reload(), QSignalSpy(view, &WorkersView::loaded).wait(3000)) &&
                cell(table, "w-held", 9) == QLatin1String("2") &&
                cell(table, "silent", 2) == QLatin1String("gone"),
            10000);
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(cell(table, "w-held", 0), QStringLiteral("jobs"));
        QCOMPARE(cell(table, "w-held", 2), QStringLiteral("live"));
        QCOMPARE(cell(table, "w-held", 5), QStringLiteral("test"));
        QCOMPARE(cell(table, "w-held", 4), QString::number(::getpid()));
        QCOMPARE(cell(table, "silent", 0), QStringLiteral("mail"));
        QCOMPARE(cell(table, "silent", 3), QStringLiteral("elsewhere"));
        QVERIFY2(
            view->summary()->text().startsWith(QStringLiteral("Live: 1 · gone: 1 · queues: 2")),
            qPrintable(view->summary()->text()));
        // Every column on screen, none to scroll sideways to, at a laptop's width (issue 49):
        // the long handler is elided, whole in its tooltip.
        QVERIFY(view->width() <= 1024);
        QCoreApplication::sendPostedEvents();
        QVERIFY2(table->horizontalScrollBar()->maximum() == 0,
                 qPrintable(QString::number(table->horizontalScrollBar()->maximum())));
        QCOMPARE(table->item(rowOf(table, "silent"), 5)->toolTip(),
                 table->item(rowOf(table, "silent"), 5)->text());

        // Nothing is chosen for the operator.
        auto* held = view->findChild<QPushButton*>(QStringLiteral("showHeldTasks"));
        QVERIFY(held);
        QVERIFY(table->selectionModel()->selectedRows().isEmpty());
        QVERIFY(!table->currentIndex().isValid());
        QVERIFY(!held->isEnabled());

        // Chosen, the worker stays chosen across a refresh that sorts it elsewhere.
        table->selectRow(rowOf(table, "w-held"));
        table->sortByColumn(1, Qt::DescendingOrder);
        QSignalSpy loaded(view, &WorkersView::loaded);
        view->reload();
        QVERIFY(loaded.wait(5000));
        const auto selected = table->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(table->item(selected.first().row(), 1)->text(), QStringLiteral("w-held"));

        QVERIFY(held->isEnabled());
        held->click();
        TaskTabs* tabs = m_fixture.window()->tabs();
        QTRY_COMPARE(tabs->current()->set(), delayq::TaskSet::Active);
        FindBar* bar = tabs->findBar();
        QCOMPARE(bar->field(), delayq::ScanField::Worker);
        QCOMPARE(bar->input()->text(), QStringLiteral("w-held"));
        QTRY_COMPARE_WITH_TIMEOUT(bar->matchList()->count(), 2, 10000);
        QStringList found;
        for (int i = 0; i < 2; ++i)
            found << bar->matchList()->item(i)->text();
        QVERIFY2(found.join(' ').contains("held-1") && found.join(' ').contains("held-2"),
                 qPrintable(found.join('\n')));
        release = true;
        worker.stop();
    }

    // A gone worker's last beat said it held 106: the view shows what it holds now, its tasks
    // still in active, and nothing once a reap took them back (issue 49, item 7).
    void aGoneWorkerShowsWhatItHoldsNow()
    {
        m_fixture.pushTasks(QStringLiteral("jobs"), {"t1", "t2", "t3"});
        delayq::Connection c(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(c, "jobs");
        // t1 and t2 (due 1 ms apart): both claimed, whenever t2 comes due.
        size_t claimed = 0;
        QTRY_VERIFY(claimed == 2 ||
                    (claimed += q.claim(int(2 - claimed), 700, "w-gone").tasks.size()) == 2);
        delayq::WorkerInfo info = workerInfo(c.serverTimeMs(), 1000);
        info.held = 106;
        beatAs(c, "jobs", "w-gone", info, 1);
        m_fixture.connectWindow();
        WorkersView* view = m_fixture.window()->showWorkers();
        QTableWidget* table = view->table();
        auto reloaded = [&] {
            QSignalSpy loaded(view, &WorkersView::loaded);
            view->reload();
            return loaded.wait(5000);
        };
        QVERIFY(reloaded());
        QCOMPARE(cell(table, "w-gone", 2), QStringLiteral("gone"));
        QCOMPARE(cell(table, "w-gone", 9), QStringLiteral("2"));
        // Its leases run out and a reap hands the tasks back.
        QTRY_VERIFY_WITH_TIMEOUT((q.reap(100), q.size(delayq::TaskSet::Active) == 0), 10000);
        QCOMPARE(q.size(delayq::TaskSet::Pending), 3LL);
        QVERIFY(reloaded());
        QCOMPARE(cell(table, "w-gone", 9), QStringLiteral("0"));
    }

    // A plain key's forwarder beats into that key's own registry, and the view lists it as
    // "KEY (plain)"; Show held tasks stays off for it (a plain key has no Active tab).
    void listsAPlainKeysForwarder()
    {
        delayq::Connection c(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        c.command({"ZADD", "legacy:delay", std::to_string(c.serverTimeMs() + 3600000), "later"});
        delayq::WorkerOptions o;
        o.connection = delayq::ConnectionOptions::fromUrl(m_server.unixUrl());
        o.plainKey = "legacy:delay";
        o.name = "fw-plain";
        o.handlerKind = "amqp";
        o.heartbeatInterval = 200ms;
        delayq::Worker worker(o, [](int) -> std::unique_ptr<delayq::Delivery> { return nullptr; });
        QVERIFY(worker.start());
        m_fixture.connectWindow();
        WorkersView* view = m_fixture.window()->showWorkers();
        QTableWidget* table = view->table();
        QTRY_VERIFY_WITH_TIMEOUT(
            (view->reload(), QSignalSpy(view, &WorkersView::loaded).wait(3000)) &&
                rowOf(table, "fw-plain") >= 0,
            10000);
        QCOMPARE(cell(table, "fw-plain", 0), QStringLiteral("legacy:delay (plain)"));
        QCOMPARE(cell(table, "fw-plain", 2), QStringLiteral("live"));
        QCOMPARE(cell(table, "fw-plain", 5), QStringLiteral("lease:amqp"));
        table->selectRow(rowOf(table, "fw-plain"));
        auto* held = view->findChild<QPushButton*>(QStringLiteral("showHeldTasks"));
        QVERIFY(!held->isEnabled());
        worker.stop();
    }
};

QTEST_MAIN(TestWorkersView)
#include "tst_workersview.moc"
