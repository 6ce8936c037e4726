#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QTest>

using namespace delayq;

// Cancelling and rescheduling the pending tasks of a native queue (delayq/queue.h).
class TestQueuePending : public QueueSuite
{
    Q_OBJECT

private slots:
    void cancel()
    {
        Queue& q = *m_queue;
        q.push(request("p", 60'000, "pending"));
        q.push(request("a", 0, "active"));
        const auto claim = q.claim(1, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        const auto results = q.cancel({"pending", "active", "missing"});
        QCOMPARE(results.size(), size_t(3));
        QCOMPARE(results[0].id, std::string("pending"));
        QCOMPARE(statusesOf(results),
                 (std::vector<IdResult::Status>{IdResult::Status::Done, IdResult::Status::Active,
                                                IdResult::Status::NotFound}));
        QVERIFY(!q.find("pending"));
        QCOMPARE(q.find("active")->first, TaskSet::Active);
        QCOMPARE(m_server.record(q.keys(), "pending"), QByteArray());

        QCOMPARE(statusesOf(q.cancel({"active"}, true)),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QVERIFY(!q.find("active"));
        QCOMPARE(q.counts().active, 0LL);
        QCOMPARE(q.stats()["cancelled"], 2LL);
        // The worker that held it learns it is gone.
        EXPECT_ERROR(ErrorCode::LeaseLost, "", q.ack("active", claim.tasks[0].token));

        // Dead tasks are reported, not cancelled.
        q.setConfig("max_attempts", "1");
        q.push(request("d", 0, "dead"));
        const auto c = q.claim(1, 60'000, "w");
        q.nack("dead", c.tasks[0].token, "x");
        QCOMPARE(statusesOf(q.cancel({"dead"})),
                 std::vector<IdResult::Status>{IdResult::Status::Dead});
        QCOMPARE(q.size(TaskSet::Dead), 1LL);
        QVERIFY(q.cancel({}).empty());
    }

    void cancelManyAcrossChunks()
    {
        Queue& q = *m_queue;
        std::vector<PushRequest> requests(2100, request("x", 60'000));
        std::vector<std::string> ids;
        for (const auto& r : q.pushBatch(requests))
            ids.push_back(r.id);
        ids.push_back("nope");
        const auto results = q.cancel(ids);
        QCOMPARE(results.size(), ids.size());
        QCOMPARE(results[2050].id, ids[2050]);
        QCOMPARE(results[2050].status, IdResult::Status::Done);
        QCOMPARE(results.back().status, IdResult::Status::NotFound);
        QCOMPARE(q.size(TaskSet::Pending), 0LL);
    }

    void reschedule()
    {
        Queue& q = *m_queue;
        q.push(request("x", 3'600'000, "t1"));
        q.push(request("y", 3'600'000, "t2"));

        const long long at = 4'102'444'800'000LL;
        QCOMPARE(statusesOf(q.reschedule({"t1"}, at)),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QCOMPARE(q.find("t1")->second.due, at);
        QCOMPARE(q.find("t1")->second.score, at);

        const long long before = m_conn->serverTimeMs();
        q.reschedule({"t1"}, std::nullopt, 90'000);
        const long long after = m_conn->serverTimeMs();
        const long long due = q.find("t1")->second.due;
        QVERIFY(due >= before + 90'000 && due <= after + 90'000);
        QCOMPARE(q.find("t1")->second.score, due);

        // Run now.
        QCOMPARE(q.counts().dueNow, 0LL);
        q.reschedule({"t2"}, std::nullopt, 0);
        QTRY_COMPARE(q.counts().dueNow, 1LL);
        const auto claim = q.claim(10, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        QCOMPARE(claim.tasks[0].id, std::string("t2"));

        q.setConfig("max_attempts", "1");
        q.push(request("z", 0, "t3"));
        const auto c3 = q.claim(1, 60'000, "w");
        q.nack("t3", c3.tasks[0].token, "x");
        const auto digest = snapshot(m_server);
        QCOMPARE(statusesOf(q.reschedule({"t2", "t3", "t4"}, at)),
                 (std::vector<IdResult::Status>{IdResult::Status::Active, IdResult::Status::Dead,
                                                IdResult::Status::NotFound}));
        QCOMPARE(snapshot(m_server), digest);

        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.reschedule({"t1"}, std::nullopt, -1));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                     q.reschedule({"t1"}, std::nullopt, 253'402'300'799'999LL));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.reschedule({"t1"}, -5));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.reschedule({"t1"}, 253'402'300'800'000LL));
        QCOMPARE(snapshot(m_server), digest);
    }
};

QTEST_GUILESS_MAIN(TestQueuePending)
#include "tst_queuepending.moc"
