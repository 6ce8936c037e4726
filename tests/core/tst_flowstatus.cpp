#include "queuesuite.h"
#include <delayq/error.h>
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
    void busyGroups_data();
    void busyGroups();
    void busyGroupsAreBounded();
    void busyGroupsSumOverShards();

private:
    // Tasks due a minute ago. Not "due now": flowStatus counts due tasks against the client's
    // estimate of the server's clock, which may lag it by half a slow round trip at connect
    // (up to 25 ms), and a task pushed that instant would not yet count as due (CI, under ASan).
    void pushDue(Queue& queue, int count)
    {
        const long long minuteAgo = m_conn->serverNowMs() - 60000;
        for (int i = 0; i < count; ++i) {
            // Named ids: where a sharded queue keeps each is then the same every run (random
            // ids left a shard of three empty now and then, and its share of the cap unused).
            PushRequest r = request("p" + std::to_string(i), 0, "p" + std::to_string(i));
            r.dueAtMs = minuteAgo + i;
            queue.push(r);
        }
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
    // The list of queues (delayq queues) judges the same, from its own pipelined read.
    const FlowStatus listed = Queue::summaries(*m_conn, {"orders"}).at(0).flow;
    QCOMPARE(QString::fromStdString(listed.heldNowBy), heldNowBy);
    QCOMPARE(QString::fromStdString(listed.heldBy), lastHeldBy);
    QCOMPARE(listed.dueWaiting, flow.dueWaiting);
    QCOMPARE(listed.activeLive, flow.activeLive);
    QCOMPARE(listed.rateTasks, flow.rateTasks);
    QCOMPARE(listed.rateMs, flow.rateMs);
    QCOMPARE(listed.cap, flow.cap);
    QCOMPARE(listed.paused, flow.paused);
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
    for (size_t shard = 0; shard < 3; ++shard)
        QVERIFY(m_conn->command({"ZCARD", m_queue->shardKeys(shard).pending()}).toInteger() > 0);
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
    const FlowStatus listed = Queue::summaries(*m_conn, {"orders"}).at(0).flow;
    QCOMPARE(listed.dueWaiting, 9LL);
    QCOMPARE(listed.activeLive, 3LL);
    QCOMPARE(listed.heldAtMs, flow.heldAtMs);
    QCOMPARE(listed.heldNowBy, std::string("cap"));
}

void TestFlowStatus::busyGroups_data()
{
    QTest::addColumn<QStringList>("config"); // KEY VALUE pairs
    QTest::addColumn<QStringList>("pushes"); // a task's group each ("-": none)
    QTest::addColumn<int>("claim");          // tasks one claim asks for
    QTest::addColumn<int>("limit");
    // The busiest groups, in order: "GROUP DUE ACTIVE" (+ " cap" when at its cap), "" = none.
    QTest::addColumn<QStringList>("busiest");
    // Groups in turn with due tasks, at their cap, and tracked (with due tasks, or running
    // ones under a group cap).
    QTest::addColumn<QList<long long>>("counts");

    const QStringList fair{"order", "fair"};
    QTest::newRow("due order: nothing") << QStringList{} << QStringList{"-", "-"} << 0 << 20
                                        << QStringList{} << QList<long long>{0, 0, 0};
    QTest::newRow("fair, by due tasks")
        << fair << QStringList{"b", "a", "a", "-", "a", "-", "c"} << 0 << 20
        << QStringList{"a 3 0", " 2 0", "b 1 0", "c 1 0"} << QList<long long>{4, 0, 4};
    QTest::newRow("fair, limit 2")
        << fair << QStringList{"b", "a", "a", "-", "a", "-", "c"} << 0 << 2
        << QStringList{"a 3 0", " 2 0"} << QList<long long>{4, 0, 4};
    // One claim of 3 takes a's best and b's; the next takes c's, and finds a and b at their cap.
    QTest::newRow("fair, group cap 1, running")
        << (fair + QStringList{"group_cap", "1"}) << QStringList{"a", "a", "a", "b", "b", "c"} << 3
        << 20 << QStringList{"a 2 1 cap", "b 1 1 cap", "c 0 1"} << QList<long long>{0, 2, 3};
    // Without a cap the running tasks are counted from their tags (b, with none due, is no
    // longer tracked). A claim of 21 takes a turn of a's (20 tasks, FAIR_TURN) and b's one.
    QStringList manyA;
    for (int i = 0; i < 23; ++i)
        manyA << "a";
    QTest::newRow("fair, running, no cap")
        << fair << (manyA + QStringList{"b"}) << 21 << 20 << QStringList{"a 3 20", "b 0 1"}
        << QList<long long>{1, 0, 1};
}

void TestFlowStatus::busyGroups()
{
    QFETCH(QStringList, config);
    QFETCH(QStringList, pushes);
    QFETCH(int, claim);
    QFETCH(int, limit);
    QFETCH(QStringList, busiest);
    QFETCH(QList<long long>, counts);

    std::vector<std::pair<std::string, std::string>> pairs;
    for (int i = 0; i + 1 < config.size(); i += 2)
        pairs.emplace_back(config[i].toStdString(), config[i + 1].toStdString());
    if (!pairs.empty())
        m_queue->setConfig(pairs);
    int n = 0;
    for (const QString& group : pushes) {
        PushRequest r = request("p" + std::to_string(n++));
        if (group != "-")
            r.group = group.toStdString();
        m_queue->push(r);
    }
    if (claim > 0)
        m_queue->claim(claim, 60000, "w1");
    // Under a group cap one claim more takes nothing: it finds the groups at their cap (and
    // sets them aside, as the index says they are).
    if (config.contains("group_cap"))
        QCOMPARE(m_queue->claim(1, 60000, "w1").tasks.size(), size_t(0));

    const GroupLoads loads = m_queue->busyGroups(limit);
    QCOMPARE(loads.fair, !config.isEmpty());
    QStringList seen;
    for (const GroupLoad& g : loads.groups)
        seen << QStringLiteral("%1 %2 %3%4")
                    .arg(QString::fromStdString(g.group))
                    .arg(g.dueWaiting)
                    .arg(g.active)
                    .arg(g.atCap ? " cap" : "");
    QCOMPARE(seen, busiest);
    QCOMPARE((QList<long long>{loads.ready, loads.atCap, loads.known}), counts);
    QVERIFY(loads.complete);
}

// More groups than one read looks at: the read stays bounded and says it saw a part.
void TestFlowStatus::busyGroupsAreBounded()
{
    m_queue->setConfig({{"order", "fair"}});
    const long long groups = GroupLoads::kExamined + 5;
    std::vector<PushRequest> batch;
    for (long long i = 0; i < groups; ++i) {
        PushRequest r = request("p");
        r.group = "g" + std::to_string(i);
        batch.push_back(r);
    }
    // One group with more due tasks than any: first, wherever it is in the ring.
    for (int i = 0; i < 3; ++i) {
        PushRequest r = request("p");
        r.group = "g0";
        batch.push_back(r);
    }
    m_queue->pushBatch(batch);

    const GroupLoads loads = m_queue->busyGroups(20);
    QCOMPARE(loads.ready, groups);
    QCOMPARE(loads.known, groups);
    QCOMPARE(loads.examined, GroupLoads::kExamined);
    QVERIFY(!loads.complete);
    QCOMPARE(loads.groups.size(), size_t(20));
    QCOMPARE(loads.groups.front().group, std::string("g0"));
    QCOMPARE(loads.groups.front().dueWaiting, 4LL);
    QVERIFY_THROWS_EXCEPTION(Error, m_queue->busyGroups(0));
}

// On a sharded queue in fair order each shard keeps its own index, and a group's tasks spread
// over the shards: a group's due and running tasks are the sums over every shard, the groups
// counted once, the tracked ones the most of any shard. It read shard 0's index alone.
void TestFlowStatus::busyGroupsSumOverShards()
{
    {
        ShardMover mover(*m_queue);
        mover.start(3);
        QTRY_VERIFY_WITH_TIMEOUT(mover.step(50).finished, 10000);
        m_queue->reloadLayout();
    }
    m_queue->setConfig({{"order", "fair"}, {"group_cap", "6"}});
    const std::map<std::string, int> pushed{{"a", 30}, {"b", 9}, {"c", 3}};
    std::vector<PushRequest> batch;
    for (const auto& [group, n] : pushed)
        for (int i = 0; i < n; ++i) {
            PushRequest r = request("p");
            r.id = group + std::to_string(i);
            r.group = group;
            batch.push_back(r);
        }
    m_queue->pushBatch(batch);
    // A claim in each shard (they go in turn): each takes its share of a's cap, and more.
    std::map<std::string, long long> running;
    for (int i = 0; i < 3; ++i)
        for (const ClaimedTask& t : m_queue->claim(8, 60000, "w1").tasks)
            ++running[t.id.substr(0, 1)];
    QVERIFY(running["a"] > 2); // more than one shard's share of a's cap
    const GroupLoads loads = m_queue->busyGroups(20);
    QVERIFY(loads.fair);
    QCOMPARE(loads.shards, 3LL);
    QVERIFY(loads.complete);
    QCOMPARE(loads.groups.size(), size_t(3));
    for (const GroupLoad& g : loads.groups) {
        QCOMPARE(g.active, running[g.group]);
        QCOMPARE(g.dueWaiting, pushed.at(g.group) - running[g.group]);
    }
    QCOMPARE(loads.examined, 3LL);
    QCOMPARE(loads.known, 3LL); // every shard tracks the three
}

QTEST_GUILESS_MAIN(TestFlowStatus)
#include "tst_flowstatus.moc"
