#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/subscriber.h>

#include <QTest>

#include <algorithm>

using namespace delayq;

// Consuming a native queue (delayq/queue.h): claims and leases, ack, nack through the backoff,
// extend, reaping abandoned leases.
class TestQueueClaim : public QueueSuite
{
    Q_OBJECT

private slots:
    void claimWithLease()
    {
        Queue& q = *m_queue;
        q.push(request("a", 0, "a"));
        q.push(request("b", 0, "b"));
        const auto later = q.push(request("c", 600'000, "c"));
        const long long before = m_conn->serverTimeMs();
        const auto claim = q.claim(5, 20'000, "worker-7");
        const long long after = m_conn->serverTimeMs();
        QCOMPARE(claim.tasks.size(), size_t(2));
        QVERIFY(!claim.paused);
        QVERIFY(claim.serverNow >= before && claim.serverNow <= after);
        QCOMPARE(claim.nextDue, std::optional<long long>(later.due));
        // One token for the tasks of a call (the id tells them apart), a new one each call.
        QCOMPARE(claim.tasks[0].token, claim.tasks[1].token);
        for (const auto& t : claim.tasks) {
            QCOMPARE(t.leaseDeadline, claim.serverNow + 20'000);
            QCOMPARE(t.attempts, 1);
            QCOMPARE(t.maxAttempts, 5);
            QVERIFY(!t.token.empty());
            const auto found = q.find(t.id);
            QCOMPARE(found->first, TaskSet::Active);
            QCOMPARE(found->second.score, t.leaseDeadline);
            QCOMPARE(found->second.worker, std::string("worker-7"));
            QCOMPARE(found->second.state, std::string("active"));
        }
        const auto counts = q.counts();
        QCOMPARE(counts.pending, 1LL);
        QCOMPARE(counts.dueNow, 0LL);
        QCOMPARE(counts.active, 2LL);

        // Nothing due: an empty claim still tells when to come back.
        const auto idle = q.claim(5, 20'000, "worker-7");
        q.push(request("e", 0, "e"));
        const auto next = q.claim(1, 20'000, "worker-7");
        QCOMPARE(next.tasks.size(), size_t(1));
        QVERIFY(next.tasks[0].token != claim.tasks[0].token);
        q.ack("e", next.tasks[0].token);
        QVERIFY(idle.tasks.empty());
        QCOMPARE(idle.nextDue, std::optional<long long>(later.due));
        q.cancel({"c"});
        QCOMPARE(q.claim(5, 20'000, "w").nextDue, std::nullopt);

        // lease 0: the queue's lease_ms.
        q.setConfig("lease_ms", "45s");
        q.push(request("d"));
        const auto byConfig = q.claim(1, 0, "w");
        QCOMPARE(byConfig.tasks.at(0).leaseDeadline, byConfig.serverNow + 45'000);

        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.claim(0, 1000, "w"));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.claim(1001, 1000, "w"));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.claim(1, -1, "w"));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.claim(1, 7LL * 86'400'000 + 1, "w"));
    }

    void pausedQueueHandsOutNothing()
    {
        Queue& q = *m_queue;
        const auto pushed = q.push(request("a"));
        q.setConfig("paused", "true");
        QVERIFY(q.config().paused);
        const auto digest = snapshot(m_server);
        const auto claim = q.claim(10, 1000, "w");
        QVERIFY(claim.paused);
        QVERIFY(claim.tasks.empty());
        // Next due -1, not the due time already past that a client would sleep until (not
        // at all) over and over: it waits for the wake-up of the resume (resumePublishesAWakeUp).
        QCOMPARE(claim.nextDue, std::nullopt);
        QVERIFY(claim.serverNow > 0);
        QCOMPARE(snapshot(m_server), digest);
        q.setConfig("paused", "no");
        QCOMPARE(q.claim(10, 1000, "w").tasks.size(), size_t(1));
    }

    // Consumers of a paused queue wait for a wake-up (docs/protocol.md, "Wake-ups"): resume
    // publishes the earliest due ms when a task is pending.
    void resumePublishesAWakeUp()
    {
        Queue& q = *m_queue;
        const auto pushed = q.push(request("a"));
        q.setConfig("paused", "true");
        Subscriber wake(m_conn->options());
        wake.subscribe(Keys("dq", "orders").wake());
        q.setConfig("paused", "no");
        QCOMPARE(wake.waitMessage(std::chrono::seconds(5)),
                 std::optional(std::to_string(pushed.due)));
        QCOMPARE(q.claim(10, 1000, "w").tasks.size(), size_t(1));
        // Nothing pending: a resume has nothing to announce; a pause never announces.
        q.setConfig("paused", "yes");
        q.setConfig("paused", "no");
        QCOMPARE(wake.waitMessage(std::chrono::milliseconds(300)), std::nullopt);
    }

    // docs/protocol.md, "Tokens and leases", one row per way out of active: each clears the
    // token, so the claimer's ack gets 0, its nack and extend LEASE_LOST, and nothing changes.
    void everyWayOutOfActiveEndsTheLease_data()
    {
        QTest::addColumn<QString>("way");
        QTest::newRow("ack") << "ack";
        QTest::newRow("nack") << "nack";
        QTest::newRow("reap") << "reap";
        QTest::newRow("forced cancel") << "cancel";
    }

    void everyWayOutOfActiveEndsTheLease()
    {
        QFETCH(QString, way);
        Queue& q = *m_queue;
        q.push(request("a", 0, "a"));
        const auto claim = q.claim(1, way == "reap" ? 20 : 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        const std::string token = claim.tasks[0].token;
        if (way == "ack")
            q.ack("a", token);
        else if (way == "nack")
            QVERIFY(!q.nack("a", token, "failed", 600'000).dead);
        else if (way == "reap")
            QVERIFY(eventually([&] { return q.reap(10).requeued == 1; }));
        else
            QCOMPARE(statusesOf(q.cancel({"a"}, true)),
                     std::vector<IdResult::Status>{IdResult::Status::Done});
        const auto digest = snapshot(m_server);
        QCOMPARE(q.ack({{"a", token}}), std::vector<bool>{false});
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.nack("a", token, "late"));
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.extend("a", token, 60'000));
        QCOMPARE(snapshot(m_server), digest);
    }

    // A lease runs out at its deadline (deadline <= server now, as reap counts it), before any
    // reap: extend refuses it (the next reap may hand the task to another worker), while an ack
    // or a nack is still taken, since the token proves that no other worker holds the task.
    void leaseThatRanOutIsNotRenewed()
    {
        Queue& q = *m_queue;
        q.pushBatch({request("a", 0, "a"), request("n", 0, "n"), request("e", 0, "e")});
        const auto claim = q.claim(3, 30, "w");
        QCOMPARE(claim.tasks.size(), size_t(3));
        const std::string token = claim.tasks[0].token;
        const long long deadline = claim.tasks[0].leaseDeadline;
        QVERIFY(eventually([&] { return m_conn->serverTimeMs() > deadline; }));
        QCOMPARE(q.counts().leaseExpired, 3LL);

        const auto digest = snapshot(m_server);
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.extend("e", token, 60'000));
        QVERIFY2(m_message.find("ran out") != std::string::npos, m_message.c_str());
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.extend("e", token, 0));
        QCOMPARE(snapshot(m_server), digest);

        QCOMPARE(q.ack({{"a", token}}), std::vector<bool>{true});
        QVERIFY(!q.find("a"));
        const NackResult retried = q.nack("n", token, "late but first", 600'000);
        QVERIFY(!retried.dead);
        QCOMPARE(q.find("n")->first, TaskSet::Pending);
        QCOMPARE(q.find("n")->second.lastError, std::string("late but first"));
        QCOMPARE(q.counts().leaseExpired, 1LL);
        // The one left is the reap's, as if no extend had been tried.
        QCOMPARE(q.reap(10).requeued, 1);
        QCOMPARE(q.counts().leaseExpired, 0LL);
        QCOMPARE(q.stats()["expired"], 1LL);
        QCOMPARE(q.stats()["acked"], 1LL);
        QCOMPARE(q.stats()["retried"], 1LL);
    }

    // The counts say how many active tasks wait for a reap: a live lease is not among them.
    void countsExpiredLeases()
    {
        Queue& q = *m_queue;
        q.pushBatch({request("a", 0, "a"), request("b", 0, "b")});
        const auto shortLease = q.claim(1, 20, "dies");
        const auto longLease = q.claim(1, 600'000, "lives");
        QCOMPARE(shortLease.tasks.size() + longLease.tasks.size(), size_t(2));
        QVERIFY(eventually([&] { return q.counts().leaseExpired == 1; }));
        const auto counts = q.counts();
        QCOMPARE(counts.active, 2LL);
        const auto summary = Queue::summaries(*m_conn, {"orders"});
        QCOMPARE(summary.at(0).counts.leaseExpired, 1LL);
        q.reap(10);
        QCOMPARE(q.counts().leaseExpired, 0LL);
        QCOMPARE(q.counts().active, 1LL);
    }

    // Claim keeps the run hash a hash table, even when each run entry would fit a listpack
    // (a one-letter worker), and the key goes with the last task; the field doing it is no task.
    void runHashStaysATableAndGoesWithTheLastTask()
    {
        Queue& q = *m_queue;
        const std::string run = Keys("dq", "orders").run();
        for (const char* id : {"a", "b", "c"})
            q.push(request(id, 0, id));
        const auto claim = q.claim(3, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(3));
        QCOMPARE(m_conn->command({"OBJECT", "ENCODING", run}).str, std::string("hashtable"));
        QCOMPARE(q.counts().active, 3LL);
        std::vector<std::pair<std::string, std::string>> acks;
        for (const auto& t : claim.tasks)
            acks.emplace_back(t.id, t.token);
        QCOMPARE(q.ack(acks), (std::vector<bool>{true, true, true}));
        QCOMPARE(m_conn->command({"EXISTS", run}).toInteger(), 0LL);

        // A retried task's run entry keeps the key until that task is gone too.
        q.push(request("d", 0, "d"));
        const auto held = q.claim(1, 60'000, "w");
        QVERIFY(!q.nack("d", held.tasks[0].token, "again", 0).dead);
        QCOMPARE(m_conn->command({"HLEN", run}).toInteger(), 2LL);
        const auto again = q.claim(1, 60'000, "w");
        QCOMPARE(again.tasks.size(), size_t(1));
        QCOMPARE(again.tasks[0].attempts, 2);
        q.ack("d", again.tasks[0].token);
        QCOMPARE(m_conn->command({"EXISTS", run}).toInteger(), 0LL);
    }

    void staleTokenChangesNothing()
    {
        Queue& q = *m_queue;
        q.push(request("a", 0, "a"));
        const auto claim = q.claim(1, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        const std::string stale = claim.tasks[0].token + "x";
        const auto digest = snapshot(m_server);
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.ack("a", stale));
        QVERIFY2(m_message.find("task a ") != std::string::npos, m_message.c_str());
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.nack("a", stale, "err"));
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.extend("a", stale, 1000));
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.ack("nobody", "t"));
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.nack("nobody", "t", "e"));
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.extend("nobody", "t", 0));
        QCOMPARE(snapshot(m_server), digest);
        // A batch of acks answers per task.
        q.push(request("b", 0, "b"));
        const auto c2 = q.claim(1, 60'000, "w");
        QCOMPARE(q.ack({{"a", stale}, {"b", c2.tasks[0].token}, {"a", claim.tasks[0].token}}),
                 (std::vector<bool>{false, true, true}));
        QCOMPARE(q.counts().active, 0LL);
        QCOMPARE(q.stats()["acked"], 2LL);
    }

    void extendRenewsLease()
    {
        Queue& q = *m_queue;
        q.push(request("a", 0, "a"));
        const auto claim = q.claim(1, 1000, "w");
        const long long deadline = q.extend("a", claim.tasks[0].token, 120'000);
        QVERIFY(deadline >= claim.serverNow + 120'000);
        QCOMPARE(q.find("a")->second.score, deadline);
        // Not expired any more: a reap leaves it alone.
        QCOMPARE(q.reap(10).requeued, 0);
        q.setConfig("lease_ms", "5m");
        QVERIFY(q.extend("a", claim.tasks[0].token, 0) >= claim.serverNow + 300'000);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.extend("a", claim.tasks[0].token, -1));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                     q.extend("a", claim.tasks[0].token, 8LL * 86'400'000));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                     q.nack("a", claim.tasks[0].token, "e", 253'402'300'799'999LL));
        QCOMPARE(q.find("a")->first, TaskSet::Active);
        q.ack("a", claim.tasks[0].token);
    }

    void leaseLostAfterExpiry()
    {
        Queue& q = *m_queue;
        q.push(request("job", 0, "job"));
        const auto first = q.claim(1, 30, "w1");
        QCOMPARE(first.tasks.size(), size_t(1));
        // w1 hangs; its lease runs out and the task goes back to pending.
        QVERIFY(eventually([&] { return q.reap(10).requeued == 1; }));
        const auto found = q.find("job");
        QCOMPARE(found->first, TaskSet::Pending);
        QVERIFY(found->second.lastError.find("w1") != std::string::npos);
        const auto second = q.claim(1, 60'000, "w2");
        QCOMPARE(second.tasks.size(), size_t(1));
        QCOMPARE(second.tasks[0].id, std::string("job"));
        QCOMPARE(second.tasks[0].attempts, 2);
        QVERIFY(second.tasks[0].token != first.tasks[0].token);
        QCOMPARE(q.find("job")->second.worker, std::string("w2"));

        // w1 wakes up: whatever it does, w2's work is safe.
        const auto digest = snapshot(m_server);
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.ack("job", first.tasks[0].token));
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.nack("job", first.tasks[0].token, "late"));
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.extend("job", first.tasks[0].token, 1000));
        QCOMPARE(snapshot(m_server), digest);
        q.ack("job", second.tasks[0].token);
        QVERIFY(!q.find("job"));
        QCOMPARE(q.stats()["expired"], 1LL);
    }

    void nackThroughBackoffIntoDead_data()
    {
        QTest::addColumn<QString>("taskBackoff");  // "" = the queue's
        QTest::addColumn<QString>("queueBackoff"); // "" = the default
        QTest::addColumn<int>("maxAttempts");
        QTest::addColumn<QList<qint64>>("delays");
        QTest::newRow("list, last repeats") << "10ms,20ms"
                                            << "" << 4 << QList<qint64>{10, 20, 20};
        QTest::newRow("exp doubles to max") << "exp:10ms:40ms"
                                            << "" << 5 << QList<qint64>{10, 20, 40, 40};
        QTest::newRow("queue default") << ""
                                       << "15ms,5ms,25ms" << 4 << QList<qint64>{15, 5, 25};
        QTest::newRow("one attempt") << "10ms"
                                     << "" << 1 << QList<qint64>{};
    }
    void nackThroughBackoffIntoDead()
    {
        QFETCH(QString, taskBackoff);
        QFETCH(QString, queueBackoff);
        QFETCH(int, maxAttempts);
        QFETCH(QList<qint64>, delays);
        Queue& q = *m_queue;
        if (!queueBackoff.isEmpty())
            q.setConfig("backoff", queueBackoff.toStdString());
        PushRequest r = request("work", 0, "t");
        r.maxAttempts = maxAttempts;
        r.backoff = taskBackoff.toStdString();
        q.push(r);
        for (int attempt = 1; attempt <= maxAttempts; ++attempt) {
            ClaimResult claim;
            QVERIFY(
                eventually([&] { return (claim = q.claim(1, 60'000, "w")).tasks.size() == 1; }));
            QCOMPARE(claim.tasks[0].attempts, attempt);
            const std::string error = "failure " + std::to_string(attempt);
            const long long before = m_conn->serverTimeMs();
            const NackResult result = q.nack("t", claim.tasks[0].token, error);
            const long long after = m_conn->serverTimeMs();
            const auto found = q.find("t");
            QCOMPARE(found->second.lastError, error);
            QCOMPARE(found->second.attempts, attempt);
            if (attempt < maxAttempts) {
                QVERIFY(!result.dead);
                const long long delay = delays.at(attempt - 1);
                QVERIFY2(result.when >= before + delay && result.when <= after + delay,
                         qPrintable(QString("attempt %1: due %2, window %3..%4")
                                        .arg(attempt)
                                        .arg(result.when)
                                        .arg(before + delay)
                                        .arg(after + delay)));
                QCOMPARE(found->first, TaskSet::Pending);
                QCOMPARE(found->second.due, result.when);
                QCOMPARE(found->second.state, std::string("pending"));
            } else {
                QVERIFY(result.dead);
                QVERIFY(result.when >= before && result.when <= after);
                QCOMPARE(found->first, TaskSet::Dead);
                QCOMPARE(found->second.score, result.when);
                QCOMPARE(found->second.state, std::string("dead"));
                QVERIFY(found->second.worker.empty());
            }
        }
        QCOMPARE(q.counts().dead, 1LL);
        QCOMPARE(q.stats()["retried"], static_cast<long long>(maxAttempts - 1));
        QCOMPARE(q.stats()["died"], 1LL);
        QVERIFY(q.claim(1, 1000, "w").tasks.empty());
    }

    void nackWithExplicitDelay()
    {
        Queue& q = *m_queue;
        q.push(request("a", 0, "a"));
        auto claim = q.claim(1, 60'000, "w");
        const long long before = m_conn->serverTimeMs();
        const auto result = q.nack("a", claim.tasks[0].token, "later", 3'600'000);
        QVERIFY(!result.dead);
        QVERIFY(result.when >= before + 3'600'000);
        // Retry now.
        q.reschedule({"a"}, std::nullopt, 0);
        claim = q.claim(1, 60'000, "w");
        QVERIFY(!q.nack("a", claim.tasks[0].token, "again", 0).dead);
        claim = q.claim(1, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        // A huge error text is kept, cut to 4096 bytes.
        q.nack("a", claim.tasks[0].token, std::string(5000, 'e'), 0);
        QCOMPARE(q.find("a")->second.lastError, std::string(4096, 'e'));
    }

    // The cut never ends inside a UTF-8 character: the one it would split is left out whole.
    void nackCutsErrorAtCharacter_data()
    {
        QTest::addColumn<int>("asciiBefore"); // bytes before the multibyte characters
        QTest::addColumn<QString>("character");
        QTest::addColumn<int>("kept");
        QTest::newRow("2-byte é split") << 4095 << QStringLiteral("\u00e9") << 4095;
        QTest::newRow("2-byte é whole") << 4094 << QStringLiteral("\u00e9") << 4096;
        QTest::newRow("3-byte € after 1") << 4095 << QStringLiteral("\u20ac") << 4095;
        QTest::newRow("3-byte € after 2") << 4094 << QStringLiteral("\u20ac") << 4094;
        QTest::newRow("3-byte € whole") << 4093 << QStringLiteral("\u20ac") << 4096;
        QTest::newRow("4-byte emoji after 3")
            << 4093 << QString::fromUcs4(U"\U0001F600", 1) << 4093;
        QTest::newRow("4-byte emoji after 1")
            << 4095 << QString::fromUcs4(U"\U0001F600", 1) << 4095;
    }

    void nackCutsErrorAtCharacter()
    {
        QFETCH(int, asciiBefore);
        QFETCH(QString, character);
        QFETCH(int, kept);
        Queue& q = *m_queue;
        q.push(request("a", 0, "a"));
        const auto claim = q.claim(1, 60'000, "w");
        std::string error(static_cast<size_t>(asciiBefore), 'e');
        for (int i = 0; i < 3; ++i)
            error += character.toStdString();
        q.nack("a", claim.tasks[0].token, error, 0);
        const std::string stored = q.find("a")->second.lastError;
        QCOMPARE(stored.size(), size_t(kept));
        QCOMPARE(stored, error.substr(0, static_cast<size_t>(kept)));
        QVERIFY(QString::fromUtf8(stored.data(), static_cast<qsizetype>(stored.size())).toUtf8() ==
                QByteArray(stored.data(), static_cast<qsizetype>(stored.size())));
    }

    void reapAbandonedLeases()
    {
        Queue& q = *m_queue;
        PushRequest keep = request("k", 0, "keep");
        keep.maxAttempts = 3;
        PushRequest last = request("l", 0, "last");
        last.maxAttempts = 1;
        q.pushBatch({keep, last});
        QCOMPARE(q.claim(2, 20, "crashed").tasks.size(), size_t(2));
        ReapResult reaped;
        QVERIFY(eventually([&] {
            reaped = q.reap(10);
            return reaped.requeued + reaped.dead > 0;
        }));
        if (reaped.requeued + reaped.dead < 2) {
            const auto rest = q.reap(10);
            reaped.requeued += rest.requeued;
            reaped.dead += rest.dead;
        }
        QCOMPARE(reaped.requeued, 1);
        QCOMPARE(reaped.dead, 1);
        QVERIFY(!reaped.more);
        auto kept = q.find("keep");
        QCOMPARE(kept->first, TaskSet::Pending);
        QCOMPARE(kept->second.attempts, 1);
        QCOMPARE(kept->second.state, std::string("pending"));
        QVERIFY(kept->second.lastError.find("lease expired") != std::string::npos);
        auto gone = q.find("last");
        QCOMPARE(gone->first, TaskSet::Dead);
        QVERIFY(gone->second.lastError.find("crashed") != std::string::npos);
        QCOMPARE(q.stats()["expired"], 2LL);
        QCOMPARE(q.stats()["died"], 1LL);
        QCOMPARE(q.counts().active, 0LL);
        // Back in line, due now.
        QCOMPARE(q.claim(5, 60'000, "w").tasks.size(), size_t(1));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.reap(0));
    }

    void reapIsBounded()
    {
        Queue& q = *m_queue;
        q.pushBatch(std::vector<PushRequest>(5, request("x")));
        const auto claim = q.claim(5, 10, "w");
        QCOMPARE(claim.tasks.size(), size_t(5));
        // Wait until all five leases are over, without taking any back.
        long long lastDeadline = 0;
        for (const auto& t : claim.tasks)
            lastDeadline = std::max(lastDeadline, t.leaseDeadline);
        QVERIFY(eventually([&] { return m_conn->serverTimeMs() > lastDeadline; }));
        const auto first = q.reap(2);
        QCOMPARE(first.requeued, 2);
        QVERIFY(first.more);
        QCOMPARE(q.reap(2).requeued, 2);
        const auto last = q.reap(2);
        QCOMPARE(last.requeued, 1);
        QVERIFY(!last.more);
    }
};

QTEST_GUILESS_MAIN(TestQueueClaim)
#include "tst_queueclaim.moc"
