#include "connection.h"
#include "error.h"
#include "expecterror.h"
#include "queue.h"
#include "redisserver.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QTest>

#include <algorithm>
#include <climits>
#include <memory>
#include <random>
#include <set>

using namespace delayq;

namespace {

PushRequest request(const std::string& payload, long long delayMs = 0, const std::string& id = {})
{
    PushRequest r;
    r.payload = payload;
    r.delayMs = delayMs;
    r.id = id;
    return r;
}

std::vector<std::string> idsOf(const std::vector<Task>& tasks)
{
    std::vector<std::string> ids;
    for (const auto& t : tasks)
        ids.push_back(t.id);
    return ids;
}

std::vector<IdResult::Status> statusesOf(const std::vector<IdResult>& results)
{
    std::vector<IdResult::Status> out;
    for (const auto& r : results)
        out.push_back(r.status);
    return out;
}

// Every key of the database with its type and value, for "nothing changed" checks that do not
// go through the code under test.
QByteArray snapshot(const RedisServer& server)
{
    return server.cli({"DEBUG", "DIGEST"});
}

// Polls f until it holds. Unlike QTRY_VERIFY it runs f exactly once per try, so f may have
// side effects (a claim, a reap).
bool eventually(const std::function<bool()>& f, int timeoutMs = 5000)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!f()) {
        if (deadline.hasExpired())
            return false;
        QTest::qWait(2);
    }
    return true;
}

} // namespace

// Every operation of a native queue (core/queue.h) against a private redis-server.
class TestQueue : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start({"--enable-debug-command", "local"}),
                 qPrintable(m_server.errorString()));
    }
    void init()
    {
        m_server.cli({"FLUSHALL"});
        m_conn = std::make_unique<Connection>(ConnectionOptions::fromUrl(m_server.unixUrl()));
        m_queue = std::make_unique<Queue>(*m_conn, "orders");
    }
    void cleanup()
    {
        m_queue.reset();
        m_conn.reset();
    }

    // --- producing

    void pushClaimAck()
    {
        Queue& q = *m_queue;
        auto pushed = q.push(request(std::string("a\0b", 3)));
        QCOMPARE(pushed.status, PushResult::Status::Created);
        auto claim = q.claim(10, 1000, "w1");
        QCOMPARE(claim.tasks.size(), size_t(1));
        QCOMPARE(claim.tasks[0].id, pushed.id);
        QCOMPARE(claim.tasks[0].payload, std::string("a\0b", 3));
        QCOMPARE(claim.tasks[0].attempts, 1);
        q.ack(claim.tasks[0].id, claim.tasks[0].token);
        QCOMPARE(q.counts().active, 0LL);
        QCOMPARE(q.stats()["acked"], 1LL);
        QCOMPARE(q.stats()["claimed"], 1LL);
        // Acked tasks leave nothing behind.
        QCOMPARE(m_server.cli({"EXISTS", "dq:{orders}:t:" + QString::fromStdString(pushed.id)})
                     .trimmed(),
                 QByteArray("0"));
        QVERIFY(!q.find(pushed.id));
    }

    void pushBatchAcrossChunks()
    {
        Queue& q = *m_queue;
        std::vector<PushRequest> requests;
        for (int i = 0; i < 2500; ++i)
            requests.push_back(request("p" + std::to_string(i), 60'000));
        const auto results = q.pushBatch(requests);
        QCOMPARE(results.size(), size_t(2500));
        std::set<std::string> ids;
        for (const auto& r : results) {
            QCOMPARE(r.status, PushResult::Status::Created);
            ids.insert(r.id);
        }
        QCOMPARE(ids.size(), size_t(2500));
        QCOMPARE(q.size(TaskSet::Pending), 2500LL);
        QCOMPARE(q.stats()["pushed"], 2500LL);
        // Each result belongs to its request.
        auto found = q.find(results[1234].id);
        QVERIFY(found);
        QCOMPARE(found->second.payload, std::string("p1234"));
        QVERIFY(q.pushBatch({}).empty());
    }

    void pushSetsFields()
    {
        Queue& q = *m_queue;
        const long long before = m_conn->serverTimeMs();
        PushRequest r = request("x", 5000);
        r.maxAttempts = 7;
        r.backoff = "1s,2m";
        const auto pushed = q.push(r);
        const long long after = m_conn->serverTimeMs();
        QVERIFY(pushed.due >= before + 5000 && pushed.due <= after + 5000);
        const auto found = q.find(pushed.id);
        QVERIFY(found);
        QCOMPARE(found->first, TaskSet::Pending);
        const Task& t = found->second;
        QCOMPARE(t.due, pushed.due);
        QCOMPARE(t.score, pushed.due);
        QVERIFY(t.created >= before && t.created <= after);
        QCOMPARE(t.attempts, 0);
        QCOMPARE(t.maxAttempts, 7);
        QCOMPARE(t.backoff, std::string("1000,120000"));
        QCOMPARE(t.state, std::string("pending"));
        QVERIFY(!t.broken);

        PushRequest at = request("y");
        at.dueAtMs = 4'102'444'800'000LL; // 2100-01-01
        QCOMPARE(q.push(at).due, 4'102'444'800'000LL);
        // The queue's default attempts are written into the task.
        q.setConfig("max_attempts", "3");
        QCOMPARE(q.find(q.push(request("z")).id)->second.maxAttempts, 3);
    }

    void binaryPayloadsRoundTrip_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::newRow("NUL bytes") << QByteArray("\0a\0\0b\0", 6);
        QTest::newRow("invalid UTF-8") << QByteArray("\xff\xfe\xc3\x28\xa0\xa1\xe2\x28\xa1", 9);
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("RESP lookalike") << QByteArray("*1\r\n$3\r\nfoo\r\n-ERR x\r\n");
        QByteArray all;
        for (int i = 0; i < 256; ++i)
            all.append(static_cast<char>(i));
        QTest::newRow("every byte") << all;
        QByteArray big(200'000, '\0');
        std::mt19937 gen(7);
        for (auto& c : big)
            c = static_cast<char>(gen());
        QTest::newRow("200 kB random") << big;
    }
    void binaryPayloadsRoundTrip()
    {
        QFETCH(QByteArray, payload);
        const std::string bytes = payload.toStdString();
        QCOMPARE(bytes.size(), size_t(payload.size()));
        Queue& q = *m_queue;
        const auto pushed = q.push(request(bytes));
        QCOMPARE(q.find(pushed.id)->second.payload, bytes);
        QCOMPARE(q.page(TaskSet::Pending, 0, 10).at(0).payload, bytes);
        const auto claim = q.claim(1, 10'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        QCOMPARE(claim.tasks[0].payload, bytes);
        // And through a retry and the dead set.
        q.nack(claim.tasks[0].id, claim.tasks[0].token, std::string("bad\0error", 9), 0);
        QCOMPARE(q.find(pushed.id)->second.payload, bytes);
        QCOMPARE(q.find(pushed.id)->second.lastError, std::string("bad\0error", 9));
    }

    void generatedIdsAreFifo()
    {
        Queue& q = *m_queue;
        const long long due = m_conn->serverTimeMs() - 1000;
        std::vector<std::string> pushed;
        for (int i = 0; i < 100; ++i) {
            PushRequest r = request("n" + std::to_string(i));
            r.dueAtMs = due;
            const auto result = q.push(r);
            QCOMPARE(result.id.size(), size_t(26));
            QVERIFY2(result.id.find_first_not_of("0123456789ABCDEFGHJKMNPQRSTVWXYZ") ==
                         std::string::npos,
                     result.id.c_str());
            pushed.push_back(result.id);
        }
        // A batch with the same due time keeps its order too.
        std::vector<PushRequest> batch;
        for (int i = 0; i < 100; ++i) {
            batch.push_back(request("b" + std::to_string(i)));
            batch.back().dueAtMs = due;
        }
        for (const auto& r : q.pushBatch(batch))
            pushed.push_back(r.id);
        QCOMPARE(std::set<std::string>(pushed.begin(), pushed.end()).size(), size_t(200));

        std::vector<std::string> claimed;
        for (int round = 0; round < 40 && claimed.size() < 200; ++round)
            for (const auto& t : q.claim(7, 60'000, "w").tasks)
                claimed.push_back(t.id);
        QCOMPARE(claimed, pushed);
    }

    void explicitIdExistsOrReplaces()
    {
        Queue& q = *m_queue;
        auto first = q.push(request("one", 60'000, "job-1"));
        QCOMPARE(first.status, PushResult::Status::Created);
        QCOMPARE(first.id, std::string("job-1"));
        const auto digest = snapshot(m_server);
        QCOMPARE(q.push(request("two", 1000, "job-1")).status, PushResult::Status::Exists);
        QCOMPARE(snapshot(m_server), digest);
        QCOMPARE(q.find("job-1")->second.payload, std::string("one"));

        PushRequest replace = request("three", 0, "job-1");
        replace.replace = true;
        const auto replaced = q.push(replace);
        QCOMPARE(replaced.status, PushResult::Status::Replaced);
        QCOMPARE(q.find("job-1")->second.payload, std::string("three"));
        QCOMPARE(q.find("job-1")->second.due, replaced.due);
        QCOMPARE(q.size(TaskSet::Pending), 1LL);

        // A worker holds it: replace is refused and changes nothing.
        const auto claim = q.claim(1, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        const auto held = snapshot(m_server);
        QCOMPARE(q.push(replace).status, PushResult::Status::Active);
        QCOMPARE(snapshot(m_server), held);

        // A dead copy is replaced and leaves the dead set.
        q.nack("job-1", claim.tasks[0].token, "boom", -1);
        q.setConfig("max_attempts", "1");
        PushRequest other = request("dying", 0, "job-2");
        q.push(other);
        const auto c2 = q.claim(1, 60'000, "w");
        QCOMPARE(c2.tasks.size(), size_t(1));
        QCOMPARE(c2.tasks[0].id, std::string("job-2"));
        QVERIFY(q.nack("job-2", c2.tasks[0].token, "boom").dead);
        PushRequest revive = request("again", 60'000, "job-2");
        revive.replace = true;
        QCOMPARE(q.push(revive).status, PushResult::Status::Replaced);
        QCOMPARE(q.size(TaskSet::Dead), 0LL);
        QCOMPARE(q.find("job-2")->first, TaskSet::Pending);
        QCOMPARE(q.find("job-2")->second.attempts, 0);
    }

    void batchKeepsEachRequestsReplaceFlag()
    {
        Queue& q = *m_queue;
        q.push(request("old-a", 60'000, "a"));
        q.push(request("old-b", 60'000, "b"));
        PushRequest a = request("new-a", 60'000, "a");
        a.replace = true;
        PushRequest b = request("new-b", 60'000, "b"); // not replace: must stay "old-b"
        const auto results = q.pushBatch({a, b, request("c", 0, "c")});
        QCOMPARE(results.size(), size_t(3));
        QCOMPARE(results[0].id, std::string("a"));
        QCOMPARE(results[0].status, PushResult::Status::Replaced);
        QCOMPARE(results[1].id, std::string("b"));
        QCOMPARE(results[1].status, PushResult::Status::Exists);
        QCOMPARE(results[2].status, PushResult::Status::Created);
        QCOMPARE(q.find("a")->second.payload, std::string("new-a"));
        QCOMPARE(q.find("b")->second.payload, std::string("old-b"));
    }

    void tooLargeAgainstConfig()
    {
        Queue& q = *m_queue;
        q.setConfig("max_payload", "10");
        const auto digest = snapshot(m_server);
        const auto big = q.push(request(std::string(11, 'x')));
        QCOMPARE(big.status, PushResult::Status::TooLarge);
        QCOMPARE(snapshot(m_server), digest);
        QCOMPARE(q.push(request(std::string(10, 'x'))).status, PushResult::Status::Created);
        const auto mixed =
            q.pushBatch({request("small"), request(std::string(100, 'y')), request("tiny")});
        QCOMPARE(mixed[0].status, PushResult::Status::Created);
        QCOMPARE(mixed[1].status, PushResult::Status::TooLarge);
        QCOMPARE(mixed[2].status, PushResult::Status::Created);
        QCOMPARE(q.size(TaskSet::Pending), 3LL);
        QVERIFY(!q.find(mixed[1].id));
        QCOMPARE(q.stats()["pushed"], 3LL);
    }

    void defaultMaxPayloadIsOneMiB()
    {
        Queue& q = *m_queue;
        QCOMPARE(q.config().maxPayload, 1024LL * 1024);
        QCOMPARE(q.push(request(std::string(1024 * 1024, 'a'))).status,
                 PushResult::Status::Created);
        QCOMPARE(q.push(request(std::string(1024 * 1024 + 1, 'a'))).status,
                 PushResult::Status::TooLarge);
    }

    void queueIsRegistered()
    {
        QCOMPARE(Queue::listQueues(*m_conn), std::vector<std::string>{});
        m_queue->push(request("x"));
        Queue other(*m_conn, "mail.out");
        other.setConfig("paused", "1");
        QCOMPARE(m_server.cli({"SISMEMBER", "dq:queues", "orders"}).trimmed(), QByteArray("1"));
        QCOMPARE(Queue::listQueues(*m_conn), (std::vector<std::string>{"mail.out", "orders"}));
        QCOMPARE(Queue::listQueues(*m_conn, "dq", 1).size(), size_t(1));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", Queue::listQueues(*m_conn, "bad prefix"));
        // Another prefix is another namespace.
        Queue elsewhere(*m_conn, "orders", "stage");
        elsewhere.push(request("y"));
        QCOMPARE(Queue::listQueues(*m_conn, "stage"), std::vector<std::string>{"orders"});
        // A garbage name written by hand is skipped by summaries, not a crash.
        m_server.cli({"SADD", "dq:queues", "bad name{"});
        const auto summaries = Queue::summaries(*m_conn, Queue::listQueues(*m_conn));
        QCOMPARE(summaries.size(), size_t(2));
        QCOMPARE(summaries[1].name, std::string("orders"));
        QCOMPARE(summaries[1].counts.pending, 1LL);
        QCOMPARE(summaries[1].counts.dueNow, 1LL);
    }

    void wakePublishedWhenEarliest()
    {
        QProcess sub;
        sub.start("redis-cli", {"-s", m_server.socketPath(), "SUBSCRIBE", "dq:{orders}:wake"});
        QVERIFY(sub.waitForStarted());
        QByteArray seen;
        auto waitFor = [&](const QByteArray& text) {
            for (int i = 0; i < 100 && !seen.contains(text); ++i) {
                sub.waitForReadyRead(100);
                seen += sub.readAllStandardOutput();
            }
            return seen.contains(text);
        };
        QVERIFY(waitFor("subscribe\ndq:{orders}:wake\n1\n"));
        seen.clear();

        Queue& q = *m_queue;
        const long long base = m_conn->serverTimeMs() + 3'600'000;
        auto pushAt = [&](long long due, const std::string& id) {
            PushRequest r = request("w", 0, id);
            r.dueAtMs = due;
            q.push(r);
        };
        pushAt(base, "first");                   // earliest: wakes
        pushAt(base + 60'000, "later");          // not earliest: silent
        pushAt(base - 60'000, "earlier");        // earliest again: wakes
        q.reschedule({"later"}, base - 120'000); // rescheduled to be earliest: wakes
        q.reschedule({"first"}, base + 5);       // not earliest: silent
        const long long dueNow = q.push(request("now", 0, "now")).due; // earliest: wakes
        const auto claim = q.claim(1, 60'000, "w");
        QCOMPARE(claim.tasks.at(0).id, std::string("now"));
        const long long retry = q.nack("now", claim.tasks[0].token, "again", 0).when; // wakes
        const auto again = q.claim(1, 60'000, "w");
        QCOMPARE(again.tasks.at(0).id, std::string("now"));
        q.nack("now", again.tasks[0].token, "later", 7'200'000); // after "later": silent
        auto message = [](long long due) {
            return "message\ndq:{orders}:wake\n" + QByteArray::number(due) + "\n";
        };
        // A last waking push: its message proves the silent steps before it stayed silent.
        pushAt(base - 200'000, "final");
        QVERIFY2(waitFor(message(base - 200'000)), seen.constData());
        QCOMPARE(seen, message(base) + message(base - 60'000) + message(base - 120'000) +
                           message(dueNow) + message(retry) + message(base - 200'000));
        sub.kill();
        sub.waitForFinished();
    }

    // --- pending tasks

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
        QCOMPARE(m_server.cli({"EXISTS", "dq:{orders}:t:pending"}).trimmed(), QByteArray("0"));

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

    // --- consuming

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
        QVERIFY(claim.tasks[0].token != claim.tasks[1].token);
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
        QCOMPARE(claim.nextDue, std::optional<long long>(pushed.due));
        QVERIFY(claim.serverNow > 0);
        QCOMPARE(snapshot(m_server), digest);
        q.setConfig("paused", "no");
        QCOMPARE(q.claim(10, 1000, "w").tasks.size(), size_t(1));
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

    // --- dead letters

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
        QCOMPARE(
            m_server.cli({"EXISTS", "dq:{orders}:t:" + QString::fromStdString(ids[1])}).trimmed(),
            QByteArray("0"));

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
        QCOMPARE(m_server.cli({"KEYS", "dq:{orders}:t:*"}).trimmed(), QByteArray());
        QCOMPARE(q.config().maxAttempts, 1);
        QCOMPARE(q.stats(), statsBefore);
        QCOMPARE(q.purge().done, 0LL);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.purge(0));
    }

    // --- config

    void config_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("stored"); // "" = refused
        QTest::newRow("max_attempts") << "max_attempts"
                                      << "3"
                                      << "3";
        QTest::newRow("max_attempts 0") << "max_attempts"
                                        << "0"
                                        << "";
        QTest::newRow("max_attempts text") << "max_attempts"
                                           << "three"
                                           << "";
        QTest::newRow("max_attempts negative") << "max_attempts"
                                               << "-2"
                                               << "";
        QTest::newRow("backoff list") << "backoff"
                                      << "5s,1m"
                                      << "5000,60000";
        QTest::newRow("backoff exp") << "backoff"
                                     << "exp:1s:1m"
                                     << "exp:1000:60000";
        QTest::newRow("backoff empty") << "backoff"
                                       << ""
                                       << "";
        QTest::newRow("backoff no unit") << "backoff"
                                         << "5,20"
                                         << "";
        QTest::newRow("backoff exp inverted") << "backoff"
                                              << "exp:1m:1s"
                                              << "";
        QTest::newRow("backoff exp zero") << "backoff"
                                          << "exp:0s:1s"
                                          << "";
        QTest::newRow("backoff empty step") << "backoff"
                                            << "5s,,6s"
                                            << "";
        QTest::newRow("lease_ms duration") << "lease_ms"
                                           << "30s"
                                           << "30000";
        QTest::newRow("lease_ms number") << "lease_ms"
                                         << "100"
                                         << "100";
        QTest::newRow("lease_ms too short") << "lease_ms"
                                            << "50"
                                            << "";
        QTest::newRow("lease_ms too long") << "lease_ms"
                                           << "8d"
                                           << "";
        QTest::newRow("max_payload") << "max_payload"
                                     << "2048"
                                     << "2048";
        QTest::newRow("max_payload 0") << "max_payload"
                                       << "0"
                                       << "";
        QTest::newRow("paused true") << "paused"
                                     << "true"
                                     << "1";
        QTest::newRow("paused 0") << "paused"
                                  << "0"
                                  << "0";
        QTest::newRow("paused maybe") << "paused"
                                      << "maybe"
                                      << "";
        QTest::newRow("unknown key") << "color"
                                     << "red"
                                     << "";
    }
    void config()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, stored);
        Queue& q = *m_queue;
        const auto digest = snapshot(m_server);
        if (stored.isEmpty()) {
            EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                         q.setConfig(key.toStdString(), value.toStdString()));
            QVERIFY(m_message.find(key.toStdString()) != std::string::npos ||
                    m_message.find("backoff") != std::string::npos);
            QCOMPARE(snapshot(m_server), digest);
            return;
        }
        q.setConfig(key.toStdString(), value.toStdString());
        QCOMPARE(m_server.cli({"HGET", "dq:{orders}:config", key}).trimmed(), stored.toUtf8());
        const QueueConfig c = q.config();
        if (key == "max_attempts")
            QCOMPARE(QString::number(c.maxAttempts), stored);
        else if (key == "backoff")
            QCOMPARE(QString::fromStdString(c.backoff), stored);
        else if (key == "lease_ms")
            QCOMPARE(QString::number(c.leaseMs), stored);
        else if (key == "max_payload")
            QCOMPARE(QString::number(c.maxPayload), stored);
        else if (key == "paused")
            QCOMPARE(c.paused, stored == "1");
    }

    void configDefaultsAndGarbage()
    {
        Queue& q = *m_queue;
        QueueConfig c = q.config();
        QCOMPARE(c.maxAttempts, 5);
        QCOMPARE(c.backoff, std::string("5000,20000,30000"));
        QCOMPARE(c.leaseMs, 30000LL);
        QVERIFY(!c.paused);
        // Garbage written by hand is read as the default, like the scripts do.
        m_server.cli({"HSET", "dq:{orders}:config", "max_attempts", "lots", "lease_ms", "-4"});
        c = q.config();
        QCOMPARE(c.maxAttempts, 5);
        QCOMPARE(c.leaseMs, 30000LL);
        q.push(request("a"));
        const auto claim = q.claim(1, 0, "w");
        QCOMPARE(claim.tasks.at(0).leaseDeadline, claim.serverNow + 30'000);
        QCOMPARE(claim.tasks.at(0).maxAttempts, 5);
    }

    // --- reads

    void countsStatsHistory()
    {
        Queue& q = *m_queue;
        const long long start = m_conn->serverTimeMs();
        q.pushBatch({request("a"), request("b"), request("c"), request("d", 600'000),
                     request("e", 600'000)});
        const auto claim = q.claim(1, 60'000, "w");
        // "Due now" is counted by the clock estimated at connect: allow it to catch up.
        QTRY_COMPARE(q.counts().dueNow, 2LL);
        QueueCounts c = q.counts();
        QCOMPARE(c.pending, 4LL);
        QCOMPARE(c.dueNow, 2LL);
        QCOMPARE(c.active, 1LL);
        QCOMPARE(c.dead, 0LL);
        q.ack(claim.tasks[0].id, claim.tasks[0].token);
        q.cancel({q.page(TaskSet::Pending, 0, 1)[0].id});
        const Counters s = q.stats();
        QCOMPARE(s.at("pushed"), 5LL);
        QCOMPARE(s.at("claimed"), 1LL);
        QCOMPARE(s.at("acked"), 1LL);
        QCOMPARE(s.at("cancelled"), 1LL);
        QCOMPARE(s.at("retried"), 0LL);
        QCOMPARE(s.at("died"), 0LL);
        QCOMPARE(s.at("expired"), 0LL);

        const long long end = m_conn->serverTimeMs();
        const auto history = q.history(start / 60000 - 2, end / 60000);
        QCOMPARE(history.size(), size_t(end / 60000 - start / 60000 + 3));
        QCOMPARE(history.front().minute, start / 60000 - 2);
        QVERIFY(history.front().counters.empty());
        Counters sum;
        for (const auto& m : history)
            for (const auto& [k, v] : m.counters)
                sum[k] += v;
        QCOMPARE(sum["pushed"], 5LL);
        QCOMPARE(sum["claimed"], 1LL);
        QCOMPARE(sum["acked"], 1LL);
        QCOMPARE(sum["cancelled"], 1LL);
        // Minute keys expire by themselves (48 h).
        const QByteArray ttl =
            m_server.cli({"TTL", "dq:{orders}:m:" + QString::number(start / 60000)}).trimmed();
        QVERIFY2(ttl.toLongLong() > 170'000 && ttl.toLongLong() <= 172'800, ttl.constData());
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.history(10, 9));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.history(0, 48 * 60 + 1));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.history(LLONG_MIN, 10));
    }

    void histogram()
    {
        Queue& q = *m_queue;
        const long long from = 4'000'000'000'000LL;
        std::vector<PushRequest> requests;
        std::mt19937 gen(3);
        std::vector<long long> dues;
        for (int i = 0; i < 300; ++i) {
            // Spread over a range a little wider than the histogram's, with exact boundaries.
            long long due = from - 500 + static_cast<long long>(gen() % 11'000);
            if (i < 7)
                due = from + i * 1000; // on bucket edges (width 1000 below)
            dues.push_back(due);
            PushRequest r = request("h");
            r.dueAtMs = due;
            requests.push_back(r);
        }
        q.pushBatch(requests);
        const long long to = from + 10'000;
        const auto buckets = q.histogram(from, to, 10);
        QCOMPARE(buckets.size(), size_t(10));
        long long total = 0;
        for (int b = 0; b < 10; ++b) {
            const long long expected = std::count_if(dues.begin(), dues.end(), [&](long long d) {
                return d >= from + b * 1000 && d < from + (b + 1) * 1000;
            });
            QCOMPARE(buckets[static_cast<size_t>(b)], expected);
            total += buckets[static_cast<size_t>(b)];
        }
        const QByteArray inRange = m_server
                                       .cli({"ZCOUNT", "dq:{orders}:pending", QString::number(from),
                                             "(" + QString::number(to)})
                                       .trimmed();
        QCOMPARE(QByteArray::number(total), inRange);

        // Uneven widths still cover the range exactly once.
        const auto odd = q.histogram(from, to, 7);
        long long oddTotal = 0;
        for (long long n : odd)
            oddTotal += n;
        QCOMPARE(oddTotal, total);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.histogram(from, from, 5));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.histogram(from, to, 0));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.histogram(from, to, 10'001));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.histogram(LLONG_MIN, LLONG_MAX, 10));
        // A chart may start before 1970: nothing is due there, and that is no error.
        QCOMPARE(q.histogram(-60'000, 0, 3), (std::vector<long long>{0, 0, 0}));
    }

    void pagesRanksAndFind()
    {
        Queue& q = *m_queue;
        q.setConfig("max_attempts", "1");
        const long long base = 4'000'000'000'000LL;
        std::vector<PushRequest> requests;
        for (int i = 0; i < 10; ++i) {
            PushRequest r = request("payload-" + std::to_string(i), 0, "id" + std::to_string(i));
            r.dueAtMs = base + i * 1000;
            requests.push_back(r);
        }
        q.pushBatch(requests);
        const auto page = q.page(TaskSet::Pending, 3, 4);
        QCOMPARE(idsOf(page), (std::vector<std::string>{"id3", "id4", "id5", "id6"}));
        QCOMPARE(page[0].payload, std::string("payload-3"));
        QCOMPARE(page[0].score, base + 3000);
        QCOMPARE(page[0].due, base + 3000);
        QVERIFY(!page[0].broken);
        QVERIFY(q.page(TaskSet::Pending, 10, 5).empty());
        QCOMPARE(q.page(TaskSet::Pending, 8, 100).size(), size_t(2));

        QCOMPARE(idsOf(q.pageFromScore(TaskSet::Pending, base + 5000, 3)),
                 (std::vector<std::string>{"id5", "id6", "id7"}));
        QCOMPARE(idsOf(q.pageFromScore(TaskSet::Pending, base + 5001, 2)),
                 (std::vector<std::string>{"id6", "id7"}));
        QCOMPARE(q.rankOfScore(TaskSet::Pending, base + 5000), 5LL);
        QCOMPARE(q.rankOfScore(TaskSet::Pending, base + 5500), 6LL);
        QCOMPARE(q.rankOfScore(TaskSet::Pending, 0), 0LL);
        QCOMPARE(q.rankOfScore(TaskSet::Pending, base + 99'000), 10LL);
        QCOMPARE(q.size(TaskSet::Pending), 10LL);
        QCOMPARE(q.earliest(TaskSet::Pending), std::optional<long long>(base));
        QCOMPARE(q.earliest(TaskSet::Dead), std::nullopt);

        const auto found = q.find("id7");
        QVERIFY(found);
        QCOMPARE(found->first, TaskSet::Pending);
        QCOMPARE(found->second.id, std::string("id7"));
        QCOMPARE(found->second.payload, std::string("payload-7"));
        QCOMPARE(found->second.score, base + 7000);
        QVERIFY(!q.find("id99"));

        // Active and dead pages.
        q.reschedule({"id0", "id1"}, std::nullopt, 0);
        const auto claim = q.claim(2, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(2));
        q.nack(claim.tasks[1].id, claim.tasks[1].token, "broke");
        const auto active = q.page(TaskSet::Active, 0, 10);
        QCOMPARE(active.size(), size_t(1));
        QCOMPARE(active[0].score, claim.tasks[0].leaseDeadline);
        QCOMPARE(active[0].worker, std::string("w"));
        const auto dead = q.page(TaskSet::Dead, 0, 10);
        QCOMPARE(dead.size(), size_t(1));
        QCOMPARE(dead[0].lastError, std::string("broke"));
        QCOMPARE(q.find(claim.tasks[0].id)->first, TaskSet::Active);
        QCOMPARE(q.find(claim.tasks[1].id)->first, TaskSet::Dead);
        QCOMPARE(q.pageFromScore(TaskSet::Dead, 0, 10).size(), size_t(1));

        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.page(TaskSet::Pending, -1, 10));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.page(TaskSet::Pending, 0, 0));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.page(TaskSet::Pending, LLONG_MAX, 10));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.pageFromScore(TaskSet::Pending, 0, 10'001));
    }

    // --- refusals and damage

    void readOnlySessionRefusesWrites()
    {
        Queue& q = *m_queue;
        q.push(request("a", 0, "a"));
        q.push(request("b", 60'000, "b"));
        const auto claim = q.claim(1, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));

        auto options = ConnectionOptions::fromUrl(m_server.unixUrl());
        options.readOnly = true;
        Connection conn(options);
        Queue ro(conn, "orders");
        Queue fresh(conn, "newqueue");
        const auto digest = snapshot(m_server);
        const std::string token = claim.tasks[0].token;
        const auto refused = [&](const std::function<void()>& f) {
            const auto e = errorOf(f);
            return e && e->code() == ErrorCode::NoPermission &&
                   std::string(e->what()).find("read-only") != std::string::npos;
        };
        QVERIFY(refused([&] { ro.push(request("x")); }));
        QVERIFY(refused([&] { fresh.push(request("x")); }));
        QVERIFY(refused([&] { ro.pushBatch({request("x"), request("y")}); }));
        QVERIFY(refused([&] { ro.cancel({"b"}); }));
        QVERIFY(refused([&] { ro.cancel({"a"}, true); }));
        QVERIFY(refused([&] { ro.reschedule({"b"}, std::nullopt, 0); }));
        QVERIFY(refused([&] { ro.claim(1, 1000, "w"); }));
        QVERIFY(refused([&] { ro.ack("a", token); }));
        QVERIFY(refused([&] { ro.ack({{"a", token}}); }));
        QVERIFY(refused([&] { ro.nack("a", token, "e"); }));
        QVERIFY(refused([&] { ro.extend("a", token, 1000); }));
        QVERIFY(refused([&] { ro.reap(10); }));
        QVERIFY(refused([&] { ro.requeue({"a"}); }));
        QVERIFY(refused([&] { ro.requeueAll(); }));
        QVERIFY(refused([&] { ro.deleteDead({"a"}); }));
        QVERIFY(refused([&] { ro.deleteAllDead(); }));
        QVERIFY(refused([&] { ro.purge(); }));
        QVERIFY(refused([&] { ro.setConfig("paused", "1"); }));
        QCOMPARE(snapshot(m_server), digest);

        // Reads work.
        QCOMPARE(ro.counts().pending, 1LL);
        QCOMPARE(ro.counts().active, 1LL);
        QCOMPARE(ro.page(TaskSet::Pending, 0, 10).size(), size_t(1));
        QCOMPARE(ro.find("a")->first, TaskSet::Active);
        QCOMPARE(ro.stats()["pushed"], 2LL);
        QCOMPARE(ro.config().maxAttempts, 5);
        QCOMPARE(Queue::listQueues(conn), std::vector<std::string>{"orders"});
        QCOMPARE(snapshot(m_server), digest);
    }

    void invalidQueueNamesRefused_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("empty") << "";
        QTest::newRow("space") << "my queue";
        QTest::newRow("brace") << "a{b}";
        QTest::newRow("closing brace") << "a}";
        QTest::newRow("slash") << "a/b";
        QTest::newRow("too long") << QString(129, QLatin1Char('q'));
        QTest::newRow("non-ascii") << QString::fromUtf8("caf\xc3\xa9");
        QTest::newRow("newline") << "a\nb";
    }
    void invalidQueueNamesRefused()
    {
        QFETCH(QString, name);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", (void)Queue(*m_conn, name.toStdString()));
        QVERIFY(m_message.find("queue name") != std::string::npos);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                     (void)Queue(*m_conn, "ok", name.toStdString()));
        QCOMPARE(m_server.cli({"DBSIZE"}).trimmed(), QByteArray("0"));
        // The longest valid name works.
        Queue longest(*m_conn, std::string(128, 'q'));
        QCOMPARE(longest.push(request("x")).status, PushResult::Status::Created);
    }

    void invalidIdsRefused_data()
    {
        QTest::addColumn<QByteArray>("id");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("too long") << QByteArray(257, 'i');
        QTest::newRow("newline") << QByteArray("a\nb");
        QTest::newRow("NUL") << QByteArray("a\0b", 3);
        QTest::newRow("escape") << QByteArray("\x1b[31mred");
        QTest::newRow("DEL") << QByteArray("a\x7f");
    }
    void invalidIdsRefused()
    {
        QFETCH(QByteArray, id);
        const std::string bad = id.toStdString();
        Queue& q = *m_queue;
        q.push(request("a", 0, "good"));
        const auto claim = q.claim(1, 60'000, "w");
        const auto digest = snapshot(m_server);
        if (!bad.empty()) { // an empty id in a push means "generate one"
            EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.push(request("x", 0, bad)));
            // One bad id refuses the whole batch.
            EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                         q.pushBatch({request("x", 0, "fine"), request("y", 0, bad)}));
        }
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.cancel({"good", bad}));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.reschedule({bad}, std::nullopt, 0));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.requeue({bad}));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.deleteDead({bad}));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.find(bad));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.ack(bad, claim.tasks[0].token));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                     q.ack({{"good", claim.tasks[0].token}, {bad, "t"}}));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.nack(bad, "t", "e"));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.extend(bad, "t", 1000));
        // Untrusted text is never echoed raw into the message.
        QVERIFY(m_message.find('\x1b') == std::string::npos);
        QCOMPARE(snapshot(m_server), digest);
        // The longest valid id works.
        QCOMPARE(q.push(request("x", 0, std::string(256, 'i'))).status,
                 PushResult::Status::Created);
    }

    void invalidPushesRefused_data()
    {
        QTest::addColumn<qint64>("delay");
        QTest::addColumn<qint64>("dueAt"); // -1 = unset
        QTest::addColumn<int>("maxAttempts");
        QTest::addColumn<QString>("backoff");
        QTest::newRow("negative delay") << qint64(-1) << qint64(-1) << 0 << "";
        QTest::newRow("due before 1970") << qint64(0) << qint64(-2) << 0 << "";
        QTest::newRow("due after 9999") << qint64(0) << qint64(253'402'300'800'000) << 0 << "";
        QTest::newRow("delay past 9999") << qint64(253'402'300'799'999) << qint64(-1) << 0 << "";
        QTest::newRow("negative attempts") << qint64(0) << qint64(-1) << -1 << "";
        QTest::newRow("bad backoff") << qint64(0) << qint64(-1) << 0 << "soon";
        QTest::newRow("bad exp backoff") << qint64(0) << qint64(-1) << 0 << "exp:1s";
        QTest::newRow("too many steps")
            << qint64(0) << qint64(-1) << 0 << QString("1s,").repeated(40) + "1s";
    }
    void invalidPushesRefused()
    {
        QFETCH(qint64, delay);
        QFETCH(qint64, dueAt);
        QFETCH(int, maxAttempts);
        QFETCH(QString, backoff);
        PushRequest r = request("x", delay);
        if (dueAt != -1)
            r.dueAtMs = dueAt;
        r.maxAttempts = maxAttempts;
        r.backoff = backoff.toStdString();
        const auto digest = snapshot(m_server);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", m_queue->push(r));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", m_queue->pushBatch({request("ok"), r}));
        QCOMPARE(snapshot(m_server), digest);
    }

    void brokenTaskIsHandled()
    {
        Queue& q = *m_queue;
        q.push(request("fine", 0, "fine"));
        // An id in pending without its hash (deleted by hand, or a bug elsewhere).
        m_server.cli({"ZADD", "dq:{orders}:pending", "1000", "ghost"});
        // One whose hash holds garbage.
        m_server.cli({"ZADD", "dq:{orders}:pending", "2000", "garbled"});
        m_server.cli({"HSET", "dq:{orders}:t:garbled", "attempts", "many", "state", "pending"});
        // A score that is not a whole number.
        m_server.cli({"ZADD", "dq:{orders}:pending", "+inf", "infinite"});

        const auto page = q.page(TaskSet::Pending, 0, 10);
        QCOMPARE(page.size(), size_t(4));
        QCOMPARE(page[0].id, std::string("ghost"));
        QVERIFY(page[0].broken);
        QVERIFY(page[0].lastError.find("missing") != std::string::npos);
        QCOMPARE(page[1].id, std::string("garbled"));
        QVERIFY(page[1].broken);
        QVERIFY(!page[2].broken);
        QCOMPARE(page[3].id, std::string("infinite"));
        QVERIFY(page[3].broken);
        QVERIFY(q.find("ghost")->second.broken);
        QCOMPARE(q.pageFromScore(TaskSet::Pending, 0, 10).size(), size_t(4));

        // Rescheduling a broken id does not make it look whole.
        QCOMPARE(statusesOf(q.reschedule({"ghost"}, std::nullopt, 0)),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QVERIFY(q.find("ghost")->second.broken);
        QVERIFY(q.find("ghost")->second.lastError.find("missing") != std::string::npos);

        // A claim moves it to dead and hands out the real tasks only.
        std::vector<std::string> handed;
        for (int i = 0; i < 3; ++i)
            for (const auto& t : q.claim(10, 60'000, "w").tasks)
                handed.push_back(t.id);
        QVERIFY(std::find(handed.begin(), handed.end(), "ghost") == handed.end());
        QVERIFY(std::find(handed.begin(), handed.end(), "fine") != handed.end());
        QVERIFY(std::find(handed.begin(), handed.end(), "garbled") == handed.end());
        QCOMPARE(q.find("garbled")->first, TaskSet::Dead);
        const auto ghost = q.find("ghost");
        QCOMPARE(ghost->first, TaskSet::Dead);
        QVERIFY(ghost->second.lastError.find("missing") != std::string::npos);
        QVERIFY(q.stats()["died"] >= 1);
        QCOMPARE(q.stats()["broken"], 2LL); // ghost and garbled, counted for the operator
        QVERIFY(ghost->second.broken);
        // A requeue cannot turn it into an empty task: the next claim sends it back.
        QCOMPARE(statusesOf(q.requeue({"ghost"})),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QVERIFY(q.find("ghost")->second.broken);
        for (const auto& t : q.claim(10, 60'000, "w").tasks)
            QVERIFY(t.id != "ghost");
        QCOMPARE(q.find("ghost")->first, TaskSet::Dead);
        // It can be deleted like any dead task.
        QCOMPARE(statusesOf(q.deleteDead({"ghost"})),
                 std::vector<IdResult::Status>{IdResult::Status::Done});
        QCOMPARE(q.counts().pending, 1LL); // "infinite" is never due
        QVERIFY(q.cancel({"infinite"}).at(0).status == IdResult::Status::Done);
    }

    void wrongTypeKeysAreReported()
    {
        m_server.cli({"SET", "dq:{orders}:pending", "not a zset"});
        Queue& q = *m_queue;
        EXPECT_ERROR(ErrorCode::WrongType, "", q.push(request("x")));
        EXPECT_ERROR(ErrorCode::WrongType, "", q.counts());
        EXPECT_ERROR(ErrorCode::WrongType, "", q.claim(1, 1000, "w"));
        EXPECT_ERROR(ErrorCode::WrongType, "", q.page(TaskSet::Pending, 0, 10));
        EXPECT_ERROR(ErrorCode::WrongType, "", q.histogram(0, 1000, 4));
        QCOMPARE(m_server.cli({"GET", "dq:{orders}:pending"}).trimmed(), QByteArray("not a zset"));
        const auto summaries = Queue::summaries(*m_conn, {"orders"});
        QCOMPARE(summaries.at(0).counts.pending, -1LL);
        // Other queues are not affected.
        Queue other(*m_conn, "other");
        QCOMPARE(other.push(request("x")).status, PushResult::Status::Created);
    }

    void scriptsSurviveFlush()
    {
        Queue& q = *m_queue;
        q.push(request("a"));
        m_server.cli({"SCRIPT", "FLUSH"});
        const auto claim = q.claim(1, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(1));
        m_server.cli({"SCRIPT", "FLUSH"});
        q.ack(claim.tasks[0].id, claim.tasks[0].token);
        m_server.cli({"SCRIPT", "FLUSH"});
        QCOMPARE(q.pushBatch(std::vector<PushRequest>(1500, request("b"))).size(), size_t(1500));
        QCOMPARE(q.size(TaskSet::Pending), 1500LL);
    }

    void backoffNormalization_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("normalized"); // "" = refused
        QTest::newRow("seed list") << "5s,20s,30s"
                                   << "5000,20000,30000";
        QTest::newRow("single") << "250ms"
                                << "250";
        QTest::newRow("zero step") << "0s,1s"
                                   << "0,1000";
        QTest::newRow("exp") << "exp:1s:5m"
                             << "exp:1000:300000";
        QTest::newRow("exp equal") << "exp:1s:1s"
                                   << "exp:1000:1000";
        QTest::newRow("none") << ""
                              << "<empty>";
        QTest::newRow("trailing comma") << "5s,"
                                        << "";
        QTest::newRow("space") << "5s, 6s"
                               << "";
        QTest::newRow("exp no max") << "exp:1s:"
                                    << "";
        QTest::newRow("exp garbage") << "exp:a:b"
                                     << "";
    }
    void backoffNormalization()
    {
        QFETCH(QString, text);
        QFETCH(QString, normalized);
        if (normalized.isEmpty()) {
            EXPECT_ERROR(ErrorCode::InvalidArgument, "",
                         Queue::normalizeBackoff(text.toStdString()));
            return;
        }
        if (normalized == "<empty>")
            normalized.clear();
        QCOMPARE(QString::fromStdString(Queue::normalizeBackoff(text.toStdString())), normalized);
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

    RedisServer m_server;
    std::unique_ptr<Connection> m_conn;
    std::unique_ptr<Queue> m_queue;
    std::string m_message; // of the last EXPECT_ERROR
};

QTEST_GUILESS_MAIN(TestQueue)
#include "tst_queue.moc"
