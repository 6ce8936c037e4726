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

    // Issue 52: an undo survives a reshard across the masters. A cancel on one slot, a grow to
    // three shards (entries carried to other masters' slots), a purge, a shrink back to one
    // (the retired shards' entries carried home): both actions restore exactly, each task in
    // its home shard.
    void anUndoSurvivesReshardsOverTheMasters()
    {
        ConnectionOptions options = ConnectionOptions::fromUrl(m_group.url());
        options.actor = Actor::ofThisProcess("delayq-test", "9.9.9");
        Connection connection(options);
        Queue queue(connection, "binmoves");
        queue.setConfig("history", "10");
        const auto reshard = [&](int count) {
            ShardMover mover(queue);
            MoveProgress p = mover.start(count);
            for (int i = 0; !p.finished && i < 300; ++i) {
                p = mover.step(20);
                std::this_thread::sleep_for(std::chrono::milliseconds(p.waitMs));
            }
            QVERIFY(p.finished);
            queue.reloadLayout();
        };
        const auto push = [&](const std::string& prefix) {
            std::vector<PushRequest> requests;
            std::vector<std::string> ids;
            for (int i = 0; i < 60; ++i) {
                PushRequest r;
                r.id = prefix + std::to_string(i);
                r.payload = std::string("\0bytes|\xff", 9) + std::to_string(i);
                r.delayMs = 3'600'000 + i;
                requests.push_back(r);
                ids.push_back(r.id);
            }
            queue.pushBatch(requests);
            std::map<std::string, Task> before;
            for (const auto& id : ids)
                before[id] = queue.find(id)->second;
            return std::make_pair(ids, before);
        };
        const auto verifyRestored = [&](const std::vector<std::string>& ids,
                                        std::map<std::string, Task>& before) {
            for (const auto& id : ids) {
                const auto after = queue.find(id);
                QVERIFY2(after, id.c_str());
                QCOMPARE(after->second.payload, before[id].payload);
                QCOMPARE(after->second.score, before[id].score);
                QCOMPARE(after->second.created, before[id].created);
                const Keys home = queue.shardKeys(size_t(queue.layout().homeOf(id)));
                QVERIFY2(!connection.command({"ZSCORE", home.pending(), id}).isNil(), id.c_str());
            }
        };

        auto [cancelledIds, cancelledBefore] = push("c");
        QCOMPARE(queue.cancel(cancelledIds).size(), size_t(60));
        const std::string cancelled = queue.binAction();
        reshard(3);
        std::set<std::string> nodes;
        for (size_t s = 0; s < 3; ++s)
            nodes.insert(connection.nodeForKey(queue.shardKeys(s).bin()));
        QCOMPARE(nodes.size(), size_t(3));
        auto [purgedIds, purgedBefore] = push("p");
        QCOMPARE(queue.purge(7).done, 60LL);
        const std::string purged = queue.binAction();
        RecycleBin bin(queue);
        const auto back = bin.restoreAction(cancelled);
        QCOMPARE(back.size(), size_t(60));
        for (const auto& r : back)
            QCOMPARE(idStatusName(r.status), std::string("done"));
        verifyRestored(cancelledIds, cancelledBefore);

        reshard(1);
        const auto again = bin.restoreAction(purged);
        QCOMPARE(again.size(), size_t(60));
        for (const auto& r : again)
            QCOMPARE(idStatusName(r.status), std::string("done"));
        verifyRestored(purgedIds, purgedBefore);
        QVERIFY(bin.actions().empty());
        QCOMPARE(queue.counts().pending, 120LL);
    }

private:
    ClusterGroup m_group;
};

QTEST_GUILESS_MAIN(TestRecycleBinCluster)
#include "tst_recyclebincluster.moc"
