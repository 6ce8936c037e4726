#include "connection.h"
#include "error.h"
#include "queue.h"
#include "redisserver.h"

#include <QTest>

using namespace delayq;

class TestQueue : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    }
    void init() { m_server.cli({"FLUSHALL"}); }

    void pushClaimAck()
    {
        Connection conn(ConnectionOptions::fromUrl(m_server.unixUrl()));
        Queue q(conn, "orders");
        PushRequest r;
        r.payload = std::string("a\0b", 3);
        auto pushed = q.push(r);
        QCOMPARE(pushed.status, PushResult::Status::Created);
        QCOMPARE(pushed.id.size(), size_t(26));
        auto claim = q.claim(10, 1000, "w1");
        QCOMPARE(claim.tasks.size(), size_t(1));
        QCOMPARE(claim.tasks[0].payload, std::string("a\0b", 3));
        QCOMPARE(claim.tasks[0].attempts, 1);
        q.ack(claim.tasks[0].id, claim.tasks[0].token);
        QCOMPARE(q.counts().active, 0LL);
        QCOMPARE(q.stats()["acked"], 1LL);
    }

private:
    RedisServer m_server;
};

QTEST_GUILESS_MAIN(TestQueue)
#include "tst_queue.moc"
