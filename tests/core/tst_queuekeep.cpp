#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QTest>

using namespace delayq;

// Keep (docs/design/keep.md): the dedup window that refuses a finished id for a while, and
// debounce, which moves a pending task instead of refusing its id and leaves one follow-up for
// a task a worker holds.
class TestQueueKeep : public QueueSuite
{
    Q_OBJECT

    PushRequest debounce(const std::string& payload, long long delayMs, long long maxWaitMs,
                         bool withPayload = false)
    {
        PushRequest r = request(payload, delayMs, "k");
        r.debounceMaxWaitMs = maxWaitMs;
        r.debouncePayload = withPayload;
        return r;
    }

    ClaimedTask claimOne()
    {
        const auto claim = m_queue->claim(1, 60'000, "w1");
        if (claim.tasks.size() != 1)
            throw std::runtime_error("expected one claimed task");
        return claim.tasks[0];
    }

    std::string payloadOf(const std::string& id)
    {
        const auto found = m_queue->find(id);
        return found ? found->second.payload : std::string("(none)");
    }

private slots:
    void finishedIdRefusedWithinWindow_data()
    {
        QTest::addColumn<bool>("queueWindow");
        QTest::addColumn<bool>("dies");
        QTest::newRow("queue window, acked") << true << false;
        QTest::newRow("queue window, dead") << true << true;
        QTest::newRow("push's own window, acked") << false << false;
        QTest::newRow("push's own window, dead") << false << true;
    }
    void finishedIdRefusedWithinWindow()
    {
        QFETCH(bool, queueWindow);
        QFETCH(bool, dies);
        Queue& q = *m_queue;
        PushRequest r = request("charge order 42", 0, "order-42");
        if (queueWindow)
            q.setConfig("dedup_window", "1h");
        else
            r.dedupMs = 3'600'000;
        r.maxAttempts = 1;
        QCOMPARE(q.push(r).status, PushResult::Status::Created);
        const ClaimedTask t = claimOne();
        const long long before = m_conn->serverTimeMs();
        if (dies) {
            q.nack(t.id, t.token, "boom");
            // Deleting the dead copy does not reopen the id either.
            QCOMPARE(statusesOf(q.deleteDead({t.id})),
                     std::vector<IdResult::Status>{IdResult::Status::Done});
        } else {
            q.ack(t.id, t.token);
        }
        const PushResult again = q.push(request("charge order 42", 0, "order-42"));
        QCOMPARE(again.status, PushResult::Status::RecentlyDone);
        // The reply's due time is when the window ends.
        QVERIFY(again.due >= before + 3'600'000 && again.due <= before + 3'610'000);
        QCOMPARE(q.size(TaskSet::Pending), 0LL);
        // A replace overrides the window.
        PushRequest replace = request("charge again", 0, "order-42");
        replace.replace = true;
        QCOMPARE(q.push(replace).status, PushResult::Status::Created);
    }

    void windowEnds()
    {
        Queue& q = *m_queue;
        PushRequest r = request("x", 0, "short");
        r.dedupMs = 300;
        q.push(r);
        const ClaimedTask t = claimOne();
        q.ack(t.id, t.token);
        QCOMPARE(q.push(request("x", 0, "short")).status, PushResult::Status::RecentlyDone);
        QVERIFY(eventually([&] {
            return q.push(request("x", 0, "short")).status == PushResult::Status::Created;
        }));
    }

    void withoutWindowIdIsFreeAgain()
    {
        Queue& q = *m_queue;
        q.push(request("x", 0, "free"));
        const ClaimedTask t = claimOne();
        q.ack(t.id, t.token);
        QCOMPARE(q.push(request("x", 0, "free")).status, PushResult::Status::Created);
        QCOMPARE(m_server.cli({"EXISTS", "dq:{orders}:done"}).trimmed(), QByteArray("0"));
    }

    void rememberedIdsBounded()
    {
        Queue& q = *m_queue;
        q.setConfig({{"dedup_window", "1h"}, {"dedup_max", "3"}});
        for (int i = 0; i < 5; ++i) {
            q.push(request("x", 0, "b" + std::to_string(i)));
            const ClaimedTask t = claimOne();
            q.ack(t.id, t.token);
        }
        QCOMPARE(m_server.cli({"ZCARD", "dq:{orders}:done"}).trimmed(), QByteArray("3"));
        // The first finished went first.
        QCOMPARE(q.push(request("x", 0, "b0")).status, PushResult::Status::Created);
        QCOMPARE(q.push(request("x", 0, "b4")).status, PushResult::Status::RecentlyDone);
    }

    void debounceMovesPendingTask_data()
    {
        QTest::addColumn<long long>("firstDelay");
        QTest::addColumn<long long>("againDelay");
        QTest::addColumn<long long>("maxWait");
        QTest::addColumn<long long>("expectedShift"); // from the first due, ms
        QTest::newRow("later, within the maximum wait") << 10'000LL << 20'000LL << 60'000LL
                                                         << 10'000LL;
        QTest::newRow("capped at first push + maximum wait") << 10'000LL << 90'000LL << 30'000LL
                                                              << 20'000LL;
        QTest::newRow("never earlier") << 10'000LL << 1'000LL << 60'000LL << 0LL;
    }
    void debounceMovesPendingTask()
    {
        QFETCH(long long, firstDelay);
        QFETCH(long long, againDelay);
        QFETCH(long long, maxWait);
        QFETCH(long long, expectedShift);
        Queue& q = *m_queue;
        const PushResult first = q.push(debounce("one", firstDelay, maxWait));
        QCOMPARE(first.status, PushResult::Status::Created);
        const PushResult again = q.push(debounce("two", againDelay, maxWait));
        QCOMPARE(again.status, PushResult::Status::Debounced);
        // A few ms pass between the two pushes: the shift is measured within 500 ms.
        QVERIFY2(std::llabs(again.due - first.due - expectedShift) < 500,
                 qPrintable(QString::number(again.due - first.due)));
        QCOMPARE(q.size(TaskSet::Pending), 1LL);
        QCOMPARE(payloadOf("k"), std::string("one"));
        QCOMPARE(q.find("k")->second.due, again.due);
    }

    void debouncePayloadMovesToo()
    {
        Queue& q = *m_queue;
        q.push(debounce("one", 10'000, 60'000));
        QCOMPARE(q.push(debounce("two", 20'000, 60'000, true)).status,
                 PushResult::Status::Debounced);
        QCOMPARE(payloadOf("k"), std::string("two"));
    }

    void heldTaskGetsOneFollowUpStartedOnAck()
    {
        Queue& q = *m_queue;
        q.push(debounce("one", 0, 60'000));
        const ClaimedTask t = claimOne();
        QCOMPARE(q.push(debounce("two", 1'000, 60'000)).status, PushResult::Status::FollowUp);
        const PushResult third = q.push(debounce("three", 2'000, 60'000, true));
        QCOMPARE(third.status, PushResult::Status::FollowUp);
        QCOMPARE(q.size(TaskSet::Pending), 0LL);
        q.ack(t.id, t.token);
        // Exactly one follow-up, with the last payload asked for and a fresh attempt count.
        QCOMPARE(q.size(TaskSet::Pending), 1LL);
        const auto found = q.find("k");
        QVERIFY(found);
        QCOMPARE(found->second.payload, std::string("three"));
        QCOMPARE(found->second.attempts, 0);
        QCOMPARE(found->second.due, third.due);
        QCOMPARE(m_server.cli({"HLEN", "dq:{orders}:follow"}).trimmed(), QByteArray("0"));
    }

    void followUpTakesFailedTasksPlace_data()
    {
        QTest::addColumn<long long>("retryDelay");
        QTest::newRow("would retry") << -1LL;
        QTest::newRow("would die") << Queue::kNackDeadNow;
    }
    void followUpTakesFailedTasksPlace()
    {
        QFETCH(long long, retryDelay);
        Queue& q = *m_queue;
        q.push(debounce("one", 0, 60'000));
        const ClaimedTask t = claimOne();
        q.push(debounce("newer", 0, 60'000, true));
        const NackResult nack = q.nack(t.id, t.token, "boom", retryDelay);
        QVERIFY(!nack.dead);
        QCOMPARE(q.size(TaskSet::Dead), 0LL);
        QCOMPARE(payloadOf("k"), std::string("newer"));
        QCOMPARE(q.find("k")->second.attempts, 0);
        QCOMPARE(q.find("k")->second.lastError, std::string("boom"));
    }

    // The follow-up is a newer push: it does not inherit the failed task's own start-by time
    // (the model check found one never handed out, expired on the old task's time).
    void followUpDropsTheFailedTasksStartBy()
    {
        Queue& q = *m_queue;
        PushRequest first = debounce("one", 0, 60'000);
        first.expiresAtMs = m_conn->serverTimeMs() + 60'000;
        q.push(first);
        QVERIFY(q.find("k")->second.expiresAt);
        const ClaimedTask t = claimOne();
        q.push(debounce("newer", 0, 60'000, true));
        q.nack(t.id, t.token, "boom", -1);
        const auto found = q.find("k");
        QVERIFY(found);
        QCOMPARE(found->second.payload, std::string("newer"));
        QVERIFY(!found->second.expiresAt);
    }

    // Nor its own dedup window: the follow-up's push asked for none, so once it is acked the
    // id is free again (the model check found it refused for the failed task's window).
    void followUpDropsTheFailedTasksOwnWindow()
    {
        Queue& q = *m_queue;
        PushRequest first = debounce("one", 0, 60'000);
        first.dedupMs = 3'600'000;
        q.push(first);
        const ClaimedTask t = claimOne();
        q.push(debounce("newer", 0, 60'000, true));
        q.nack(t.id, t.token, "boom", -1);
        const ClaimedTask followUp = claimOne();
        QCOMPARE(followUp.payload, std::string("newer"));
        q.ack(followUp.id, followUp.token);
        QCOMPARE(q.push(request("again", 0, "k")).status, PushResult::Status::Created);
    }

    void followUpTakesReapedTasksPlace()
    {
        Queue& q = *m_queue;
        q.push(debounce("one", 0, 60'000));
        const auto claim = q.claim(1, 200, "w1");
        QCOMPARE(claim.tasks.size(), size_t(1));
        q.push(debounce("newer", 0, 60'000, true));
        try {
            QVERIFY(eventually([&] { return q.reap(10).requeued == 1; }));
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QCOMPARE(payloadOf("k"), std::string("newer"));
        QCOMPARE(q.size(TaskSet::Active), 0LL);
    }

    void cancelDropsTheFollowUp()
    {
        Queue& q = *m_queue;
        q.push(debounce("one", 0, 60'000));
        claimOne();
        q.push(debounce("two", 0, 60'000));
        QCOMPARE(statusesOf(q.cancel({"k"}, true)),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QCOMPARE(m_server.cli({"HLEN", "dq:{orders}:follow"}).trimmed(), QByteArray("0"));
        QCOMPARE(q.size(TaskSet::Pending), 0LL);
    }

    // A replace answered "active" changes nothing, the id's window included: it freed the id
    // (the model check, under load). An active task within its window: a follow-up started
    // by the ack that remembered its id.
    void replaceOfARunningTaskKeepsItsWindow()
    {
        Queue& q = *m_queue;
        q.setConfig("dedup_window", "1h");
        q.push(debounce("one", 0, 60'000));
        const ClaimedTask t = claimOne();
        q.push(debounce("newer", 0, 60'000));
        q.ack(t.id, t.token);
        claimOne(); // the follow-up, running now
        const QByteArray window = m_server.cli({"ZSCORE", "dq:{orders}:done", "k"}).trimmed();
        QVERIFY(!window.isEmpty());
        PushRequest replace = request("over", 0, "k");
        replace.replace = true;
        QCOMPARE(q.push(replace).status, PushResult::Status::Active);
        QCOMPARE(m_server.cli({"ZSCORE", "dq:{orders}:done", "k"}).trimmed(), window);
    }

    void refusalsChangeNothing_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("debounce with replace") << 0;
        QTest::newRow("debounce with a group") << 1;
        QTest::newRow("payload debounce without a wait") << 2;
        QTest::newRow("negative dedup window") << 3;
    }
    void refusalsChangeNothing()
    {
        QFETCH(int, which);
        Queue& q = *m_queue;
        q.push(request("x", 60'000, "k"));
        PushRequest r = debounce("y", 0, 60'000);
        if (which == 0)
            r.replace = true;
        else if (which == 1)
            r.group = "tenant";
        else if (which == 2)
            r.debounceMaxWaitMs = 0, r.debouncePayload = true;
        else
            r.debounceMaxWaitMs = 0, r.dedupMs = -5;
        const QByteArray before = snapshot(m_server);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.push(r));
        QCOMPARE(snapshot(m_server), before);
    }
};

QTEST_GUILESS_MAIN(TestQueueKeep)
#include "tst_queuekeep.moc"
