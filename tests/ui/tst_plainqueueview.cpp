#include "adminclient.h"
#include "connection.h"
#include "mainwindow.h"
#include "queue.h"
#include "queuelist.h"
#include "redisserver.h"

#include <QAbstractItemModel>
#include <QDateTime>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QUuid>

#include <memory>

using namespace delayq::ui;

// Plain sorted-set queues (members are the messages, scores the due times) in the window,
// against a real redis-server filled the way home-grown delay queues fill their keys.
class TestPlainQueueView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("delayq-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_plainqueueview"));
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    }
    void init()
    {
        m_server.cli({QStringLiteral("FLUSHALL")});
        m_window = std::make_unique<MainWindow>();
        m_window->show();
    }
    void cleanup() { m_window.reset(); }

    void discoveredKeysAreListedWithUnitAndSize_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("seconds");
        QTest::addColumn<int>("count");
        QTest::newRow("json with uuid, ms") << QStringLiteral("order:delay") << false << 3;
        QTest::newRow("json task, s") << QStringLiteral("jobs_delayed") << true << 2;
    }
    void discoveredKeysAreListedWithUnitAndSize()
    {
        QFETCH(QString, key);
        QFETCH(bool, seconds);
        QFETCH(int, count);
        fillPlain(key, seconds, count);
        // Not delay queues: a leaderboard (small scores) and a native queue's own set.
        m_server.cli({"ZADD", "leaderboard", "12", "alice", "40", "bob"});
        pushNative(QStringLiteral("orders"));

        QueueList* list = m_window->queueList();
        QSignalSpy listed(list, &QueueList::plainKeysListed);
        connectWindow();
        QVERIFY(listed.wait(5000));
        QCOMPARE(list->plainKeys(), QStringList{key});
        QAbstractItemModel* model = list->plainView()->model();
        QCOMPARE(model->index(0, 0).data().toString(), key);
        QCOMPARE(model->index(0, 1).data().toString(),
                 seconds ? QStringLiteral("s") : QStringLiteral("ms"));
        QCOMPARE(model->index(0, 2).data().toLongLong(), qint64(count));

        // Opening one says which key and which unit.
        QSignalSpy opened(list, &QueueList::plainKeyOpened);
        const QModelIndex index = model->index(0, 0);
        emit list->plainView()->activated(index);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.first().at(0).toString(), key);
        QCOMPARE(opened.first().at(1).toString(), model->index(0, 1).data().toString());
    }

private:
    void connectWindow()
    {
        QSignalSpy connected(m_window->client(), &AdminClient::connected);
        m_window->connectTo(
            {QString::fromStdString(m_server.unixUrl()), QStringLiteral("dq"), false, QString()});
        QVERIFY(connected.wait(5000));
    }

    // Members are JSON with a UUID, due from one hour ahead, one minute apart.
    void fillPlain(const QString& key, bool seconds, int count)
    {
        const qint64 base = QDateTime::currentMSecsSinceEpoch() + 3600000;
        for (int i = 0; i < count; ++i) {
            const qint64 dueMs = base + i * 60000;
            const QString member = QStringLiteral("{\"id\":\"%1\",\"msg\":\"m%2\"}")
                                       .arg(QUuid::createUuid().toString(QUuid::WithoutBraces))
                                       .arg(i);
            m_server.cli({QStringLiteral("ZADD"), key,
                          QString::number(seconds ? dueMs / 1000 : dueMs), member});
        }
    }

    void pushNative(const QString& queue)
    {
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, queue.toStdString());
        delayq::PushRequest r;
        r.id = "a";
        r.payload = "{}";
        r.delayMs = 60000;
        q.pushBatch({r});
    }

    RedisServer m_server;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestPlainQueueView)
#include "tst_plainqueueview.moc"
