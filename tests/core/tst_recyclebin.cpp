#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/actor.h>
#include <delayq/auditlog.h>
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/recyclebin.h>
#include <delayq/schedule.h>
#include <delayq/schedules.h>
#include <delayq/script.h>
#include <delayq/shardmover.h>

#include <QTest>

#include <algorithm>
#include <map>

using namespace delayq;

namespace {

// What restore must give back exactly: the record, the run entry's attempts, the last error,
// the due time (of a pending task), the fair tag, and the history the task had.
struct Seen
{
    TaskSet set = TaskSet::Pending;
    Task task;
    std::vector<TaskEvent> history;
};

Seen seen(Queue& q, const std::string& id)
{
    auto found = q.find(id);
    if (!found)
        throw std::runtime_error("no task " + id);
    return {found->first, found->second, q.taskHistory(id).events};
}

// Binary payload bytes: NUL, '|', a line break, bytes that are not UTF-8.
std::string oddPayload(int i)
{
    return std::string("a\0|b\n\xff\xfe", 8) + std::to_string(i) + std::string(70, 'x');
}

} // namespace

// The recycle bin (docs/design/bin.md): cancel, purge and delete of dead tasks keep what they
// remove; RecycleBin restores it exactly, by id, by action (its audit entry) or all.
class TestRecycleBin : public QueueSuite
{
    Q_OBJECT

protected:
    void initTest() override
    {
        QueueSuite::initTest();
        ConnectionOptions options = ConnectionOptions::fromUrl(m_server.unixUrl());
        options.actor = Actor::ofThisProcess("delayq-test", "9.9.9");
        m_adminConn = std::make_unique<Connection>(options);
        m_admin = std::make_unique<Queue>(*m_adminConn, "orders");
    }
    void cleanupTest() override
    {
        m_admin.reset();
        m_adminConn.reset();
        QueueSuite::cleanupTest();
    }

    // n pending tasks with odd payloads, history on, each claimed and failed once (attempts 1,
    // a last error, a due time an hour on): everything a restore must bring back.
    std::vector<std::string> makeWorked(Queue& q, int n)
    {
        q.setConfig("history", "20");
        std::vector<std::string> ids;
        for (int i = 0; i < n; ++i) {
            PushRequest r = request(oddPayload(i), 0, "w" + std::to_string(i));
            r.maxAttempts = 7;
            r.backoff = "1h";
            q.push(r);
            ids.push_back(r.id);
        }
        int failed = 0;
        while (failed < n) {
            const auto claimed = q.claim(100, 60'000, "worker-1");
            for (const auto& t : claimed.tasks) {
                q.nack(t.id, t.token, "boom " + t.id);
                ++failed;
            }
        }
        return ids;
    }

    void compareRestored(const Seen& before, const Seen& after)
    {
        QCOMPARE(int(after.set), int(before.set));
        QCOMPARE(after.task.payload, before.task.payload);
        QCOMPARE(after.task.attempts, before.task.attempts);
        QCOMPARE(after.task.maxAttempts, before.task.maxAttempts);
        QCOMPARE(after.task.created, before.task.created);
        QCOMPARE(after.task.backoff, before.task.backoff);
        QCOMPARE(after.task.lastError, before.task.lastError);
        QCOMPARE(after.task.score, before.task.score);
        QCOMPARE(after.task.due, before.task.due);
        // The history as it was, then the removal and the restore.
        QCOMPARE(after.history.size(), before.history.size() + 2);
        for (size_t i = 0; i < before.history.size(); ++i) {
            QCOMPARE(after.history[i].kind, before.history[i].kind);
            QCOMPARE(after.history[i].at, before.history[i].at);
        }
        QCOMPARE(after.history.back().kind, std::string("restored"));
    }

    // Runs a change to `count` shards to its end (the settle time included).
    void reshard(Queue& q, int count)
    {
        ShardMover mover(q);
        MoveProgress p = mover.start(count);
        for (int i = 0; !p.finished && i < 500; ++i) {
            p = mover.step(7); // small steps: a shard's bin takes several
            if (p.waitMs > 0)
                QTest::qWait(int(p.waitMs));
        }
        QVERIFY(p.finished);
        q.reloadLayout();
        m_queue->reloadLayout();
        m_admin->reloadLayout();
    }

    // Whether each id's entry is in its home shard's bin, and in no other.
    void verifyEntriesAtHome(const std::vector<std::string>& ids)
    {
        for (const auto& id : ids)
            for (size_t s = 0; s < m_admin->shardCount(); ++s) {
                const bool here = m_adminConn->command({"HEXISTS", m_admin->shardKeys(s).bin(), id})
                                      .toInteger() == 1;
                const bool home = size_t(m_admin->layout().homeOf(id)) == s;
                QVERIFY2(here == home,
                         (id +
                          (home ? " is not in its home's bin, shard " : " is still in shard ") +
                          std::to_string(s))
                             .c_str());
            }
    }

    std::unique_ptr<Connection> m_adminConn;
    std::unique_ptr<Queue> m_admin;

private slots:
    void cancelRestoreExact_data()
    {
        QTest::addColumn<int>("shards");
        QTest::newRow("plain") << 1;
        QTest::newRow("3 shards") << 3;
    }
    void cancelRestoreExact()
    {
        QFETCH(int, shards);
        if (shards > 1) {
            ShardMover mover(*m_queue);
            mover.start(size_t(shards));
            QTRY_VERIFY_WITH_TIMEOUT(mover.step(50).finished, 10000);
            m_queue->reloadLayout();
            m_admin->reloadLayout();
            QCOMPARE(m_admin->shardCount(), size_t(shards));
        }
        const auto ids = makeWorked(*m_queue, 12);
        std::map<std::string, Seen> before;
        for (const auto& id : ids)
            before[id] = seen(*m_queue, id);
        QCOMPARE(before[ids[0]].task.attempts, 1);

        const auto cancelled = m_admin->cancel(ids);
        QCOMPARE(
            std::count_if(cancelled.begin(), cancelled.end(),
                          [](const IdResult& r) { return r.status == IdResult::Status::Done; }),
            12L);
        const std::string action = m_admin->binAction();
        QVERIFY(!action.empty());
        for (const auto& id : ids)
            QVERIFY(!m_queue->find(id));

        RecycleBin bin(*m_admin);
        const auto actions = bin.actions();
        QCOMPARE(actions.size(), size_t(1));
        QCOMPARE(actions[0].action, action);
        QCOMPARE(actions[0].kind, std::string("cancel"));
        QCOMPARE(actions[0].tasks, 12LL);
        QVERIFY(!actions[0].auditEntry.empty());
        QCOMPARE(bin.tasks().size(), size_t(12));

        // By id: one now, the rest by the action's audit entry.
        QCOMPARE(
            statusesOf(bin.restore({ids[0], "nobody"})),
            (std::vector<IdResult::Status>{IdResult::Status::Done, IdResult::Status::NotFound}));
        QCOMPARE(bin.actionOfAuditEntry(actions[0].auditEntry), action);
        const auto rest = bin.restoreAction(bin.actionOfAuditEntry(actions[0].auditEntry));
        QCOMPARE(rest.size(), size_t(11));
        for (const auto& r : rest)
            QCOMPARE(int(r.status), int(IdResult::Status::Done));
        for (const auto& id : ids)
            compareRestored(before[id], seen(*m_queue, id));
        QVERIFY(bin.actions().empty());
        QVERIFY(bin.tasks().empty());
        QCOMPARE(m_queue->stats()["cancelled"], 12LL);
        QCOMPARE(m_queue->stats()["restored"], 12LL);

        // The restore is audited, and the restored tasks run as before.
        const auto entries = AuditLog(*m_adminConn, m_admin->keys()).read(0, 100);
        QVERIFY(std::any_of(entries.begin(), entries.end(),
                            [](const AuditEntry& e) { return e.action == "restore"; }));
    }

    void forcedCancelOfRunningTaskComesBackPending()
    {
        m_queue->push(request("run me", 0, "r1"));
        const auto claimed = m_queue->claim(1, 60'000, "w");
        QCOMPARE(claimed.tasks.size(), size_t(1));
        QCOMPARE(statusesOf(m_admin->cancel({"r1"}, true)),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        RecycleBin bin(*m_admin);
        QCOMPARE(bin.tasks().at(0).state, std::string("active"));
        QCOMPARE(statusesOf(bin.restore({"r1"})),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        const auto back = m_queue->find("r1");
        QVERIFY(back);
        QCOMPARE(int(back->first), int(TaskSet::Pending));
        QCOMPARE(back->second.attempts, 1);
        QVERIFY(back->second.worker.empty());
        // Its old lease is gone: the old token acks nothing.
        QVERIFY(!m_queue->ack({{"r1", claimed.tasks[0].token}}).front());
    }

    void purgeAndDeleteDeadRestoreByAction()
    {
        m_queue->setConfig("max_attempts", "1");
        for (int i = 0; i < 3; ++i) {
            m_queue->push(request("dead " + std::to_string(i), 0, "d" + std::to_string(i)));
            const auto c = m_queue->claim(1, 60'000, "w");
            m_queue->nack(c.tasks[0].id, c.tasks[0].token, "failed " + std::to_string(i));
        }
        QCOMPARE(m_queue->size(TaskSet::Dead), 3LL);
        std::map<std::string, Seen> dead;
        for (int i = 0; i < 3; ++i)
            dead["d" + std::to_string(i)] = seen(*m_queue, "d" + std::to_string(i));

        QCOMPARE(m_admin->deleteAllDead(2).done, 3LL);
        const std::string deleted = m_admin->binAction();
        for (int i = 0; i < 4; ++i)
            m_queue->push(request("p" + std::to_string(i), 3'600'000, "p" + std::to_string(i)));
        QCOMPARE(m_admin->purge(3).done, 4LL);
        const std::string purged = m_admin->binAction();
        QVERIFY(purged != deleted);
        QCOMPARE(m_queue->size(TaskSet::Pending) + m_queue->size(TaskSet::Dead), 0LL);

        RecycleBin bin(*m_admin);
        QCOMPARE(bin.actions().size(), size_t(2));
        QCOMPARE(bin.actions()[0].kind, std::string("purge"));
        // The audit entries of both calls of the purge name the same action.
        const auto entries = AuditLog(*m_adminConn, m_admin->keys()).read(0, 100);
        int purgeEntries = 0;
        for (const auto& e : entries)
            if (e.action == "purge") {
                QCOMPARE(e.bin, purged);
                ++purgeEntries;
            }
        QCOMPARE(purgeEntries, 2);

        QCOMPARE(bin.restoreAction(purged).size(), size_t(4));
        QCOMPARE(m_queue->size(TaskSet::Pending), 4LL);
        QCOMPARE(m_queue->size(TaskSet::Dead), 0LL);
        QCOMPARE(bin.restoreAction(deleted).size(), size_t(3));
        for (const auto& [id, before] : dead) {
            const Seen after = seen(*m_queue, id);
            QCOMPARE(int(after.set), int(TaskSet::Dead));
            QCOMPARE(after.task.payload, before.task.payload);
            QCOMPARE(after.task.lastError, before.task.lastError);
            QCOMPARE(after.task.attempts, before.task.attempts);
            QCOMPARE(after.task.score, before.task.score);
        }
        EXPECT_ERROR(ErrorCode::NotFound, "", bin.restoreAction(deleted));
        QVERIFY2(m_message.find("holds nothing") != std::string::npos, m_message.c_str());
    }

    void dueNowOrAt()
    {
        m_queue->push(request("later", 3'600'000, "t1"));
        m_queue->push(request("later", 3'600'000, "t2"));
        m_admin->cancel({"t1", "t2"});
        RecycleBin bin(*m_admin);
        const long long now = m_conn->serverNowMs();
        QCOMPARE(statusesOf(bin.restore({"t1"}, now)),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QCOMPARE(m_queue->find("t1")->second.score, now);
        QCOMPARE(bin.restoreAll(now + 5000).size(), size_t(1));
        QCOMPARE(m_queue->find("t2")->second.score, now + 5000);
    }

    void boundsDropOldestAndCount()
    {
        m_queue->setConfig("bin_max", "3");
        for (int i = 0; i < 5; ++i) {
            m_queue->push(request("x", 3'600'000, "b" + std::to_string(i)));
            m_admin->cancel({"b" + std::to_string(i)});
        }
        RecycleBin bin(*m_admin);
        std::vector<std::string> held;
        for (const auto& t : bin.tasks())
            held.push_back(t.id);
        std::sort(held.begin(), held.end());
        QCOMPARE(qt(held), (QStringList{"b2", "b3", "b4"}));
        QCOMPARE(m_server.cli({"HGET", "dq:{orders}:stats", "bin_dropped"}).trimmed(),
                 QByteArray("2"));

        // The bytes bound: entries of about 100 bytes, 250 bytes held at most.
        m_queue->setConfig("bin_max", "1000");
        m_queue->setConfig("bin_bytes", "250");
        m_queue->push(request(std::string(60, 'y'), 3'600'000, "c0"));
        m_admin->cancel({"c0"});
        QVERIFY(bin.tasks().size() <= 2);
        QVERIFY(m_server.cli({"GET", "dq:{orders}:bin_bytes"}).trimmed().toLongLong() <= 250);

        // Time: a task removed longer ago than bin_keep is not restorable.
        m_queue->setConfig("bin_keep", "100");
        m_queue->push(request("z", 3'600'000, "k0"));
        m_admin->cancel({"k0"});
        QTest::qWait(150);
        QCOMPARE(statusesOf(bin.restore({"k0"})),
                 std::vector<IdResult::Status>{IdResult::Status::NotFound});
        QVERIFY(bin.tasks().empty());

        // 0 turns the bin off and empties it.
        m_queue->setConfig("bin_keep", "24h");
        m_queue->push(request("z", 3'600'000, "k1"));
        m_admin->cancel({"k1"});
        QCOMPARE(bin.tasks().size(), size_t(1));
        m_queue->setConfig("bin_max", "0");
        QVERIFY(bin.tasks().empty());
        QCOMPARE(m_server.cli({"EXISTS", "dq:{orders}:bin"}).trimmed(), QByteArray("0"));
        m_queue->push(request("z", 3'600'000, "k2"));
        m_admin->cancel({"k2"});
        QCOMPARE(m_server.cli({"EXISTS", "dq:{orders}:bin"}).trimmed(), QByteArray("0"));
    }

    void refusalsNameTheCauseAndChangeNothing()
    {
        m_queue->push(request("one", 3'600'000, "e1"));
        m_queue->push(request("two", 3'600'000, "e2"));
        m_admin->cancel({"e1", "e2"});
        m_queue->push(request("new one", 0, "e1")); // the id is taken again
        RecycleBin bin(*m_admin);
        QCOMPARE(statusesOf(bin.restore({"e1", "e2"})),
                 (std::vector<IdResult::Status>{IdResult::Status::Exists, IdResult::Status::Done}));
        QCOMPARE(m_queue->find("e1")->second.payload, std::string("new one"));
        QCOMPARE(bin.tasks().size(), size_t(1)); // e1's entry stays

        const QByteArray before = snapshot(m_server);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", bin.actionOfAuditEntry("nope"));
        QVERIFY2(m_message.find("MS-SEQ") != std::string::npos, m_message.c_str());
        EXPECT_ERROR(ErrorCode::NotFound, "", bin.actionOfAuditEntry("1-0"));
        QVERIFY2(m_message.find("no audit entry") != std::string::npos, m_message.c_str());
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", bin.restoreAction("bad id!"));
        QVERIFY2(m_message.find("action id") != std::string::npos, m_message.c_str());
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", bin.restore({"e1"}, -5));
        QVERIFY2(m_message.find("due time") != std::string::npos, m_message.c_str());
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", m_queue->setConfig("bin_max", "-1"));
        QVERIFY2(m_message.find("bin_max") != std::string::npos, m_message.c_str());
        QCOMPARE(snapshot(m_server), before);
        QCOMPARE(statusesOf(bin.restore({"e1"})),
                 std::vector<IdResult::Status>{IdResult::Status::Exists});
        QCOMPARE(snapshot(m_server), before);

        // A read-only session restores nothing.
        ConnectionOptions readOnly = ConnectionOptions::fromUrl(m_server.unixUrl());
        readOnly.readOnly = true;
        Connection looking(readOnly);
        Queue viewer(looking, "orders");
        RecycleBin viewed(viewer);
        EXPECT_ERROR(ErrorCode::NoPermission, "", viewed.restore({"e1"}));
        QVERIFY2(m_message.find("read-only") != std::string::npos, m_message.c_str());
        EXPECT_ERROR(ErrorCode::NoPermission, "", viewed.restoreAll());
        QCOMPARE(snapshot(m_server), before);

        // An audit entry that kept nothing (a push) says so.
        m_admin->push(request("audited", 0, "a1"));
        const auto entries = AuditLog(*m_adminConn, m_admin->keys()).read(0, 1);
        QCOMPARE(entries.at(0).action, std::string("push"));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", bin.actionOfAuditEntry(entries[0].id));
        QVERIFY2(m_message.find("kept nothing") != std::string::npos, m_message.c_str());
    }

    // Issue 52: an undo survives a reshard. Entries made before a change of shards are carried
    // by it to their id's new home (ShardMover::moveBin, bin_take/bin_put/bin_release), and
    // restore there gives each task back exactly: payload bytes, attempts, last error, history,
    // due time, dead ones to dead. Before, restore answered "moved" for every id whose home the
    // change moved, and kept it until bin_keep.
    void anUndoSurvivesAReshard_data()
    {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::newRow("1 to 3 shards") << 1 << 3;
        QTest::newRow("3 to 1 shard (retired shards' bins)") << 3 << 1;
        QTest::newRow("2 to 5 shards") << 2 << 5;
    }
    void anUndoSurvivesAReshard()
    {
        QFETCH(int, from);
        QFETCH(int, to);
        if (from > 1)
            reshard(*m_queue, from);
        const std::vector<std::string> pending = makeWorked(*m_queue, 30);
        // Ten more die at their first failure, then are deleted.
        std::vector<std::string> dying;
        for (int i = 0; i < 10; ++i) {
            PushRequest r = request(oddPayload(100 + i), 0, "z" + std::to_string(i));
            r.maxAttempts = 1;
            m_queue->push(r);
            dying.push_back(r.id);
        }
        int died = 0;
        for (int round = 0; round < 20 && died < 10; ++round)
            for (const auto& t : m_queue->claim(10, 60'000, "worker-2").tasks)
                died += m_queue->nack(t.id, t.token, "dead " + t.id).dead;
        QCOMPARE(died, 10);
        std::vector<std::string> ids = pending;
        ids.insert(ids.end(), dying.begin(), dying.end());
        m_admin->reloadLayout();
        std::map<std::string, int> homeBefore;
        for (const auto& id : ids)
            homeBefore[id] = m_admin->layout().homeOf(id);
        std::map<std::string, Seen> before;
        for (const auto& id : ids)
            before[id] = seen(*m_queue, id);
        QCOMPARE(int(before[dying[0]].set), int(TaskSet::Dead));

        QCOMPARE(statusesOf(m_admin->cancel(pending)),
                 std::vector<IdResult::Status>(30, IdResult::Status::Done));
        const std::string cancelled = m_admin->binAction();
        QCOMPARE(m_admin->deleteDead(dying).size(), size_t(10));
        RecycleBin bin(*m_admin);
        QCOMPARE(bin.tasks().size(), size_t(40));

        reshard(*m_queue, to);
        QCOMPARE(m_admin->shardCount(), size_t(std::max(from, to)));
        int away = 0; // entries the change gave another home
        for (const auto& id : ids)
            away += m_admin->layout().homeOf(id) != homeBefore[id];
        QVERIFY(away > 0);
        verifyEntriesAtHome(ids);
        // Listing and the actions see them all, as before the change, with their audit entry.
        QCOMPARE(bin.tasks().size(), size_t(40));
        const auto actions = bin.actions();
        QCOMPARE(actions.size(), size_t(2));
        long long total = 0;
        for (const auto& a : actions) {
            total += a.tasks;
            QVERIFY(!a.auditEntry.empty());
        }
        QCOMPARE(total, 40LL);
        QCOMPARE(m_queue->stats()["bin_dropped"], 0LL);

        // The cancel by its audit entry, the delete by id.
        std::string entry;
        for (const auto& a : actions)
            if (a.action == cancelled)
                entry = a.auditEntry;
        const auto back = bin.restoreAction(bin.actionOfAuditEntry(entry));
        QCOMPARE(back.size(), size_t(30));
        for (const auto& r : back)
            QCOMPARE(idStatusName(r.status), std::string("done"));
        QCOMPARE(statusesOf(bin.restore(dying)),
                 std::vector<IdResult::Status>(10, IdResult::Status::Done));
        for (const auto& id : ids) {
            compareRestored(before[id], seen(*m_queue, id));
            // In its home: where a push, a cancel and the workers' claims look.
            const Keys home = m_admin->shardKeys(size_t(m_admin->layout().homeOf(id)));
            const std::string set =
                int(before[id].set) == int(TaskSet::Dead) ? home.dead() : home.pending();
            QVERIFY2(!m_adminConn->command({"ZSCORE", set, id}).isNil(), id.c_str());
        }
        // Once: nothing is left to restore a second time, in any shard.
        QVERIFY(bin.tasks().empty());
        QVERIFY(bin.actions().empty());
        QCOMPARE(statusesOf(bin.restore(ids)),
                 std::vector<IdResult::Status>(40, IdResult::Status::NotFound));
        QCOMPARE(m_queue->stats()["restored"], 40LL);
    }

    // While a reshard runs, restore is refused, naming the reshard and how to finish it, and
    // changes nothing: the reshard carries the entries, and a restore must land in the home
    // they are carried to.
    void restoreDuringAReshardIsRefusedAndChangesNothing()
    {
        for (int i = 0; i < 20; ++i)
            m_queue->push(request("x", 3'600'000, "m" + std::to_string(i)));
        std::vector<std::string> ids;
        for (int i = 0; i < 20; ++i)
            ids.push_back("m" + std::to_string(i));
        m_admin->cancel(ids);
        const std::string action = m_admin->binAction();
        ShardMover mover(*m_queue);
        mover.start(3);
        RecycleBin bin(*m_admin);
        const QByteArray before = snapshot(m_server);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", bin.restore({"m0", "m1"}));
        QVERIFY2(m_message.find("being resharded (1>3 shards)") != std::string::npos &&
                     m_message.find("nothing was restored") != std::string::npos &&
                     m_message.find("delayq reshard orders --shards 3") != std::string::npos,
                 m_message.c_str());
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", bin.restoreAction(action));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", bin.restoreAll());
        QCOMPARE(snapshot(m_server), before);
        reshard(*m_queue, 3);
        verifyEntriesAtHome(ids);
        QCOMPARE(bin.restoreAction(action).size(), size_t(20));
        QCOMPARE(m_queue->size(TaskSet::Pending), 20LL);
    }

    // A step that died after bin_take held entries (before bin_put, or after it and before
    // bin_release): the next step puts them in their home's bin, once; nothing is lost, and
    // no removal is restorable in two shards.
    void anInterruptedBinMoveResumes_data()
    {
        QTest::addColumn<bool>("put");
        QTest::newRow("died after the take") << false;
        QTest::newRow("died after the put") << true;
    }
    void anInterruptedBinMoveResumes()
    {
        QFETCH(bool, put);
        std::vector<std::string> ids;
        for (int i = 0; i < 30; ++i) {
            m_queue->push(request("p" + std::to_string(i), 3'600'000, "h" + std::to_string(i)));
            ids.push_back("h" + std::to_string(i));
        }
        m_admin->cancel(ids);
        ShardMover mover(*m_queue);
        mover.start(3);
        m_admin->reloadLayout();
        const ShardLayout& layout = m_admin->layout();
        std::vector<std::string> take{"0"};
        std::map<size_t, std::vector<std::string>> puts;
        for (const auto& id : ids)
            if (layout.homeOf(id) != 0)
                take.insert(take.end(), {id, std::to_string(layout.homeOf(id))});
        take[0] = std::to_string((take.size() - 1) / 2);
        const auto keys0 = m_admin->shardQueue(0).scriptKeys();
        const Reply taken = m_adminConn->evalScript(scripts::binTake, keys0, take);
        QCOMPARE(taken.elements.size(), (take.size() - 1) / 2);
        // Taking again answers the held entries and changes nothing.
        QCOMPARE(m_adminConn->evalScript(scripts::binTake, keys0, take).elements.size(),
                 taken.elements.size());
        QCOMPARE(m_adminConn->evalScript(scripts::binTake, keys0, {"0"}).elements.size(),
                 taken.elements.size());
        // Held: neither listed nor restorable meanwhile (the reshard refuses restores anyway).
        RecycleBin bin(*m_admin);
        QCOMPARE(m_adminConn->command({"HLEN", m_admin->keys().bin()}).toInteger(),
                 30LL - (long long)taken.elements.size());
        if (put) {
            for (const auto& e : taken.elements) {
                auto& args = puts[size_t(layout.homeOf(e.elements[0].str))];
                if (args.empty())
                    args.push_back("0");
                args.insert(args.end(), {e.elements[0].str, e.elements[2].str, e.elements[3].str});
            }
            for (auto& [shard, args] : puts) {
                args[0] = std::to_string((args.size() - 1) / 3);
                m_adminConn->evalScript(scripts::binPut, m_admin->shardQueue(shard).scriptKeys(),
                                        args);
            }
        }
        reshard(*m_queue, 3);
        verifyEntriesAtHome(ids);
        QCOMPARE(m_adminConn->evalScript(scripts::binTake, keys0, {"0"}).elements.size(),
                 size_t(0));
        QCOMPARE(bin.tasks().size(), size_t(30));
        QCOMPARE(bin.actions().at(0).tasks, 30LL);
        // bin_bytes still counts each entry once, in its shard.
        long long bytes = 0, held = 0;
        for (size_t s = 0; s < 3; ++s) {
            const std::string entries = m_admin->shardKeys(s).bin();
            const Reply counted = m_adminConn->command({"GET", entries + "_bytes"});
            bytes += counted.isNil() ? 0 : std::stoll(counted.str);
            for (const auto& v : m_adminConn->command({"HVALS", entries}).elements)
                held += static_cast<long long>(v.str.size());
        }
        QCOMPARE(bytes, held);
        QCOMPARE(statusesOf(bin.restore(ids)),
                 std::vector<IdResult::Status>(30, IdResult::Status::Done));
        QVERIFY(bin.tasks().empty());
        QCOMPARE(m_queue->size(TaskSet::Pending), 30LL);
    }

    // Outside a reshard, an entry away from its id's home (a task a schedule fired, which lives
    // in shard 0 whatever its id's home, cancelled there; or an entry a reshard of an older
    // delayq left behind, made here by hand) is carried home and restored there, exactly. It
    // was refused as moved, kept until bin_keep.
    void anEntryAwayFromHomeIsCarriedAndRestored()
    {
        reshard(*m_queue, 3);
        m_queue->setConfig("history", "20");
        Schedules schedules(*m_adminConn, "orders");
        ScheduleRule rule;
        rule.name = "tick";
        rule.everyMs = 3'600'000;
        rule.payload = std::string("fired\0|", 7);
        schedules.add(rule);
        std::vector<std::string> ids;
        for (int i = 0; ids.size() < 3 && i < 100; ++i) {
            const std::string request = "r" + std::to_string(i);
            if (m_admin->layout().homeOf("s:tick:run:" + request) == 0)
                continue;
            const auto made = schedules.runNow("tick", request);
            QVERIFY(made.made);
            QCOMPARE(made.taskId, "s:tick:run:" + request);
            ids.push_back(made.taskId);
        }
        QCOMPARE(ids.size(), size_t(3));
        for (const auto& id : ids) // in shard 0, not in their home
            QVERIFY(!m_adminConn->command({"ZSCORE", m_admin->shardKeys(0).pending(), id}).isNil());
        m_queue->push(request(oddPayload(7), 3'600'000, "left1"));
        ids.push_back("left1");
        std::map<std::string, Seen> before;
        for (const auto& id : ids)
            before[id] = seen(*m_queue, id);
        QCOMPARE(statusesOf(m_admin->cancel(ids)),
                 std::vector<IdResult::Status>(4, IdResult::Status::Done));
        // left1's entry moved by hand to a shard that is not its home, as an old reshard left it.
        const size_t home = size_t(m_admin->layout().homeOf("left1"));
        const size_t other = (home + 1) % 3;
        const Reply taken =
            m_adminConn->evalScript(scripts::binTake, m_admin->shardQueue(home).scriptKeys(),
                                    {"1", "left1", std::to_string(other)});
        QCOMPARE(taken.elements.size(), size_t(1));
        QCOMPARE(m_adminConn
                     ->evalScript(scripts::binPut, m_admin->shardQueue(other).scriptKeys(),
                                  {"1", "left1", taken.elements[0].elements[2].str,
                                   taken.elements[0].elements[3].str})
                     .toInteger(),
                 1LL);
        m_adminConn->evalScript(scripts::binRelease, m_admin->shardQueue(home).scriptKeys(),
                                {"1", "left1"});
        QCOMPARE(
            m_adminConn->command({"HEXISTS", m_admin->shardKeys(other).bin(), "left1"}).toInteger(),
            1LL);

        RecycleBin bin(*m_admin);
        QCOMPARE(bin.tasks().size(), size_t(4));
        QCOMPARE(statusesOf(bin.restore(ids)),
                 std::vector<IdResult::Status>(4, IdResult::Status::Done));
        for (const auto& id : ids) {
            compareRestored(before[id], seen(*m_queue, id));
            const Keys at = m_admin->shardKeys(size_t(m_admin->layout().homeOf(id)));
            QVERIFY2(!m_adminConn->command({"ZSCORE", at.pending(), id}).isNil(), id.c_str());
        }
        QVERIFY(bin.tasks().empty());
        QCOMPARE(statusesOf(bin.restore(ids)),
                 std::vector<IdResult::Status>(4, IdResult::Status::NotFound));
    }

    // A restore whose process died between bin_take and bin_release of such a carry: the next
    // restore puts the held entry home first, so it is restored, once.
    void aCarryThatDiedIsFinishedByTheNextRestore()
    {
        reshard(*m_queue, 3);
        m_queue->push(request("x", 3'600'000, "held1"));
        m_admin->cancel({"held1"});
        const size_t home = size_t(m_admin->layout().homeOf("held1"));
        // Taken towards a shard that is not its home, then nothing more: only the hold has it.
        QCOMPARE(m_adminConn
                     ->evalScript(scripts::binTake, m_admin->shardQueue(home).scriptKeys(),
                                  {"1", "held1", std::to_string((home + 1) % 3)})
                     .elements.size(),
                 size_t(1));
        RecycleBin bin(*m_admin);
        QVERIFY(bin.tasks().empty());
        QCOMPARE(statusesOf(bin.restore({"held1"})),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QVERIFY(
            !m_adminConn->command({"ZSCORE", m_admin->shardKeys(home).pending(), "held1"}).isNil());
        QCOMPARE(
            m_adminConn->evalScript(scripts::binTake, m_admin->shardQueue(home).scriptKeys(), {"0"})
                .elements.size(),
            size_t(0));
        QCOMPARE(statusesOf(bin.restore({"held1"})),
                 std::vector<IdResult::Status>{IdResult::Status::NotFound});
    }

    // An id removed in its former home and again, during the reshard, in its new home: the
    // reshard carries the older entry to where the newer is, and the newer removal stays (one
    // entry an id, as on one shard: the newest removal is the undo).
    void theNewerRemovalWinsWhenEntriesMeet()
    {
        ShardLayout three;
        three.count = 3;
        std::string id;
        for (int i = 0; id.empty(); ++i)
            if (three.homeOf("dup" + std::to_string(i)) != 0)
                id = "dup" + std::to_string(i);
        m_queue->push(request("older", 3'600'000, id));
        m_admin->cancel({id});
        QTest::qWait(5);
        ShardMover mover(*m_queue);
        mover.start(3);
        m_queue->reloadLayout();
        m_admin->reloadLayout();
        QCOMPARE(m_admin->layout().homeOf(id), three.homeOf(id));
        m_queue->push(request("newer", 3'600'000, id)); // to its new home
        QCOMPARE(statusesOf(m_admin->cancel({id})),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        reshard(*m_queue, 3);
        verifyEntriesAtHome({id});
        RecycleBin bin(*m_admin);
        QCOMPARE(bin.tasks().size(), size_t(1));
        QCOMPARE(statusesOf(bin.restore({id})),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QCOMPARE(m_queue->find(id)->second.payload, std::string("newer"));
        QVERIFY(bin.tasks().empty());
    }

    // An id in a shard's bin_at without an entry (nothing to carry) does not keep a reshard
    // from ending: bin_take drops it from bin_at.
    void aDanglingIndexEntryDoesNotStopAReshard()
    {
        ShardLayout three;
        three.count = 3;
        std::string id;
        for (int i = 0; id.empty(); ++i)
            if (three.homeOf("gone" + std::to_string(i)) != 0)
                id = "gone" + std::to_string(i);
        m_adminConn->command({"ZADD", m_admin->keys().binAt(), "1", id});
        reshard(*m_queue, 3);
        QCOMPARE(m_adminConn->command({"ZSCORE", m_admin->keys().binAt(), id}).isNil(), true);
        QVERIFY(RecycleBin(*m_admin).tasks().empty());
    }

    // bin_bytes reads sizes as dead_max_bytes does (one parser, Redis's maxmemory units), up
    // to 4 GiB; a refusal names the setting and writes nothing.
    void binBytesTakesUnits()
    {
        QCOMPARE(Queue::normalizeConfig("bin_bytes", "64MB"), std::string("67108864"));
        QCOMPARE(Queue::normalizeConfig("bin_bytes", "512kb"), std::string("524288"));
        QCOMPARE(Queue::normalizeConfig("bin_bytes", "4GiB"), std::string("4294967296"));
        QCOMPARE(Queue::normalizeConfig("bin_bytes", "1000"), std::string("1000"));
        QCOMPARE(Queue::normalizeConfig("bin_bytes", "off"), std::string("0"));
        const QByteArray before = snapshot(m_server);
        for (const char* bad : {"5GB", "12x", "-1", "1.5MB", "MB"}) {
            EXPECT_ERROR(ErrorCode::InvalidArgument, "", m_queue->setConfig("bin_bytes", bad));
            QVERIFY2(m_message.find("bin_bytes must be a size in bytes") != std::string::npos &&
                         m_message.find("'off' for no recycle bin") != std::string::npos,
                     m_message.c_str());
        }
        QCOMPARE(snapshot(m_server), before);
        // In force: 1KB holds about ten entries of ~100 bytes, not all 30.
        m_queue->setConfig("bin_bytes", "1KB");
        QCOMPARE(m_queue->config().binBytes, 1024LL);
        for (int i = 0; i < 30; ++i)
            m_queue->push(request("x", 3'600'000, "u" + std::to_string(i)));
        std::vector<std::string> ids;
        for (int i = 0; i < 30; ++i)
            ids.push_back("u" + std::to_string(i));
        m_admin->cancel(ids);
        const size_t held = RecycleBin(*m_admin).tasks().size();
        QVERIFY2(held > 0 && held < 30, std::to_string(held).c_str());
        QVERIFY(m_server.cli({"GET", "dq:{orders}:bin_bytes"}).trimmed().toLongLong() <= 1024);
    }

    void workersAcksAndDeathsStayOut()
    {
        m_queue->setConfig("max_attempts", "1");
        m_queue->push(request("acked", 0, "w1"));
        m_queue->push(request("dies", 0, "w2"));
        const auto c = m_queue->claim(2, 60'000, "w");
        QCOMPARE(c.tasks.size(), size_t(2));
        for (const auto& t : c.tasks) {
            if (t.id == "w1")
                m_queue->ack(t.id, t.token);
            else
                m_queue->nack(t.id, t.token, "no");
        }
        QCOMPARE(m_server.cli({"EXISTS", "dq:{orders}:bin"}).trimmed(), QByteArray("0"));
        QVERIFY(RecycleBin(*m_admin).actions().empty());
    }
};

QTEST_GUILESS_MAIN(TestRecycleBin)
#include "tst_recyclebin.moc"
