#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QTest>

#include <stdexcept>

using namespace delayq;

// The dead letters of a native queue (delayq/queue.h): requeue, delete, and purging the whole queue.
class TestQueueDead : public QueueSuite
{
    Q_OBJECT

private slots:
    void requeueAndDeleteDead()
    {
        Queue& q = *m_queue;
        const auto ids = makeDead(5);
        QCOMPARE(q.size(TaskSet::Dead), 5LL);
        q.push(request("p", 60'000, "pend"));

        QCOMPARE(statusesOf(q.requeue({ids[0], "pend", "none"})),
                 (std::vector<IdResult::Status>{IdResult::Status::Done, IdResult::Status::Pending,
                                                IdResult::Status::NotFound}));
        auto revived = q.find(ids[0]);
        QCOMPARE(revived->first, TaskSet::Pending);
        QCOMPARE(revived->second.attempts, 0);
        QCOMPARE(revived->second.state, std::string("pending"));
        QCOMPARE(revived->second.payload, std::string("dead-0"));
        QTRY_COMPARE(q.counts().dueNow, 1LL);

        QCOMPARE(statusesOf(q.deleteDead({ids[1], "pend", "none"})),
                 (std::vector<IdResult::Status>{IdResult::Status::Done, IdResult::Status::Pending,
                                                IdResult::Status::NotFound}));
        QVERIFY(!q.find(ids[1]));
        QCOMPARE(m_server.record(q.keys(), ids[1]), QByteArray());

        const auto all = q.requeueAll(2);
        QCOMPARE(all.done, 3LL);
        QCOMPARE(all.remaining, 0LL);
        QCOMPARE(q.size(TaskSet::Dead), 0LL);
        QTRY_COMPARE(q.counts().dueNow, 4LL);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.requeueAll(0));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.deleteAllDead(1001));
    }

    void deleteAllDead()
    {
        Queue& q = *m_queue;
        const auto ids = makeDead(7);
        q.push(request("p", 60'000, "pend"));
        // maxCalls spreads the work out (the admin app posts one call per step).
        const auto first = q.deleteAllDead(3, 1);
        QCOMPARE(first.done, 3LL);
        QCOMPARE(first.remaining, 4LL);
        QCOMPARE(q.size(TaskSet::Dead), 4LL);
        const auto result = q.deleteAllDead(3);
        QCOMPARE(result.done + first.done, 7LL);
        QCOMPARE(result.remaining, 0LL);
        QCOMPARE(q.size(TaskSet::Dead), 0LL);
        for (const auto& id : ids)
            QVERIFY(!q.find(id));
        QCOMPARE(q.size(TaskSet::Pending), 1LL);
        QCOMPARE(q.deleteAllDead().done, 0LL);
    }

    void purge()
    {
        Queue& q = *m_queue;
        q.setConfig("max_attempts", "1");
        makeDead(2);
        q.pushBatch(std::vector<PushRequest>(4, request("p")));
        q.push(request("later", 60'000));
        QCOMPARE(q.claim(1, 60'000, "w").tasks.size(), size_t(1));
        const auto statsBefore = q.stats();
        QCOMPARE(q.purge(2, 2).done, 4LL);
        const auto part = q.counts();
        QCOMPARE(part.pending + part.active + part.dead, 3LL);
        QCOMPARE(q.purge(2).done, 3LL);
        const auto counts = q.counts();
        QCOMPARE(counts.pending + counts.active + counts.dead, 0LL);
        // No bucket is left, only the record table's state.
        QCOMPARE(m_server.cli({"KEYS", "dq:{orders}:d:*"}).trimmed(), QByteArray("dq:{orders}:d:layout"));
        QCOMPARE(m_server.cli({"EXISTS", "dq:{orders}:run", "dq:{orders}:errors"}).trimmed(),
                 QByteArray("0"));
        QCOMPARE(q.config().maxAttempts, 1);
        QCOMPARE(q.stats(), statsBefore);
        QCOMPARE(q.purge().done, 0LL);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.purge(0));
    }

private:
    // n tasks in the dead set (payload "dead-i"), died in order; returns their ids.
    std::vector<std::string> makeDead(int n)
    {
        std::vector<std::string> ids;
        for (int i = 0; i < n; ++i) {
            PushRequest r = request("dead-" + std::to_string(i));
            r.maxAttempts = 1;
            r.dueAtMs = 1000 + i; // before anything else due
            const auto pushed = m_queue->push(r);
            const auto claim = m_queue->claim(1, 60'000, "w");
            if (claim.tasks.size() != 1 || claim.tasks[0].id != pushed.id)
                throw std::runtime_error("makeDead: claim did not hand out the new task");
            if (!m_queue->nack(pushed.id, claim.tasks[0].token, "died").dead)
                throw std::runtime_error("makeDead: the task did not die");
            ids.push_back(pushed.id);
        }
        return ids;
    }
};

QTEST_GUILESS_MAIN(TestQueueDead)
#include "tst_queuedead.moc"
