#include "queuesuite.h"
#include <delayq/queue.h>
#include <delayq/shardmover.h>
#include <delayq/taskscan.h>

#include <QTest>

#include <set>

using namespace delayq;

// A task's fair-order tags (push's priority and group, docs/design/flow.md) read back with it
// for display: in a page, a single read (find) and a scan step, from fl:tags in the read's own
// pipeline; a sharded queue's page reads each shard's tags from that shard.
class TestFairTags : public QueueSuite
{
    Q_OBJECT

private slots:
    void readBack_data();
    void readBack();
    void shardedQueueReadsEachShardsTags();

private:
    static const Task* byId(const std::vector<Task>& tasks, const std::string& id)
    {
        for (const Task& t : tasks)
            if (t.id == id)
                return &t;
        return nullptr;
    }
};

void TestFairTags::readBack_data()
{
    QTest::addColumn<int>("priority");
    QTest::addColumn<QString>("group");

    QTest::newRow("priority and group") << 5 << "tenant-42";
    QTest::newRow("group alone") << 0 << "order:7/a@b.c";
    QTest::newRow("negative priority alone") << -9 << "";
    QTest::newRow("highest") << 9 << "g";
}

void TestFairTags::readBack()
{
    QFETCH(int, priority);
    QFETCH(QString, group);

    m_queue->setConfig("order", "fair");
    PushRequest tagged = request("x", 0, "t");
    tagged.priority = priority;
    tagged.group = group.toStdString();
    m_queue->push(tagged);
    m_queue->push(request("y", 0, "u")); // none: reads as 0 and no group
    // A task of another set: claimed (active), its tags read from the same hash.
    PushRequest running = request("z", 0, "r");
    running.group = "busy";
    m_queue->push(running);

    const std::vector<Task> page = m_queue->page(TaskSet::Pending, 0, 10);
    QCOMPARE(page.size(), size_t(3));
    const Task* t = byId(page, "t");
    const Task* u = byId(page, "u");
    QVERIFY(t && u);
    QCOMPARE(t->priority, priority);
    QCOMPARE(QString::fromStdString(t->group), group);
    QCOMPARE(u->priority, 0);
    QCOMPARE(u->group, std::string());

    const auto found = m_queue->find("t");
    QVERIFY(found);
    QCOMPARE(found->second.priority, priority);
    QCOMPARE(QString::fromStdString(found->second.group), group);
    const auto plain = m_queue->find("u");
    QVERIFY(plain);
    QCOMPARE(plain->second.priority, 0);
    QCOMPARE(plain->second.group, std::string());

    const ScanStep step = TaskScan(*m_queue).step(TaskFilter{}, ScanCursor{}, 10);
    const Task* scanned = byId(step.matches, "t");
    QVERIFY(scanned);
    QCOMPARE(scanned->priority, priority);
    QCOMPARE(QString::fromStdString(scanned->group), group);

    // Claimed: still the tags, in the active page and find.
    while (m_queue->find("r")->first != TaskSet::Active)
        QVERIFY(!m_queue->claim(1, 60000, "w").tasks.empty());
    const std::vector<Task> active = m_queue->page(TaskSet::Active, 0, 10);
    const Task* r = byId(active, "r");
    QVERIFY(r);
    QCOMPARE(r->group, std::string("busy"));
    QCOMPARE(m_queue->find("r")->second.group, std::string("busy"));
}

// A sharded queue is never in fair order, but a page over its shards must read (tags left
// from before stay in their shard's slot): each shard's HMGET goes to its own hash.
void TestFairTags::shardedQueueReadsEachShardsTags()
{
    {
        ShardMover mover(*m_queue);
        mover.start(3);
        QTRY_VERIFY_WITH_TIMEOUT(mover.step(50).finished, 10000);
        m_queue->reloadLayout();
    }
    QCOMPARE(m_queue->shardCount(), size_t(3));
    for (int i = 0; i < 12; ++i)
        m_queue->push(request("p", 0, "s" + std::to_string(i)));
    // One tag written where each task's shard keeps it ("K|G": the group names the shard).
    std::vector<Task> page = m_queue->page(TaskSet::Pending, 0, 100);
    QCOMPARE(page.size(), size_t(12));
    for (size_t shard = 0; shard < 3; ++shard) {
        const Keys& keys = m_queue->shardKeys(shard);
        const std::vector<Task> in = m_queue->shardReader(shard).page(TaskSet::Pending, 0, 100);
        for (const Task& t : in)
            m_conn->command({"HSET", keys.fairTags(), t.id,
                             std::to_string(shard + 1) + "|shard" + std::to_string(shard)});
    }
    page = m_queue->page(TaskSet::Pending, 0, 100);
    QCOMPARE(page.size(), size_t(12));
    std::set<std::string> groups;
    for (const Task& t : page) {
        QVERIFY2(!t.group.empty(), t.id.c_str());
        QCOMPARE(t.priority, std::stoi(t.group.substr(5)) + 1);
        groups.insert(t.group);
        const auto found = m_queue->find(t.id);
        QVERIFY(found);
        QCOMPARE(found->second.group, t.group);
    }
    QCOMPARE(groups.size(), size_t(3)); // the ids spread over every shard
}

QTEST_GUILESS_MAIN(TestFairTags)
#include "tst_fairtags.moc"
