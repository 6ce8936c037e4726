#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QTest>

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace delayq;

namespace {

using Fields = std::map<std::string, std::string>;

// The set's key: its name is the set's ("dq:{orders}:pending").
std::string setKeyName(TaskSet set)
{
    return std::string("dq:{orders}:") + taskSetName(set);
}

} // namespace

// Queues written by an older delayq (a hash per task, "dq:{Q}:t:<id>"): detected, refused by
// the scripts, and converted by Queue::upgrade in bounded, resumable steps (delayq/queue.h).
class TestQueueUpgrade : public QueueSuite
{
    Q_OBJECT

    // A task as the older delayq wrote it: its hash and its entry in one of the sets.
    void writeOldTask(TaskSet set, const std::string& id, long long score, const Fields& fields)
    {
        std::vector<std::string> hset = {"HSET", "dq:{orders}:t:" + id};
        for (const auto& [field, value] : fields) {
            hset.push_back(field);
            hset.push_back(value);
        }
        if (fields.size() > 0)
            m_conn->command(hset);
        m_conn->command({"ZADD", setKeyName(set), std::to_string(score), id});
    }

    long long oldKeysLeft()
    {
        return m_server.cli({"--scan", "--pattern", "dq:{orders}:t:*"}).count('\n');
    }

private slots:
    void everyFieldSurvivesTheUpgrade()
    {
        Queue& q = *m_queue;
        const std::string binary("a|b\0c\xff", 6);
        writeOldTask(TaskSet::Pending, "p", 2'000'000'000'000,
                     {{"payload", binary},
                      {"due", "2000000000000"},
                      {"created", "1700000000000"},
                      {"attempts", "2"},
                      {"max_attempts", "7"},
                      {"state", "pending"},
                      {"backoff", "1000,2000"},
                      {"last_error", "timed out"}});
        writeOldTask(TaskSet::Active, "a", 1'800'000'000'000,
                     {{"payload", "held"},
                      {"due", "1700000001000"},
                      {"created", "1700000000000"},
                      {"attempts", "1"},
                      {"max_attempts", "5"},
                      {"state", "active"},
                      {"lease", "tok:1"},
                      {"worker", "host-1"},
                      {"claimed", "1700000002000"}});
        writeOldTask(TaskSet::Dead, "d", 1'700'000'009'000,
                     {{"payload", "gone"},
                      {"due", "1700000003000"},
                      {"created", "1700000000000"},
                      {"attempts", "5"},
                      {"max_attempts", "5"},
                      {"state", "dead"},
                      {"last_error", "boom"}});
        QVERIFY(q.needsUpgrade());

        const UpgradeResult result = q.upgrade();
        QVERIFY(result.finished);
        QCOMPARE(result.converted, 3LL);
        QVERIFY(!q.needsUpgrade());
        QCOMPARE(oldKeysLeft(), 0LL);

        const auto p = q.find("p");
        QVERIFY(p);
        QCOMPARE(p->first, TaskSet::Pending);
        QVERIFY(!p->second.broken);
        QCOMPARE(p->second.payload, binary);
        QCOMPARE(p->second.due, 2'000'000'000'000LL);
        QCOMPARE(p->second.created, 1'700'000'000'000LL);
        QCOMPARE(p->second.attempts, 2);
        QCOMPARE(p->second.maxAttempts, 7);
        QCOMPARE(p->second.backoff, std::string("1000,2000"));
        QCOMPARE(p->second.lastError, std::string("timed out"));

        const auto a = q.find("a");
        QCOMPARE(a->first, TaskSet::Active);
        QCOMPARE(a->second.due, 1'700'000'001'000LL);
        QCOMPARE(a->second.worker, std::string("host-1"));
        // The worker that holds it keeps its lease across the upgrade.
        q.ack("a", "tok:1");
        QVERIFY(!q.find("a"));

        const auto d = q.find("d");
        QCOMPARE(d->first, TaskSet::Dead);
        QCOMPARE(d->second.attempts, 5);
        QCOMPARE(d->second.due, 1'700'000'003'000LL);
        QCOMPARE(d->second.lastError, std::string("boom"));
        QCOMPARE(statusesOf(q.requeue({"d"})),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QCOMPARE(q.find("d")->second.payload, std::string("gone"));

        // Upgrading again finds nothing and changes nothing.
        const QByteArray before = snapshot(m_server);
        const UpgradeResult again = q.upgrade();
        QVERIFY(again.finished);
        QCOMPARE(again.converted, 0LL);
        QCOMPARE(snapshot(m_server), before);
    }

    void scriptsRefuseOldTasksUntilUpgraded()
    {
        Queue& q = *m_queue;
        writeOldTask(TaskSet::Pending, "old", 1000,
                     {{"payload", "x"},
                      {"due", "1000"},
                      {"created", "1000"},
                      {"attempts", "0"},
                      {"max_attempts", "5"},
                      {"state", "pending"}});
        const QByteArray before = snapshot(m_server);
        // Taken for broken data it would go to dead: the claim refuses instead, moving nothing.
        EXPECT_ERROR(ErrorCode::OldLayout, "", q.claim(10, 0, "w"));
        QVERIFY(m_message.find("delayq upgrade") != std::string::npos);
        QCOMPARE(snapshot(m_server), before);

        QVERIFY(q.upgrade().finished);
        const ClaimResult claim = q.claim(10, 0, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        QCOMPARE(claim.tasks[0].payload, std::string("x"));
        QCOMPARE(claim.tasks[0].attempts, 1);
        QCOMPARE(claim.tasks[0].maxAttempts, 5);
    }

    void reapAndPushLeaveOldTasksAlone()
    {
        Queue& q = *m_queue;
        // Its lease ran out long ago (an old worker stopped for the upgrade).
        writeOldTask(TaskSet::Active, "held", 1000,
                     {{"payload", "x"},
                      {"due", "1000"},
                      {"created", "1000"},
                      {"attempts", "1"},
                      {"max_attempts", "5"},
                      {"state", "active"},
                      {"lease", "t:1"}});
        writeOldTask(TaskSet::Dead, "gone", 1000,
                     {{"payload", "y"},
                      {"due", "1000"},
                      {"created", "1000"},
                      {"attempts", "5"},
                      {"max_attempts", "5"},
                      {"state", "dead"}});
        // Registered as a push would (the push below registers it): the rest must not change.
        m_server.cli({"SADD", "dq:queues", "orders"});
        const QByteArray before = snapshot(m_server);
        EXPECT_ERROR(ErrorCode::OldLayout, "", q.reap(100));
        QCOMPARE(snapshot(m_server), before);
        // Pushing an id an old task holds makes no second, pending copy of it.
        PushRequest again = request("z", 0, "gone");
        QCOMPARE(q.push(again).status, PushResult::Status::Exists);
        QCOMPARE(snapshot(m_server), before);

        QVERIFY(q.upgrade().finished);
        const ReapResult reaped = q.reap(100);
        QCOMPARE(reaped.requeued, 1);
        QCOMPARE(q.find("held")->second.payload, std::string("x"));
        QCOMPARE(q.find("gone")->first, TaskSet::Dead);
    }

    void aListedIdWithoutRecordIsNotPushedTwice()
    {
        Queue& q = *m_queue;
        // Broken: listed in dead (or active) with no record at all.
        m_server.cli({"ZADD", "dq:{orders}:dead", "1000", "ghost"});
        m_server.cli({"ZADD", "dq:{orders}:active", "1000", "held"});
        QCOMPARE(q.push(request("a", 0, "ghost")).status, PushResult::Status::Exists);
        QCOMPARE(q.push(request("b", 0, "held")).status, PushResult::Status::Exists);
        QCOMPARE(q.size(TaskSet::Pending), 0LL);
        // Replacing one takes it out of dead: one copy, pending.
        PushRequest replace = request("c", 0, "ghost");
        replace.replace = true;
        QCOMPARE(q.push(replace).status, PushResult::Status::Replaced);
        QCOMPARE(q.find("ghost")->first, TaskSet::Pending);
        QCOMPARE(q.size(TaskSet::Dead), 0LL);
    }

    void anOldTaskWithoutPayloadStaysBroken()
    {
        Queue& q = *m_queue;
        writeOldTask(TaskSet::Pending, "hollow", 1000, {{"due", "1000"}, {"state", "pending"}});
        QVERIFY(q.upgrade().finished);
        QVERIFY(q.find("hollow")->second.broken);
        QVERIFY(q.claim(10, 0, "w").tasks.empty());
        QCOMPARE(q.find("hollow")->first, TaskSet::Dead);
    }

    void interruptedUpgradeResumesWithoutLossOrDuplicate_data()
    {
        QTest::addColumn<int>("callsPerSlice");
        QTest::newRow("one call at a time") << 1;
        QTest::newRow("four calls at a time") << 4;
    }
    void interruptedUpgradeResumesWithoutLossOrDuplicate()
    {
        QFETCH(int, callsPerSlice);
        Queue& q = *m_queue;
        constexpr int kTasks = 1500;
        for (int i = 0; i < kTasks; ++i) {
            const std::string id = "t" + std::to_string(i);
            // Half due now (claimable once converted), half later.
            const long long due = i % 2 ? 1000 : 4'000'000'000'000;
            writeOldTask(TaskSet::Pending, id, due,
                         {{"payload", "payload-" + id},
                          {"due", std::to_string(due)},
                          {"created", "1000"},
                          {"attempts", "0"},
                          {"max_attempts", "5"},
                          {"state", "pending"}});
        }
        // Slices of a few calls, each a fresh Queue as a restarted `delayq upgrade` would be,
        // with claims in between that shift the ranks under the cursor.
        std::set<std::string> claimed;
        long long converted = 0;
        bool finished = false;
        for (int slice = 0; !finished && slice < 1000; ++slice) {
            Queue again(*m_conn, "orders");
            const UpgradeResult r = again.upgrade(100, callsPerSlice);
            converted += r.converted;
            finished = r.finished;
            // While a task is still in layout 1, the queue says so (then layout 2's buckets
            // move into layout 3's table, which needs no refusal meanwhile).
            if (converted < kTasks)
                QVERIFY(again.needsUpgrade());
            try {
                for (const auto& t : again.claim(7, 0, "w").tasks) {
                    QVERIFY2(claimed.insert(t.id).second, t.id.c_str());
                    QCOMPARE(t.payload, "payload-" + t.id);
                    again.ack(t.id, t.token);
                }
            } catch (const Error& e) {
                // The front of pending may still be old: refused, nothing moved.
                QCOMPARE(e.code(), ErrorCode::OldLayout);
            }
        }
        QVERIFY(finished);
        QCOMPARE(converted, static_cast<long long>(kTasks));
        QVERIFY(!q.needsUpgrade());
        QCOMPARE(oldKeysLeft(), 0LL);
        // Every task exactly once: acked, or still pending with its own payload.
        const auto pending = q.page(TaskSet::Pending, 0, kTasks);
        for (const auto& t : pending) {
            QVERIFY2(!claimed.count(t.id), t.id.c_str());
            QCOMPARE(t.payload, "payload-" + t.id);
        }
        QCOMPARE(static_cast<long long>(pending.size() + claimed.size()),
                 static_cast<long long>(kTasks));
    }
};

QTEST_GUILESS_MAIN(TestQueueUpgrade)
#include "tst_queueupgrade.moc"
