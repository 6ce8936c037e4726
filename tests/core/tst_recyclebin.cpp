#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/actor.h>
#include <delayq/auditlog.h>
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/recyclebin.h>
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

        // An audit entry that kept nothing (a push) says so.
        m_admin->push(request("audited", 0, "a1"));
        const auto entries = AuditLog(*m_adminConn, m_admin->keys()).read(0, 1);
        QCOMPARE(entries.at(0).action, std::string("push"));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", bin.actionOfAuditEntry(entries[0].id));
        QVERIFY2(m_message.find("kept nothing") != std::string::npos, m_message.c_str());
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
