#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/script.h>
#include <delayq/shardmover.h>

#include <QTest>

#include <chrono>
#include <stdexcept>
#include <thread>

using namespace delayq;

// Dead tasks bounded and expiry (docs/design/bounds.md, since layout 2.9): the dead set keeps at
// most dead_max tasks and dead_max_bytes bytes, the oldest dropped first, counted and audited;
// a task claimed after its start-by time (its own, or created + the queue's max_age) is never
// handed out: dead with "expired before it started", or dropped.
class TestQueueBounds : public QueueSuite
{
    Q_OBJECT

private slots:
    void deadBoundByCount_data()
    {
        QTest::addColumn<int>("bound");
        QTest::addColumn<int>("deaths");
        QTest::newRow("under the bound") << 5 << 4;
        QTest::newRow("at the bound") << 4 << 4;
        QTest::newRow("two over") << 3 << 5;
        QTest::newRow("bound 1") << 1 << 4;
    }
    void deadBoundByCount()
    {
        QFETCH(int, bound);
        QFETCH(int, deaths);
        Queue& q = *m_queue;
        q.setConfig("dead_max", std::to_string(bound));
        const auto ids = makeDead(deaths);
        const int dropped = std::max(0, deaths - bound);
        // The oldest went: the newest `bound` stay, in their order of death.
        QCOMPARE(qt(idsOf(q.page(TaskSet::Dead, 0, 100))),
                 qt(std::vector<std::string>(ids.begin() + dropped, ids.end())));
        QCOMPARE(q.stats().at("dead_dropped"), static_cast<long long>(dropped));
        QCOMPARE(q.stats().at("died"), static_cast<long long>(deaths));
        // Forgotten fully: no record, run entry or error is left of a dropped task.
        for (int i = 0; i < dropped; ++i) {
            QVERIFY(!q.find(ids[i]));
            QCOMPARE(m_server.record(q.keys(), ids[i]), QByteArray());
            QCOMPARE(hexists(q.keys().run(), ids[i]), 0);
            QCOMPARE(hexists(q.keys().errors(), ids[i]), 0);
        }
        // Audited at most once a minute: the first dropping call's entry; the drops after it
        // wait, counted, for the next entry (dq:{Q}:deadbound's unaudited).
        int entries = 0;
        for (const auto& e : q.audit()) {
            if (e.action != "dead_dropped")
                continue;
            ++entries;
            QCOMPARE(e.count, 1LL);
            QCOMPARE(e.ids, std::vector<std::string>{ids[0]});
            QCOMPARE(e.tool, std::string("dead bound"));
        }
        QCOMPARE(entries, dropped > 0 ? 1 : 0);
        if (dropped > 0)
            QCOMPARE(m_server.cli({"HGET", "dq:{orders}:deadbound", "unaudited"}).trimmed().toInt(),
                     dropped - 1);
        QCOMPARE(deadBytes(), bytesOf(idsOf(q.page(TaskSet::Dead, 0, 100))));
    }

    void deadBoundByBytes()
    {
        Queue& q = *m_queue;
        const auto first = makeDead(1, std::string(1000, 'x'));
        const long long one = deadBytes();
        QVERIFY(one > 1000);
        // Room for three such tasks, not four.
        q.setConfig("dead_max_bytes", std::to_string(3 * one + one / 2));
        const auto more = makeDead(4, std::string(1000, 'x'));
        QCOMPARE(q.size(TaskSet::Dead), 3LL);
        QCOMPARE(q.stats().at("dead_dropped"), 2LL);
        QVERIFY(!q.find(first[0]));
        QVERIFY(!q.find(more[0]));
        QCOMPARE(qt(idsOf(q.page(TaskSet::Dead, 0, 10))),
                 qt(std::vector<std::string>(more.begin() + 1, more.end())));
        QCOMPARE(deadBytes(), 3 * one);
    }

    void loweredBoundDropsAtOnce()
    {
        Queue& q = *m_queue;
        makeDead(6);
        // A lowered bound holds from the config change on, with its own audit entry.
        q.setConfig("dead_max", "2");
        QCOMPARE(q.size(TaskSet::Dead), 2LL);
        QCOMPARE(q.stats().at("dead_dropped"), 4LL);
        const auto audit = q.audit();
        QVERIFY(!audit.empty());
        QCOMPARE(audit[0].action, std::string("dead_dropped"));
        QCOMPARE(audit[0].count, 4LL);
        // off: no bound
        q.setConfig("dead_max", "off");
        makeDead(3);
        QCOMPARE(q.size(TaskSet::Dead), 5LL);
    }

    void deadBytesFollowEveryWayOut()
    {
        Queue& q = *m_queue;
        const auto ids = makeDead(6, "payload");
        QCOMPARE(deadBytes(), bytesOf(ids));
        q.requeue({ids[0]});
        QCOMPARE(deadBytes(), bytesOf({ids.begin() + 1, ids.end()}));
        q.deleteDead({ids[1]});
        QCOMPARE(deadBytes(), bytesOf({ids.begin() + 2, ids.end()}));
        PushRequest replace = request("new", 60'000, ids[2]);
        replace.replace = true;
        QCOMPARE(q.push(replace).status, PushResult::Status::Replaced);
        QCOMPARE(deadBytes(), bytesOf({ids.begin() + 3, ids.end()}));
        q.purge();
        QCOMPARE(q.size(TaskSet::Dead), 0LL);
        QCOMPARE(deadBytes(), 0LL);
    }

    void expiry_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<bool>("drop");
        QTest::newRow("own max age, to dead") << "max_age" << false;
        QTest::newRow("own start-by, to dead") << "expires_at" << false;
        QTest::newRow("queue max_age, to dead") << "queue" << false;
        QTest::newRow("own max age, dropped") << "max_age" << true;
        QTest::newRow("queue max_age, dropped") << "queue" << true;
    }
    void expiry()
    {
        QFETCH(QString, how);
        QFETCH(bool, drop);
        Queue& q = *m_queue;
        if (drop)
            q.setConfig("expired_to", "drop");
        PushRequest late = request("stale", 0, "stale");
        const long long now = m_conn->serverNowMs();
        if (how == "max_age")
            late.maxAgeMs = 50;
        else if (how == "expires_at")
            late.expiresAtMs = now + 50;
        else
            q.setConfig("max_age", "1s");
        QCOMPARE(q.push(late).status, PushResult::Status::Created);
        const auto shown = q.find("stale");
        QVERIFY(shown && shown->second.expiresAt);
        QVERIFY(*shown->second.expiresAt >= now + 50);
        // A task pushed with a long max age is handed out as ever.
        PushRequest fresh = request("fresh", 0, "fresh");
        fresh.maxAgeMs = 3'600'000;
        q.push(fresh);
        // Waiting longer than needed only makes it later: safe on a busy machine.
        std::this_thread::sleep_for(std::chrono::milliseconds(how == "queue" ? 1100 : 100));
        const ClaimResult claim = q.claim(10, 60'000, "w");
        std::vector<std::string> handed;
        for (const auto& t : claim.tasks)
            handed.push_back(t.id);
        QVERIFY(std::find(handed.begin(), handed.end(), "stale") == handed.end());
        // Its own expiry wins over the queue's max_age.
        QVERIFY(std::find(handed.begin(), handed.end(), "fresh") != handed.end());
        QCOMPARE(q.stats().at("expired_unstarted"), 1LL);
        const auto found = q.find("stale");
        if (drop) {
            QVERIFY(!found);
            QCOMPARE(q.size(TaskSet::Dead), 0LL);
            QCOMPARE(hexists(q.keys().expires(), "stale"), 0);
        } else {
            QVERIFY(found);
            QCOMPARE(found->first, TaskSet::Dead);
            QCOMPARE(found->second.lastError, std::string("expired before it started"));
            QCOMPARE(found->second.attempts, 0); // never started
            QCOMPARE(q.stats().at("died"), 1LL);
            // A requeue means "run it": the task never expires again (long past its expiry).
            q.requeue({"stale"});
            const ClaimResult again = q.claim(10, 60'000, "w");
            bool gotIt = false;
            for (const auto& t : again.tasks)
                gotIt = gotIt || t.id == "stale";
            QVERIFY(gotIt);
        }
    }

    void noExpiryReadWithoutIt()
    {
        // No task with its own expiry and no max_age: the claim does not look (no flag, no
        // hash).
        Queue& q = *m_queue;
        q.push(request("a", 0, "a"));
        QCOMPARE(q.claim(1, 60'000, "w").tasks.size(), size_t(1));
        QCOMPARE(m_server.cli({"EXISTS", QString::fromStdString(q.keys().expires())}).trimmed(),
                 QByteArray("0"));
        QCOMPARE(
            m_server.cli({"HGET", QString::fromStdString(q.keys().config()), "expiry"}).trimmed(),
            QByteArray(""));
    }

    void refusals()
    {
        Queue& q = *m_queue;
        q.push(request("keep", 60'000, "keep"));
        const QByteArray before = snapshot(m_server);
        const long long now = m_conn->serverNowMs();
        PushRequest both = request("x");
        both.expiresAtMs = now + 60'000;
        both.maxAgeMs = 60'000;
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.push(both));
        QVERIFY2(m_message.find("not both") != std::string::npos, m_message.c_str());
        PushRequest past = request("x");
        past.expiresAtMs = now - 1000;
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.push(past));
        QVERIFY2(m_message.find("has passed") != std::string::npos, m_message.c_str());
        PushRequest beforeDue = request("x", 120'000);
        beforeDue.maxAgeMs = 60'000;
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.push(beforeDue));
        QVERIFY2(m_message.find("before it is due") != std::string::npos, m_message.c_str());
        PushRequest atBeforeDue = request("x", 120'000);
        atBeforeDue.expiresAtMs = now + 60'000;
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.push(atBeforeDue));
        QVERIFY2(m_message.find("before it is due") != std::string::npos, m_message.c_str());
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.setConfig("dead_max", "-1"));
        QVERIFY2(m_message.find("dead_max") != std::string::npos, m_message.c_str());
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.setConfig("dead_max_bytes", "12x"));
        QVERIFY2(m_message.find("dead_max_bytes") != std::string::npos, m_message.c_str());
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.setConfig("expired_to", "maybe"));
        QVERIFY2(m_message.find("expired_to") != std::string::npos, m_message.c_str());
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.setConfig("max_age", "500ms"));
        QVERIFY2(m_message.find("max_age") != std::string::npos, m_message.c_str());
        // A foreign client's push straight to the script: refused by the script too.
        EXPECT_ERROR(
            ErrorCode::InvalidArgument, "",
            m_conn->evalScript(scripts::push, q.scriptKeys(),
                               {"nx", "", "in", "0||0||0|+1000", "1", "y", "p", "60000", ""}));
        QVERIFY2(m_message.find("before it is due") != std::string::npos, m_message.c_str());
        QCOMPARE(snapshot(m_server), before);
        // Sizes read as Redis's maxmemory reads them.
        QCOMPARE(Queue::normalizeConfig("dead_max_bytes", "64MB"), std::string("67108864"));
        QCOMPARE(Queue::normalizeConfig("dead_max_bytes", "off"), std::string("0"));
        QCOMPARE(Queue::normalizeConfig("max_age", "2h"), std::string("7200000"));
    }

    void shardedKeepsItsShare()
    {
        // Each shard keeps dead_max / shards: a bound of 4 over 2 shards keeps 2 a shard.
        Queue& q = *m_queue;
        ShardMover mover(q);
        MoveProgress p = mover.start(2);
        while (!p.finished)
            p = mover.step(50);
        q.reloadLayout();
        q.setConfig("dead_max", "4");
        std::vector<std::string> ids;
        for (int i = 0; i < 12; ++i) {
            PushRequest r = request("s", 0, "s" + std::to_string(i));
            r.maxAttempts = 1;
            q.push(r);
        }
        QVERIFY(eventually([&] {
            for (const auto& t : q.claim(20, 60'000, "w").tasks)
                q.nack(t.id, t.token, "boom");
            return q.size(TaskSet::Pending) == 0 && q.size(TaskSet::Active) == 0;
        }));
        QCOMPARE(q.size(TaskSet::Dead), 4LL);
        QCOMPARE(q.stats().at("dead_dropped"), 8LL);
        for (size_t s = 0; s < 2; ++s)
            QCOMPARE(q.shardQueue(s).size(TaskSet::Dead), 2LL);
    }

private:
    int hexists(const std::string& key, const std::string& field)
    {
        return m_server.cli({"HEXISTS", QString::fromStdString(key), QString::fromStdString(field)})
            .trimmed()
            .toInt();
    }

    long long deadBytes() { return m_queue->deadBytes(); }

    // What the bound counts for these dead tasks: id + record + last error, read from Redis.
    long long bytesOf(const std::vector<std::string>& ids)
    {
        long long n = 0;
        for (const auto& id : ids) {
            const auto k = QString::fromStdString(id);
            n += static_cast<long long>(id.size()) +
                 m_server.record(m_queue->keys(), id).size() +
                 m_server.cli({"HSTRLEN", QString::fromStdString(m_queue->keys().errors()), k})
                     .trimmed()
                     .toLongLong();
        }
        return n;
    }

    // n tasks pushed, claimed and failed for good, oldest death first.
    std::vector<std::string> makeDead(int n, const std::string& payload = "dead")
    {
        std::vector<std::string> ids;
        for (int i = 0; i < n; ++i) {
            PushRequest r = request(payload);
            r.maxAttempts = 1;
            r.dueAtMs = 1000 + i;
            const auto pushed = m_queue->push(r);
            const auto claim = m_queue->claim(1, 60'000, "w");
            if (claim.tasks.size() != 1 || claim.tasks[0].id != pushed.id)
                throw std::runtime_error("makeDead: claim did not hand out the new task");
            if (!m_queue->nack(pushed.id, claim.tasks[0].token, "died").dead)
                throw std::runtime_error("makeDead: the task did not die");
            ids.push_back(pushed.id);
            // Deaths a ms apart at least, so "oldest" is their order.
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        return ids;
    }
};

QTEST_GUILESS_MAIN(TestQueueBounds)
#include "tst_queuebounds.moc"
