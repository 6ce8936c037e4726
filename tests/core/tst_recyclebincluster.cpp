#include "clustergroup.h"
#include "groupsuite.h"

#include <delayq/actor.h>
#include <delayq/auditlog.h>
#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/recyclebin.h>
#include <delayq/shardmover.h>

#include <QTest>

#include <map>
#include <set>
#include <thread>

using namespace delayq;

// The recycle bin on a 3-master Redis Cluster (docs/design/bin.md): each shard keeps what was
// removed from it, in its own slot; restore by id, by action and all go over every shard.
class TestRecycleBinCluster : public GroupSuite
{
    Q_OBJECT

public:
    TestRecycleBinCluster() : GroupSuite(m_group, "recyclebincluster") {}

private slots:
    void cancelPurgeAndRestoreOverShards_data()
    {
        QTest::addColumn<int>("shards");
        QTest::newRow("one slot") << 1;
        QTest::newRow("3 shards over the masters") << 3;
    }
    void cancelPurgeAndRestoreOverShards()
    {
        QFETCH(int, shards);
        ConnectionOptions options = ConnectionOptions::fromUrl(m_group.url());
        options.actor = Actor::ofThisProcess("delayq-test", "9.9.9");
        Connection connection(options);
        const std::string name = "bin" + std::to_string(shards);
        Queue queue(connection, name);
        if (shards > 1) {
            ShardMover mover(queue);
            MoveProgress p = mover.start(size_t(shards));
            for (int pass = 0; !p.finished && pass < 50; ++pass) {
                p = mover.step(50);
                std::this_thread::sleep_for(std::chrono::milliseconds(p.waitMs));
            }
            QVERIFY(p.finished);
            queue.reloadLayout();
        }
        QCOMPARE(queue.shardCount(), size_t(shards));
        queue.setConfig("history", "10");
        std::vector<PushRequest> requests;
        std::vector<std::string> ids;
        for (int i = 0; i < 60; ++i) {
            PushRequest r;
            r.id = "c" + std::to_string(i);
            r.payload = std::string("\0bytes|", 7) + std::to_string(i);
            r.delayMs = 3'600'000 + i;
            requests.push_back(r);
            ids.push_back(r.id);
        }
        queue.pushBatch(requests);
        std::map<std::string, Task> before;
        std::set<std::string> tags;
        for (const auto& id : ids) {
            before[id] = queue.find(id)->second;
        }

        QCOMPARE(queue.cancel({ids.begin(), ids.begin() + 30}).size(), size_t(30));
        const std::string cancelled = queue.binAction();
        QCOMPARE(queue.purge(7).done, 30LL);
        const std::string purged = queue.binAction();
        QCOMPARE(queue.counts().pending, 0LL);

        // Each shard's bin lives in that shard's slot.
        for (size_t s = 0; s < queue.shardCount(); ++s)
            tags.insert(queue.shardKeys(s).tag());
        QCOMPARE(tags.size(), size_t(shards));

        RecycleBin bin(queue);
        const auto actions = bin.actions();
        QCOMPARE(actions.size(), size_t(2));
        long long total = 0;
        for (const auto& a : actions)
            total += a.tasks;
        QCOMPARE(total, 60LL);
        QCOMPARE(bin.tasks({}, 1000).size(), size_t(60));

        // By id across shards, then the cancel by its audit entry, then the purge by its id.
        QCOMPARE(bin.restore({"c0", "c1", "c2"}).size(), size_t(3));
        const auto entries = queue.audit();
        std::string cancelEntry;
        for (const auto& e : entries)
            if (e.action == "cancel" && e.bin == cancelled)
                cancelEntry = e.id;
        QVERIFY(!cancelEntry.empty());
        const auto byEntry = bin.restoreAction(bin.actionOfAuditEntry(cancelEntry));
        QCOMPARE(byEntry.size(), size_t(27));
        const auto byAction = bin.restoreAction(purged);
        QCOMPARE(byAction.size(), size_t(30));
        for (const auto& r : byAction)
            QCOMPARE(int(r.status), int(IdResult::Status::Done));
        QCOMPARE(queue.counts().pending, 60LL);
        for (const auto& id : ids) {
            const auto after = queue.find(id);
            QVERIFY(after);
            QCOMPARE(after->second.payload, before[id].payload);
            QCOMPARE(after->second.score, before[id].score);
            QCOMPARE(after->second.created, before[id].created);
            QCOMPARE(after->second.attempts, before[id].attempts);
        }
        QVERIFY(bin.actions().empty());
    }

private:
    ClusterGroup m_group;
};

QTEST_GUILESS_MAIN(TestRecycleBinCluster)
#include "tst_recyclebincluster.moc"
