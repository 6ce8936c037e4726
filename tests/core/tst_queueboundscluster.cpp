#include "clustergroup.h"
#include "groupsuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/shardmover.h>

#include <QTest>

#include <chrono>
#include <set>
#include <thread>

using namespace delayq;

// Dead tasks bounded and expiry (docs/design/bounds.md) on a Redis Cluster of three masters: a
// queue sharded over the three keeps dead_max / 3 dead tasks a shard, each shard on its own
// master, and a task past its start-by time is never handed out from any shard.
class TestQueueBoundsCluster : public GroupSuite
{
    Q_OBJECT

public:
    TestQueueBoundsCluster() : GroupSuite(m_group, "boundscluster") {}

private slots:
    void eachShardKeepsItsShare()
    {
        Connection connection(ConnectionOptions::fromUrl(m_group.url()));
        Queue queue = sharded(connection, "flood", 3);
        std::set<std::string> nodes;
        for (size_t s = 0; s < 3; ++s)
            nodes.insert(connection.nodeForKey(queue.shardKeys(s).pending()));
        QCOMPARE(nodes.size(), size_t(3));
        // The reshard told every shard the count its dead bound is divided by.
        for (size_t s = 0; s < 3; ++s)
            QCOMPARE(connection.command({"HGET", queue.shardKeys(s).config(), "dead_shards"}).str,
                     std::string("3"));
        queue.setConfig("dead_max", "9");
        std::vector<PushRequest> requests;
        for (int i = 0; i < 60; ++i) {
            PushRequest r;
            r.id = "f" + std::to_string(i);
            r.payload = "p";
            r.maxAttempts = 1;
            requests.push_back(r);
        }
        queue.pushBatch(requests);
        for (int round = 0; round < 100 && queue.size(TaskSet::Pending) > 0; ++round)
            for (const auto& t : queue.claim(50, 60'000, "w").tasks)
                queue.nack(t.id, t.token, "boom");
        QCOMPARE(queue.size(TaskSet::Pending), 0LL);
        QCOMPARE(queue.size(TaskSet::Active), 0LL);
        // 60 spread by id over 3 shards: each keeps 3, the newest of its own.
        for (size_t s = 0; s < 3; ++s)
            QCOMPARE(queue.shardQueue(s).size(TaskSet::Dead), 3LL);
        QCOMPARE(queue.size(TaskSet::Dead), 9LL);
        QCOMPARE(queue.stats().at("dead_dropped"), 51LL);
        QCOMPARE(queue.stats().at("died"), 60LL);
        QVERIFY(queue.deadBytes() > 0);
    }

    void expiredOnEveryShard()
    {
        Connection connection(ConnectionOptions::fromUrl(m_group.url()));
        Queue queue = sharded(connection, "expiring", 3);
        queue.setConfig("expired_to", "drop");
        std::vector<PushRequest> requests;
        for (int i = 0; i < 30; ++i) {
            PushRequest r;
            r.id = "e" + std::to_string(i);
            r.payload = "p";
            r.maxAgeMs = i % 2 == 0 ? 50 : 3'600'000;
            requests.push_back(r);
        }
        queue.pushBatch(requests);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        std::set<std::string> handed;
        for (int round = 0; round < 20; ++round)
            for (const auto& t : queue.claim(50, 60'000, "w").tasks) {
                handed.insert(t.id);
                queue.ack(t.id, t.token);
            }
        QCOMPARE(handed.size(), size_t(15));
        for (const auto& id : handed)
            QVERIFY(std::stoi(id.substr(1)) % 2 == 1);
        QCOMPARE(queue.stats().at("expired_unstarted"), 15LL);
        QCOMPARE(queue.size(TaskSet::Dead), 0LL); // dropped, as the queue says
        QCOMPARE(queue.size(TaskSet::Pending), 0LL);
    }

private:
    static Queue sharded(Connection& connection, const std::string& name, int shards)
    {
        Queue queue(connection, name);
        ShardMover mover(queue);
        MoveProgress p = mover.start(shards);
        while (!p.finished) {
            p = mover.step(50);
            std::this_thread::sleep_for(std::chrono::milliseconds(p.waitMs));
        }
        queue.reloadLayout();
        return queue;
    }

    ClusterGroup m_group;
};

QTEST_GUILESS_MAIN(TestQueueBoundsCluster)
#include "tst_queueboundscluster.moc"
