#include "adminclient.h"
#include "connectionstatus.h"
#include "mainwindow.h"
#include "sentinelgroup.h"
#include "taskmodel.h"
#include "tasktable.h"
#include "tasktabs.h"
#include "testcertificates.h"
#include "workerdock.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace delayq::ui;

// The window on the deployments operators run: through Sentinel it names the master, follows
// a failover by itself (with a line in its log) and keeps refreshing; over TLS it shows the
// version and cipher, and a loud badge while certificates are not checked.
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
        TaskModel* pending = window.tabs()->table(TaskSetKind::Pending)->model();
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
        window.connectTo({url, QStringLiteral("dq"), false, QString()});
        QVERIFY(connected.wait(10000));
    }
    static QString status(MainWindow& window) { return window.connectionStatus()->text(); }
};

QTEST_MAIN(TestWindowTopology)
#include "tst_windowtopology.moc"
