#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QProcess>
#include <QTest>

#include <random>
#include <set>

using namespace delayq;

// Pushing to a native queue (delayq/queue.h): ids, payloads, fields, replace, size limits,
// registration and wake-ups.
class TestQueuePush : public QueueSuite
{
    Q_OBJECT

private slots:
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
        QCOMPARE(m_server.record(q.keys(), pushed.id), QByteArray());
        QCOMPARE(m_server.cli({"EXISTS", "dq:{orders}:run"}).trimmed(), QByteArray("0"));
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

    // push.lua replies only the tasks it did not create, by their index in the call: over
    // several calls, each status and due time still lands on its own request.
    void exceptionsLandOnTheirOwnRequests()
    {
        Queue& q = *m_queue;
        PushRequest taken = request("", 0, "");
        taken.dueAtMs = 4'102'444'800'000LL;
        for (int i = 0; i < 450; i += 7) {
            taken.id = "x" + std::to_string(i);
            q.push(taken);
        }
        std::vector<PushRequest> batch;
        for (int i = 0; i < 450; ++i)
            batch.push_back(request("new", 60'000, "x" + std::to_string(i)));
        const long long before = m_conn->serverTimeMs();
        const auto results = q.pushBatch(batch);
        const long long after = m_conn->serverTimeMs();
        QCOMPARE(results.size(), size_t(450));
        for (int i = 0; i < 450; ++i) {
            const PushResult& r = results[size_t(i)];
            QCOMPARE(r.id, "x" + std::to_string(i));
            if (i % 7 == 0) {
                QCOMPARE(r.status, PushResult::Status::Exists);
                QCOMPARE(r.due, 4'102'444'800'000LL);
            } else {
                QCOMPARE(r.status, PushResult::Status::Created);
                QVERIFY(r.due >= before + 60'000 && r.due <= after + 60'000);
                QCOMPARE(q.find(r.id)->second.due, r.due);
            }
        }
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

    // The script takes one due kind and one settings text per call: a batch that mixes them
    // keeps each request's own.
    void batchKeepsEachRequestsDueAndSettings()
    {
        Queue& q = *m_queue;
        q.setConfig("max_attempts", "4");
        const long long before = m_conn->serverTimeMs();
        std::vector<PushRequest> batch;
        for (int i = 0; i < 6; ++i) {
            PushRequest r = request("p", 60'000 * (i + 1), "t" + std::to_string(i));
            if (i % 2 == 1)
                r.dueAtMs = 4'102'444'800'000LL + i; // 2100-01-01
            if (i % 3 == 1)
                r.maxAttempts = 9;
            if (i % 3 == 2)
                r.backoff = "exp:1s:1m";
            batch.push_back(r);
        }
        const auto results = q.pushBatch(batch);
        const long long after = m_conn->serverTimeMs();
        QCOMPARE(results.size(), batch.size());
        for (int i = 0; i < 6; ++i) {
            const auto found = q.find("t" + std::to_string(i));
            QVERIFY(found);
            const Task& t = found->second;
            if (i % 2 == 1) {
                QCOMPARE(t.due, 4'102'444'800'000LL + i);
            } else {
                QVERIFY(t.due >= before + 60'000 * (i + 1) && t.due <= after + 60'000 * (i + 1));
            }
            QCOMPARE(results[size_t(i)].due, t.due);
            QCOMPARE(t.maxAttempts, i % 3 == 1 ? 9 : 4);
            QCOMPARE(t.backoff, std::string(i % 3 == 2 ? "exp:1000:60000" : ""));
        }
    }

    // The settings text holds the group, so tasks of interleaved groups used to go one a call
    // (docs/design/flow.md "Measured"): the batch is gathered by settings into few calls, and
    // each result still lands on its own request. Two requests of one id keep their order
    // across calls: the later one sees the earlier.
    void interleavedGroupsGoInFewCalls()
    {
        Queue& q = *m_queue;
        q.setConfig("order", "fair");
        PushRequest old = request("old", 60'000, "i7");
        old.group = "g7";
        q.push(old);
        std::vector<PushRequest> batch;
        for (int i = 0; i < 500; ++i) {
            PushRequest r = request("p" + std::to_string(i), 0, "i" + std::to_string(i));
            r.group = "g" + std::to_string(i % 100);
            batch.push_back(r);
        }
        // "dup" first in g1, then in g0: g0's call started first, yet the second "dup" must
        // not go before the first.
        PushRequest first = request("first", 0, "dup");
        first.group = "g1";
        PushRequest second = request("second", 0, "dup");
        second.group = "g0";
        batch.insert(batch.begin() + 150, first);
        batch.push_back(second);
        const auto evals = [&] {
            const QByteArray stats = m_server.cli({"INFO", "commandstats"});
            int calls = 0;
            for (const QByteArray& command : {QByteArray("evalsha"), QByteArray("eval")}) {
                const QByteArray key = "cmdstat_" + command + ":calls=";
                const int at = stats.indexOf(key);
                if (at >= 0)
                    calls += stats.mid(at + key.size()).split(',').front().toInt();
            }
            return calls;
        };
        const int before = evals();
        const auto results = q.pushBatch(batch);
        const int calls = evals() - before;
        // One call a group, one more for the second "dup" (and none to spare: one task a call
        // would be 502).
        QVERIFY2(calls >= 100 && calls <= 101 + 2, QByteArray::number(calls).constData());
        QCOMPARE(results.size(), batch.size());
        for (size_t i = 0; i < batch.size(); ++i) {
            QCOMPARE(results[i].id, batch[i].id);
            const auto found = q.find(batch[i].id);
            QVERIFY(found);
            if (batch[i].id == "i7" || (i == batch.size() - 1)) {
                QCOMPARE(results[i].status, PushResult::Status::Exists);
                QCOMPARE(results[i].due, found->second.due);
                continue;
            }
            QCOMPARE(results[i].status, PushResult::Status::Created);
            QCOMPARE(found->second.payload, batch[i].payload);
            QCOMPARE(found->second.group, batch[i].group);
            QCOMPARE(results[i].due, found->second.due);
        }
        QCOMPARE(q.find("dup")->second.payload, std::string("first"));
        QCOMPARE(q.find("i7")->second.payload, std::string("old"));
        QCOMPARE(q.size(TaskSet::Pending), 501LL);
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
};

QTEST_GUILESS_MAIN(TestQueuePush)
#include "tst_queuepush.moc"
