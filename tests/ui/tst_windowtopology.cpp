#include "client/adminclient.h"
#include "clustergroup.h"
#include "connection/connectionstatus.h"
#include "overview/serverview.h"
#include "queue/queuelist.h"
#include "sentinelgroup.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "testcertificates.h"
#include "window/mainwindow.h"
#include "worker/workerdock.h"
#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/shardlayout.h>
#include <delayq/shardmover.h>

#include <QLabel>
#include <QLocale>
#include <QMap>
#include <QPlainTextEdit>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

#include <chrono>
#include <thread>

#include <memory>
#include <string>
#include <vector>

using namespace delayq::ui;
using delayq::TaskSet;

// The window on the deployments operators run: through Sentinel it names the master, follows
// a failover by itself (with a line in its log) and keeps refreshing; on a cluster it names
// each queue's node and lists the nodes; over TLS it shows the version and cipher, and a loud
// badge while certificates are not checked.
class TestWindowTopology : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (QStandardPaths::findExecutable(QStringLiteral("redis-server")).isEmpty())
            QSKIP("redis-server is not installed");
    }

    void sentinelFailoverIsFollowed()
    {
        SentinelGroup group;
        QVERIFY2(group.start(), qPrintable(group.errorString()));
        const std::string url = group.url();
        pushTask(url, "before");
        MainWindow window;
        window.show();
        connectTo(window, QString::fromStdString(url));
        RedisServer* master = group.master();
        QVERIFY(master);
        const QString oldMaster =
            QStringLiteral("master 127.0.0.1:%1 of mymaster via ").arg(master->port());
        QVERIFY2(status(window).contains(oldMaster), qPrintable(status(window)));
        window.openQueue(QStringLiteral("orders"));
        TaskModel* pending = window.tabs()->table(TaskSet::Pending)->model();
        QTRY_COMPARE_WITH_TIMEOUT(pending->total(), 1, 5000);

        const int oldPort = master->port();
        master->crash();
        const int newPort = group.waitForNewMaster(oldPort, 20000);
        QVERIFY(newPort > 0);
        const QString newMaster = QStringLiteral("master 127.0.0.1:%1 of mymaster").arg(newPort);
        QTRY_VERIFY2_WITH_TIMEOUT(status(window).contains(newMaster), qPrintable(status(window)),
                                  20000);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.workerDock()->log()->toPlainText().contains(QStringLiteral("Failover: ")), 5000);
        // Still refreshing, on the new master.
        pushTask(url, "after");
        QTRY_COMPARE_WITH_TIMEOUT(pending->total(), 2, 10000);
    }

    // On a cluster: the status bar counts the masters, the queue list names each queue's node,
    // a queue opens on each master, and the Server view lists the nodes with their slots.
    void clusterShowsItsNodes()
    {
        ClusterGroup cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        const std::string url = cluster.url();
        const QMap<QString, QString> nodeOf = queuesOnEachMaster(url);
        QCOMPARE(nodeOf.size(), 3);
        MainWindow window;
        window.show();
        connectTo(window, QString::fromStdString(url));
        QTRY_VERIFY2_WITH_TIMEOUT(status(window).contains(QStringLiteral("cluster: 3 masters")),
                                  qPrintable(status(window)), 5000);
        for (auto it = nodeOf.cbegin(); it != nodeOf.cend(); ++it)
            QTRY_COMPARE_WITH_TIMEOUT(window.queueList()->nodeOf(it.key()), it.value(), 5000);
        QVERIFY(!window.queueList()->view()->isColumnHidden(5));
        for (const QString& queue : nodeOf.keys()) {
            QSignalSpy loaded(&window, &MainWindow::queueLoaded);
            window.openQueue(queue);
            QVERIFY(loaded.wait(10000));
            QTRY_COMPARE(window.tabs()->table(TaskSet::Pending)->model()->total(), 1);
        }
        ServerView* server = window.showServer();
        QSignalSpy shown(server, &ServerView::loaded);
        QVERIFY(shown.wait(5000));
        QCOMPARE(server->table()->rowCount(), 6);
        int masters = 0;
        int slotTotal = 0;
        for (int r = 0; r < 6; ++r) {
            if (server->table()->item(r, 1)->text() != QLatin1String("master"))
                continue;
            ++masters;
            const QString cell = server->table()->item(r, 3)->text();
            slotTotal += cell.section(QLatin1Char('('), 1).section(QLatin1Char(' '), 0, 0).toInt();
        }
        QCOMPARE(masters, 3);
        QCOMPARE(slotTotal, 16384);
        QVERIFY2(server->summary()->text().contains(QStringLiteral("3 masters")),
                 qPrintable(server->summary()->text()));
        QVERIFY(rowOf(server->checks(), QStringLiteral("cluster")) >= 0);
        QCOMPARE(cell(server->checks(), QStringLiteral("cluster"), 0), QStringLiteral("ok"));

        // A queue sharded over the cluster: each shard named with the master serving it.
        delayq::Connection connection(delayq::ConnectionOptions::fromUrl(url));
        delayq::Queue sharded(connection, "sharded");
        delayq::ShardMover(sharded).start(3);
        QSignalSpy loaded(&window, &MainWindow::queueLoaded);
        window.openQueue(QStringLiteral("sharded"));
        QVERIFY(loaded.wait(10000));
        QCOMPARE(window.showServer(), server);
        QVERIFY(shown.wait(5000));
        QCOMPARE(server->shards()->rowCount(), 3);
        QSet<QString> shardNodes;
        for (int r = 0; r < 3; ++r) {
            const QString node =
                QString::fromStdString(connection.nodeForKey(sharded.shardKeys(r).pending()));
            QCOMPARE(server->shards()->item(r, 2)->text(), node);
            shardNodes.insert(node);
        }
        QCOMPARE(shardNodes.size(), 3); // placed on the masters with fewest of its shards
    }

    // One server whose eviction policy may delete a queue's keys and which keeps nothing over
    // a restart: the Server view lists both as problems first, with the risk and the fix.
    void serverViewNamesWhatLosesTasks()
    {
        RedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        server.cli({QStringLiteral("CONFIG"), QStringLiteral("SET"),
                    QStringLiteral("maxmemory-policy"), QStringLiteral("allkeys-lru")});
        MainWindow window;
        window.show();
        connectTo(window, QString::fromStdString(server.tcpUrl()));
        ServerView* view = window.showServer();
        QSignalSpy shown(view, &ServerView::loaded);
        QVERIFY(shown.wait(5000));
        QVERIFY(!view->table()->isVisible()); // one server: no node table
        QTableWidget* checks = view->checks();
        QCOMPARE(cell(checks, QStringLiteral("eviction"), 0), QStringLiteral("problem"));
        QVERIFY(
            cell(checks, QStringLiteral("eviction"), 3).contains(QStringLiteral("allkeys-lru")));
        QVERIFY(cell(checks, QStringLiteral("eviction"), 4).contains(QStringLiteral("Fix: ")));
        QCOMPARE(cell(checks, QStringLiteral("persistence"), 0), QStringLiteral("problem"));
        QCOMPARE(checks->item(0, 0)->text(), QStringLiteral("problem")); // problems first
        QCOMPARE(cell(checks, QStringLiteral("version"), 0), QStringLiteral("ok"));
    }

    // A queue at 90 % of its dead bound, or with none, is a warning of the Server view
    // (delayq::Doctor's dead bound check, as `delayq doctor` says it); one far from it is not.
    void serverViewWarnsOfTheDeadBound_data()
    {
        QTest::addColumn<QString>("deadMax");
        QTest::addColumn<int>("dead");
        QTest::addColumn<QString>("level");
        QTest::addColumn<QString>("what"); // in the dead bound row
        QTest::newRow("near") << "10" << 9 << "warning"
                              << "queue bounded: dead holds 9 tasks";
        QTest::newRow("far") << "10" << 2 << "ok"
                             << "every dead set under 90 % of its bound";
        QTest::newRow("none") << "off" << 1 << "warning"
                              << "queue bounded: dead_max and dead_max_bytes are off";
    }
    void serverViewWarnsOfTheDeadBound()
    {
        QFETCH(QString, deadMax);
        QFETCH(int, dead);
        QFETCH(QString, level);
        QFETCH(QString, what);
        RedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        {
            delayq::Connection connection(delayq::ConnectionOptions::fromUrl(server.tcpUrl()));
            delayq::Queue q(connection, "bounded");
            q.setConfig({{"dead_max", deadMax.toStdString()},
                         {"dead_max_bytes", deadMax == QLatin1String("off") ? "off" : "64MB"}});
            for (int i = 0; i < dead; ++i) {
                delayq::PushRequest r;
                r.id = "d" + std::to_string(i);
                r.maxAttempts = 1;
                q.push(r);
                const auto claimed = q.claim(1, 30000, "test");
                QCOMPARE(claimed.tasks.size(), size_t(1));
                QVERIFY(q.nack(claimed.tasks[0].id, claimed.tasks[0].token, "boom").dead);
            }
        }
        MainWindow window;
        window.show();
        connectTo(window, QString::fromStdString(server.tcpUrl()));
        ServerView* view = window.showServer();
        QSignalSpy shown(view, &ServerView::loaded);
        QVERIFY(shown.wait(5000));
        QTableWidget* checks = view->checks();
        const QString said = cell(checks, QStringLiteral("dead bound"), 3);
        QCOMPARE(cell(checks, QStringLiteral("dead bound"), 0), level);
        QVERIFY2(said.contains(what), qPrintable(said));
    }

    void serverViewListsTheQueuesShards_data()
    {
        QTest::addColumn<QList<int>>("reshards"); // ShardMover::start of each count, in turn
        QTest::addColumn<bool>("finished");       // each change stepped to its end
        QTest::addColumn<QStringList>("states");  // of each shard, in order
        QTest::addColumn<QString>("moveLine");    // empty: hidden
        const QString inUse = QStringLiteral("in use");
        QTest::newRow("unsharded") << QList<int>{} << true << QStringList{inUse} << QString();
        QTest::newRow("three shards")
            << QList<int>{3} << true << QStringList{inUse, inUse, inUse} << QString();
        QTest::newRow("three shards, moving")
            << QList<int>{3} << false << QStringList{inUse, inUse, inUse}
            << QStringLiteral("Moving tasks from 1 to 3 shards: 0 moved; looking at shard 0 "
                              "(shards 0–2), pass 1");
        QTest::newRow("shrunk to two")
            << QList<int>{3, 2} << true << QStringList{inUse, inUse, QStringLiteral("retired")}
            << QString();
    }
    // The Server view lists the shards of the queue open in the window: each one's tag, the
    // node serving it and its counts, a retired shard marked, and a reshard under way.
    void serverViewListsTheQueuesShards()
    {
        QFETCH(QList<int>, reshards);
        QFETCH(bool, finished);
        QFETCH(QStringList, states);
        QFETCH(QString, moveLine);
        RedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        delayq::Connection connection(delayq::ConnectionOptions::fromUrl(server.tcpUrl()));
        delayq::Queue queue(connection, "orders");
        for (int count : reshards) {
            delayq::MoveProgress p = delayq::ShardMover(queue).start(count);
            while (finished && !p.finished) {
                p = delayq::ShardMover(queue).step();
                std::this_thread::sleep_for(std::chrono::milliseconds(p.waitMs));
            }
        }
        // Pushed once the layout is set: each task goes to its home shard at once.
        const int taken = static_cast<int>(states.count(QStringLiteral("in use")));
        std::vector<delayq::PushRequest> requests(12);
        QList<qint64> expected(states.size(), 0);
        for (size_t i = 0; i < requests.size(); ++i) {
            requests[i].id = "task-" + std::to_string(i);
            requests[i].delayMs = 3600000;
            ++expected[taken > 1 ? delayq::ShardLayout::hashOf(requests[i].id) % taken : 0];
        }
        queue.pushBatch(requests);

        MainWindow window;
        window.show();
        connectTo(window, QString::fromStdString(server.tcpUrl()));
        QSignalSpy queueLoaded(&window, &MainWindow::queueLoaded);
        window.openQueue(QStringLiteral("orders"));
        QVERIFY(queueLoaded.wait(10000));
        ServerView* view = window.showServer();
        QSignalSpy shown(view, &ServerView::loaded);
        QVERIFY(shown.wait(5000));
        QCOMPARE(view->shardsTitle()->text(), QStringLiteral("Shards of orders"));
        QTableWidget* shards = view->shards();
        QCOMPARE(shards->rowCount(), states.size());
        const QString node = QString::fromStdString(connection.serverAddress());
        qint64 total = 0;
        for (int r = 0; r < shards->rowCount(); ++r) {
            QCOMPARE(shards->item(r, 0)->text(), QString::number(r));
            QCOMPARE(shards->item(r, 1)->text(),
                     r == 0 ? QStringLiteral("orders") : QStringLiteral("orders#%1").arg(r));
            QCOMPARE(shards->item(r, 2)->text(), node);
            const auto count = [&](int column) {
                return QLocale().toLongLong(shards->item(r, column)->text());
            };
            QCOMPARE(count(3), expected.at(r)); // pending
            QCOMPARE(count(4), qint64(0));      // active
            QCOMPARE(count(5), qint64(0));      // dead
            QCOMPARE(shards->item(r, 6)->text(), states.at(r));
            total += count(3) + count(4) + count(5);
        }
        QCOMPARE(total, qint64(requests.size()));
        QCOMPARE(view->moveLine()->isVisibleTo(view), !moveLine.isEmpty());
        if (!moveLine.isEmpty())
            QCOMPARE(view->moveLine()->text(), moveLine);

        // A plain sorted set open: it has no shards to list.
        connection.command({"ZADD", "legacy", "1", "message"});
        QSignalSpy plainLoaded(&window, &MainWindow::queueLoaded);
        window.openPlainKey(QStringLiteral("legacy"), QStringLiteral("ms"), true);
        QVERIFY(plainLoaded.wait(10000));
        QCOMPARE(window.showServer(), view);
        QVERIFY(shown.wait(5000));
        QVERIFY(!view->shardsTitle()->isVisibleTo(view));
        QVERIFY(!view->shards()->isVisibleTo(view));
    }

    void tlsShowsItsStateInTheStatusBar_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<bool>("warned");
        QTest::newRow("verified") << QStringLiteral("?ca={ca}") << false;
        QTest::newRow("not verified") << QStringLiteral("?insecure=1") << true;
    }
    void tlsShowsItsStateInTheStatusBar()
    {
        QFETCH(QString, query);
        QFETCH(bool, warned);
        TestCertificates certs;
        QVERIFY2(certs.create(), qPrintable(certs.errorString()));
        RedisServer server;
        server.setTls({certs.cert("server"), certs.key("server"), certs.cert("ca")});
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        MainWindow window;
        window.show();
        connectTo(window, QString::fromStdString(server.tlsUrl()) +
                              query.replace(QStringLiteral("{ca}"), certs.cert("ca")));
        const QString text = status(window);
        QVERIFY2(text.contains(QStringLiteral(" · TLSv1.")), qPrintable(text));
        QCOMPARE(text.startsWith(QStringLiteral("TLS NOT VERIFIED")), warned);
        QCOMPARE(window.connectionStatus()->styleSheet().isEmpty(), !warned);
    }

private:
    // A queue on each master (one task each), by the node the core says holds its slot.
    static QMap<QString, QString> queuesOnEachMaster(const std::string& url)
    {
        delayq::Connection connection(delayq::ConnectionOptions::fromUrl(url));
        connection.connect();
        QMap<QString, QString> nodeOf;
        QSet<QString> nodes;
        for (int i = 0; i < 64 && nodes.size() < 3; ++i) {
            const std::string name = "orders-" + std::to_string(i);
            const QString node =
                QString::fromStdString(connection.nodeForKey(delayq::Keys("dq", name).pending()));
            if (nodes.contains(node))
                continue;
            nodes.insert(node);
            nodeOf.insert(QString::fromStdString(name), node);
            delayq::PushRequest r;
            r.delayMs = 3600000;
            delayq::Queue(connection, name).push(r);
        }
        return nodeOf;
    }
    static void pushTask(const std::string& url, const std::string& id)
    {
        delayq::Connection connection(delayq::ConnectionOptions::fromUrl(url));
        delayq::PushRequest r;
        r.id = id;
        r.delayMs = 3600000;
        delayq::Queue(connection, "orders").push(r);
    }
    static void connectTo(MainWindow& window, const QString& url)
    {
        QSignalSpy connected(window.client(), &AdminClient::connected);
        window.connectTo(ConnectionSettings::forUrl(url));
        QVERIFY(connected.wait(10000));
    }
    static QString status(MainWindow& window) { return window.connectionStatus()->text(); }
    // The row of a check in the Server view's checks table (-1 when missing), and a cell of it.
    static int rowOf(QTableWidget* checks, const QString& check)
    {
        for (int r = 0; r < checks->rowCount(); ++r)
            if (checks->item(r, 1)->text() == check)
                return r;
        return -1;
    }
    static QString cell(QTableWidget* checks, const QString& check, int column)
    {
        const int row = rowOf(checks, check);
        return row < 0 ? QString() : checks->item(row, column)->text();
    }
};

QTEST_MAIN(TestWindowTopology)
#include "tst_windowtopology.moc"
