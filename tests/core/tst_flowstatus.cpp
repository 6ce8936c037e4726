#include "queuesuite.h"
#include <delayq/queue.h>
#include <delayq/queuereader.h>
#include <delayq/queuesnapshot.h>
#include <delayq/shardmover.h>

#include <QTest>

using namespace delayq;

// QueueReader::flowStatus (issue 51): the limits, what held a claim back and whether it holds
// now, the due tasks waiting, live leases and starts, on real claims against a real server.
class TestFlowStatus : public QueueSuite
{
    Q_OBJECT

private slots:
    void heldBack_data();
    void heldBack();
    void shardedQueueReadsAsOne();

private:
    // Tasks due now.
    void pushDue(Queue& queue, int count)
    {
        for (int i = 0; i < count; ++i)
            queue.push(request("p" + std::to_string(i)));
    }
};

void TestFlowStatus::heldBack_data()
{
    QTest::addColumn<QStringList>("config"); // KEY VALUE pairs
    QTest::addColumn<QStringList>("after");  // raw commands run after the claim, "|"-separated
    QTest::addColumn<QString>("heldNowBy");  // "" = not held now
    QTest::addColumn<QString>("lastHeldBy");
    QTest::addColumn<int>("claimed");

    // 5 due tasks, one claim of 5.
    QTest::newRow("no limits") << QStringList{} << QStringList{} << ""
                               << "" << 5;
    QTest::newRow("rate") << QStringList{"rate", "2/1h"} << QStringList{} << "rate"
                          << "rate" << 2;
    QTest::newRow("rate, burst 3")
        << QStringList{"rate", "2/1h", "burst", "3"} << QStringList{} << "rate"
        << "rate" << 3;
    QTest::newRow("cap") << QStringList{"cap", "2"} << QStringList{} << "cap"
                         << "cap" << 2;
    // The hold is long past, yet the cap is still taken by live leases: held.
    QTest::newRow("cap full, old hold")
        << QStringList{"cap", "2"} << QStringList{"HSET|dq:{orders}:flow|held_at|1"} << "cap"
        << "cap" << 2;
    // The workers stopped finding it held (two intervals ago): no longer limited.
    QTest::newRow("rate, old hold")
        << QStringList{"rate", "2/1s"} << QStringList{"HSET|dq:{orders}:flow|held_at|1"} << ""
        << "rate" << 2;
    QTest::newRow("rate turned off")
        << QStringList{"rate", "2/1h"} << QStringList{"HSET|dq:{orders}:config|rate|0"} << ""
        << "rate" << 2;
    QTest::newRow("paused") << QStringList{"cap", "2"}
                            << QStringList{"HSET|dq:{orders}:config|paused|1"} << ""
                            << "cap" << 2;
}

void TestFlowStatus::heldBack()
{
    QFETCH(QStringList, config);
    QFETCH(QStringList, after);
    QFETCH(QString, heldNowBy);
    QFETCH(QString, lastHeldBy);
    QFETCH(int, claimed);

    std::vector<std::pair<std::string, std::string>> pairs;
    for (int i = 0; i + 1 < config.size(); i += 2)
        pairs.emplace_back(config[i].toStdString(), config[i + 1].toStdString());
    if (!pairs.empty())
        m_queue->setConfig(pairs);
    pushDue(*m_queue, 5);
    QCOMPARE(int(m_queue->claim(5, 60000, "w1").tasks.size()), claimed);
    for (const QString& command : after)
        m_server.cli(command.split(QLatin1Char('|')));

    const FlowStatus flow = m_queue->flowStatus();
    QCOMPARE(QString::fromStdString(flow.heldNowBy), heldNowBy);
    QCOMPARE(flow.heldNow, !heldNowBy.isEmpty());
    QCOMPARE(QString::fromStdString(flow.heldBy), lastHeldBy);
    QCOMPARE(flow.heldAtMs > 0, !lastHeldBy.isEmpty());
    QCOMPARE(flow.dueWaiting, 5LL - claimed);
    QCOMPARE(flow.activeLive, static_cast<long long>(claimed));
    QCOMPARE(flow.startsPerMinute, static_cast<long long>(claimed));
    // The snapshot (Overview, exporter) reads the same.
    const FlowStatus seen = QueueSnapshotReader(*m_conn, "dq").read({"orders"}, false).at(0).flow;
    QCOMPARE(QString::fromStdString(seen.heldNowBy), heldNowBy);
    QCOMPARE(seen.activeLive, flow.activeLive);
    QCOMPARE(seen.rateTasks, flow.rateTasks);
    const QueueConfig c = m_queue->config();
    QCOMPARE(flow.cap, c.cap);
    QCOMPARE(flow.burst, c.burst);
    QCOMPARE(flow.limited(), c.rateTasks > 0 || c.cap > 0);
    if (QTest::currentDataTag() == QByteArray("rate")) {
        QCOMPARE(flow.rateText(), std::string("2/h"));
        QCOMPARE(flow.effectiveBurst(), 2LL);
    }
}

// Every shard is read: the waiting, live and started figures are the sums, the hold the
// latest of any shard.
void TestFlowStatus::shardedQueueReadsAsOne()
{
    {
        ShardMover mover(*m_queue);
        mover.start(3);
        // An empty queue: the move only waits out its settle time (ShardMover::kSettleMs).
        QTRY_VERIFY_WITH_TIMEOUT(mover.step(50).finished, 10000);
        m_queue->reloadLayout();
    }
    m_queue->setConfig({{"cap", "3"}});
    pushDue(*m_queue, 12);
    // Each shard has a share of one: claims in turn take one from each until all are full.
    int claimed = 0;
    for (int i = 0; i < 6; ++i)
        claimed += static_cast<int>(m_queue->claim(5, 60000, "w1").tasks.size());
    QCOMPARE(claimed, 3);
    const FlowStatus flow = m_queue->flowStatus();
    QCOMPARE(flow.cap, 3LL);
    QCOMPARE(flow.activeLive, 3LL);
    QCOMPARE(flow.dueWaiting, 9LL);
    QCOMPARE(flow.startsPerMinute, 3LL);
    QCOMPARE(flow.heldNowBy, std::string("cap"));
    // The snapshot the Overview and the exporter read judges the same.
    const auto snapshots = QueueSnapshotReader(*m_conn, "dq").read({"orders"}, false);
    QCOMPARE(snapshots.size(), size_t(1));
    const FlowStatus& seen = snapshots[0].flow;
    QCOMPARE(seen.cap, 3LL);
    QCOMPARE(seen.activeLive, 3LL);
    QCOMPARE(seen.dueWaiting, 9LL);
    QCOMPARE(seen.heldBy, flow.heldBy);
    QCOMPARE(seen.heldAtMs, flow.heldAtMs);
    QCOMPARE(seen.heldNowBy, std::string("cap"));
}

QTEST_GUILESS_MAIN(TestFlowStatus)
#include "tst_flowstatus.moc"
