// A server that refuses writes (memory full, a replica, too few replicas) or answers too
// slowly: every write fails with a clear error, nothing changes, nothing hangs past the
// configured timeout, and the same connection works again once the server does.
#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <thread>

using namespace delayq;

class TestRefusals : public QueueSuite
{
    Q_OBJECT

protected:
    void initTest() override
    {
        QueueSuite::initTest();
        PushRequest r;
        r.payload = "before";
        m_queue->push(r);
    }
    void cleanupTest() override
    {
        if (!m_allow.isEmpty())
            m_server.cli(m_allow); // also after a failed row, so the next one starts writable
        m_allow.clear();
        QueueSuite::cleanupTest();
    }

private slots:
    void writesRefused_data()
    {
        QTest::addColumn<QStringList>("refuse");
        QTest::addColumn<QStringList>("allow");
        QTest::addColumn<QString>("word");
        QTest::addColumn<bool>("deletesRefused");
        QTest::addColumn<int>("code");
        QTest::newRow("maxmemory with noeviction")
            << QStringList{"CONFIG", "SET", "maxmemory", "1"}
            << QStringList{"CONFIG", "SET", "maxmemory", "0"} << "OOM" << false
            << static_cast<int>(ErrorCode::OutOfMemory);
        QTest::newRow("min-replicas not met")
            << QStringList{"CONFIG", "SET", "min-replicas-to-write", "1"}
            << QStringList{"CONFIG", "SET", "min-replicas-to-write", "0"} << "NOREPLICAS" << true
            << static_cast<int>(ErrorCode::NoReplicas);
        // A replica of a master that does not exist: it serves reads and refuses writes.
        QTest::newRow("a read-only replica")
            << QStringList{"REPLICAOF", "127.0.0.1", "1"} << QStringList{"REPLICAOF", "NO", "ONE"}
            << "READONLY" << true << static_cast<int>(ErrorCode::ReadOnlyReplica);
    }
    void writesRefused()
    {
        QFETCH(QStringList, refuse);
        QFETCH(QStringList, allow);
        QFETCH(QString, word);
        QFETCH(bool, deletesRefused);
        QFETCH(int, code);
        const auto expected = static_cast<ErrorCode>(code);
        m_server.cli({"CONFIG", "SET", "maxmemory-policy", "noeviction"});
        const QByteArray digest = m_server.cli({"DEBUG", "DIGEST"});
        m_server.cli(refuse);
        m_allow = allow;

        PushRequest r;
        r.payload = "after";
        EXPECT_ERROR(expected, "", m_queue->push(r));
        QVERIFY2(m_message.find(word.toStdString()) != std::string::npos, m_message.c_str());
        QVERIFY2(m_message.find("refuses writes") != std::string::npos, m_message.c_str());
        // A full memory still lets Redis delete (that is how memory is freed); the others not.
        const std::string firstId = m_queue->page(TaskSet::Pending, 0, 1).front().id;
        if (deletesRefused)
            EXPECT_ERROR(expected, "", m_queue->cancel({firstId}));
        // Reads go on working, and nothing changed.
        QCOMPARE(m_queue->counts().pending, 1LL);
        QCOMPARE(m_server.cli({"DEBUG", "DIGEST"}), digest);

        m_server.cli(allow);
        m_allow.clear();
        QCOMPARE(m_queue->push(r).status, PushResult::Status::Created);
        QCOMPARE(m_queue->counts().pending, 2LL);
    }

    void slowServerTimesOutAndRecovers()
    {
        auto options = ConnectionOptions::fromUrl(m_server.unixUrl());
        options.commandTimeout = std::chrono::milliseconds(300);
        Connection conn(options);
        Queue q(conn, "orders");
        QCOMPARE(q.counts().pending, 1LL);

        // DEBUG SLEEP blocks the server itself: every client waits, as with a stuck server.
        Connection sleeper(ConnectionOptions::fromUrl(m_server.unixUrl()));
        sleeper.pipeline({}); // connect now, so the sleep starts at once below
        std::thread stall([&] {
            try {
                sleeper.command({"DEBUG", "SLEEP", "1.5"});
            } catch (const Error&) {
            }
        });
        QThread::msleep(100);
        QElapsedTimer timer;
        timer.start();
        EXPECT_ERROR(ErrorCode::Timeout, "", q.counts());
        const qint64 waited = timer.elapsed();
        stall.join();
        QVERIFY2(waited < 1200, qPrintable(QString("waited %1 ms").arg(waited)));
        QVERIFY2(m_message.find("timed out") != std::string::npos, m_message.c_str());
        // The next call reconnects and works.
        QCOMPARE(q.counts().pending, 1LL);
    }

private:
    QStringList m_allow;
};

QTEST_GUILESS_MAIN(TestRefusals)
#include "tst_refusals.moc"
