#include "eventlog.h"
#include "redissuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/worker.h>

#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <thread>

using namespace delayq;
using namespace std::chrono_literals;

class TestWorker : public RedisSuite
{
    Q_OBJECT

protected:
    // Each test starts from zeroed command statistics, which claimCalls() reads, and with the
    // queue "jobs" the workers take from.
    void initTest() override
    {
        redis({"CONFIG", "RESETSTAT"});
        m_conn = std::make_unique<Connection>(ConnectionOptions::fromUrl(m_server.unixUrl()));
        m_jobs = std::make_unique<Queue>(*m_conn, "jobs");
    }
    void cleanupTest() override
    {
        m_jobs.reset();
        m_conn.reset();
    }

private slots:
    void sleepsUntilTheNextDueTime()
    {
        Queue& q = *m_jobs;
        PushRequest r;
        r.delayMs = 400;
        q.push(r);
        EventLog log;
        // A poll far longer than the test: only the due time reported by claim can wake it.
        Worker w(
            options(60s), [](const ClaimedTask&) { return HandlerResult::ack(); },
            [&](const WorkerEvent& e) { log.add(e); });
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, 1LL, 10000);
        QCOMPARE(log.tasks().front().outcome, TaskOutcome::Acked);
        QCOMPARE(q.counts().pending + q.counts().active, 0LL);
    }

    void wakesOnAnEarlierPush()
    {
        Queue& q = *m_jobs;
        PushRequest later;
        later.delayMs = 3600'000;
        q.push(later);
        redis({"CONFIG", "RESETSTAT"});
        Worker w(options(60s), [](const ClaimedTask&) { return HandlerResult::ack(); });
        QVERIFY(w.start());
        // The worker has claimed once (and now sleeps for an hour) and listens for wakes.
        QTRY_VERIFY(claimCalls() >= 2);
        QTRY_COMPARE(redis({"PUBSUB", "NUMSUB", "dq:{jobs}:wake"}).elements.at(1).integer, 1LL);
        PushRequest now;
        now.payload = "urgent";
        q.push(now);
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, 1LL, 10000);
        QCOMPARE(q.counts().pending, 1LL); // the later task still waits
        w.stop();
        QVERIFY(!w.isRunning());
    }

    // A backlog 1 to 41 minutes overdue: each task's lateness is its claim time minus its own
    // due time, and the percentiles read those minutes (within the histogram's 1%), not the
    // top of a one-minute range.
    void latenessOfAnOverdueBacklog()
    {
        constexpr int kTasks = 200;
        const long long base = m_conn->serverNowMs();
        std::map<std::string, long long> dueOf;
        std::vector<PushRequest> requests(kTasks);
        for (int i = 0; i < kTasks; ++i) {
            requests[i].id = "late-" + std::to_string(i);
            requests[i].dueAtMs = base - 60'000 - i * 12'000LL;
            dueOf[requests[i].id] = *requests[i].dueAtMs;
        }
        m_jobs->pushBatch(requests);
        EventLog log;
        const long long before = m_conn->serverNowMs();
        Worker w(
            options(1s), [](const ClaimedTask&) { return HandlerResult::ack(); },
            [&](const WorkerEvent& e) { log.add(e); });
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, static_cast<long long>(kTasks), 20000);
        const long long after = m_conn->serverNowMs();
        const WorkerCounters c = w.counters();
        w.stop();

        std::vector<long long> lateness;
        for (const WorkerEvent& e : log.tasks()) {
            const long long due = dueOf.at(e.id);
            QCOMPARE(e.due, due);
            // Claimed between the start and the last ack: the log's figure is that wait.
            QVERIFY2(e.lateness >= before - due && e.lateness <= after - due,
                     qPrintable(QStringLiteral("%1: %2 ms late, due %3 before the start")
                                    .arg(QString::fromStdString(e.id))
                                    .arg(e.lateness)
                                    .arg(before - due)));
            lateness.push_back(e.lateness);
        }
        QCOMPARE(static_cast<int>(lateness.size()), kTasks);
        std::sort(lateness.begin(), lateness.end());
        QCOMPARE(c.latenessCount, static_cast<long long>(kTasks));
        QCOMPARE(c.latenessMax, lateness.back());
        const std::pair<double, long long> shown[] = {{0.5, c.latenessP50}, {0.99, c.latenessP99}};
        for (const auto& [q, figure] : shown) {
            const long long exact = lateness[static_cast<size_t>(std::ceil(q * kTasks)) - 1];
            QVERIFY2(figure <= exact && figure >= exact - exact / 100,
                     qPrintable(QStringLiteral("p%1: %2 ms, the tasks say %3 ms")
                                    .arg(q * 100)
                                    .arg(figure)
                                    .arg(exact)));
        }
        // About 21 and 40.6 minutes: far past the minute the histogram used to stop at.
        QVERIFY(c.latenessP50 > 20 * 60'000LL);
        QVERIFY(c.latenessP99 > 40 * 60'000LL);
    }

    void extendsTheLeaseOfALongTask()
    {
        Queue& q = *m_jobs;
        q.push(PushRequest{});
        auto o = options(1s);
        o.leaseMs = 600;
        o.reapInterval = 100ms;
        std::atomic<int> runs{0};
        // Runs four leases long: without renewal the reaper would take it back and the
        // ack would come back lease-lost.
        Worker w(o, [&](const ClaimedTask&) {
            ++runs;
            std::this_thread::sleep_for(2400ms);
            return HandlerResult::ack();
        });
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, 1LL, 10000);
        const auto c = w.counters();
        QCOMPARE(c.leaseLost, 0LL);
        QCOMPARE(c.reaped, 0LL);
        QCOMPARE(runs.load(), 1);
        QCOMPARE(q.stats()["expired"], 0LL);
    }

    // The renewal thread (LeaseKeeper), asleep until its next renewal, must wake for a new
    // claim: with a rare reap (an hour here) the first renewal of a 600 ms lease would otherwise come far
    // too late, and another worker's reap (run here by the handler itself, after the first
    // deadline) would take the task back.
    void renewsFromTheFirstClaimWhenReapsAreRare()
    {
        Queue& q = *m_jobs;
        q.push(PushRequest{});
        auto o = options(1s);
        o.leaseMs = 600;
        o.reapInterval = 3600s;
        const std::string url = m_server.unixUrl();
        std::atomic<long long> reapedByOther{-1};
        Worker w(o, [&](const ClaimedTask&) {
            std::this_thread::sleep_for(900ms);
            Connection other(ConnectionOptions::fromUrl(url));
            reapedByOther = static_cast<long long>(Queue(other, "jobs").reap(100).requeued);
            return HandlerResult::ack();
        });
        QVERIFY(w.start());
        QTRY_VERIFY_WITH_TIMEOUT(w.counters().acked + w.counters().leaseLost == 1, 10000);
        QCOMPARE(reapedByOther.load(), 0LL);
        QCOMPARE(w.counters().leaseLost, 0LL);
        QCOMPARE(w.counters().acked, 1LL);
    }

    void stopFinishesWhatItHolds()
    {
        Queue& q = *m_jobs;
        std::vector<PushRequest> requests(5);
        q.pushBatch(requests);
        std::atomic<bool> running{false};
        auto o = options(1s);
        o.batch = 5;
        Worker w(o, [&](const ClaimedTask&) {
            running = true;
            std::this_thread::sleep_for(100ms);
            return HandlerResult::ack();
        });
        QVERIFY(w.start());
        QTRY_VERIFY(running.load());
        w.stop();
        QVERIFY(!w.isRunning());
        // All five were claimed in one batch: a graceful stop runs them, it drops none.
        const auto c = w.counters();
        QCOMPARE(c.acked, 5LL);
        QCOMPARE(c.released, 0LL);
        QCOMPARE(c.inFlight, 0LL);
        QCOMPARE(q.counts().active, 0LL);
        QCOMPARE(q.counts().pending, 0LL);
    }

    void stopPastItsTimeoutHandsTasksBack()
    {
        Queue& q = *m_jobs;
        pushTask(5);
        auto o = options(1s);
        o.stopTimeout = 200ms;
        std::atomic<bool> running{false};
        Worker* self = nullptr;
        Worker w(o, holdUntilAborted(running, self));
        self = &w;
        QVERIFY(w.start());
        QTRY_VERIFY(running.load());
        w.stop();
        const auto c = w.counters();
        QCOMPARE(c.released, 1LL);
        QCOMPARE(c.acked, 0LL);
        QCOMPARE(q.counts().active, 0LL);
        QCOMPARE(q.counts().pending, 1LL); // due again at once, for another worker
    }

    void stopNowHandsBackEverything()
    {
        Queue& q = *m_jobs;
        q.pushBatch(std::vector<PushRequest>(3));
        auto o = options(1s);
        o.concurrency = 1;
        o.batch = 3;
        std::atomic<bool> running{false};
        EventLog log;
        Worker* self = nullptr;
        Worker w(o, holdUntilAborted(running, self), [&](const WorkerEvent& e) { log.add(e); });
        self = &w;
        QVERIFY(w.start());
        QTRY_VERIFY(running.load());
        w.stopNow();
        QVERIFY(!w.isRunning());
        // The running task and the two waiting behind it all go back, due at once; the
        // running one's late ack is discarded.
        const auto c = w.counters();
        QCOMPARE(c.released, 3LL);
        QCOMPARE(c.acked, 0LL);
        QCOMPARE(c.inFlight, 0LL);
        const auto events = log.tasks();
        QCOMPARE(events.size(), size_t(3));
        for (const auto& e : events) {
            QCOMPARE(e.outcome, TaskOutcome::Released);
            QCOMPARE(e.attempt, 1);
        }
        QCOMPARE(q.counts().active, 0LL);
        QCOMPARE(q.counts().pending, 3LL);
        // Due at the server's time of the release; counts() judges "due" by its estimate of
        // the server's clock, which may trail by a few ms (an ASan run saw 2 of 3).
        QTRY_COMPARE(q.counts().dueNow, 3LL);
    }

    void reaperReturnsAnAbandonedTask()
    {
        Queue& q = *m_jobs;
        pushTask(3);
        auto o = options(1s);
        o.leaseMs = 300;
        o.reapInterval = 100ms;
        EventLog log;
        Worker w(
            o,
            [](const ClaimedTask& t) {
                return t.attempts == 1 ? HandlerResult::abandon() : HandlerResult::ack();
            },
            [&](const WorkerEvent& e) { log.add(e); });
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, 1LL, 10000);
        const auto events = log.tasks();
        QCOMPARE(events.size(), size_t(2));
        QCOMPARE(events[0].outcome, TaskOutcome::Abandoned);
        QCOMPARE(events[0].attempt, 1);
        QCOMPARE(events[1].outcome, TaskOutcome::Acked);
        QCOMPARE(events[1].attempt, 2);
        QCOMPARE(events[1].id, events[0].id);
        QCOMPARE(w.counters().reaped, 1LL);
        QCOMPARE(q.stats()["expired"], 1LL);
    }

    void failuresRetryOnTheBackoffThenDie()
    {
        Queue& q = *m_jobs;
        const std::string id = pushTask(3, "300ms,700ms");
        EventLog log;
        Worker w(
            options(60s),
            [](const ClaimedTask& t) {
                return HandlerResult::fail("boom " + std::to_string(t.attempts));
            },
            [&](const WorkerEvent& e) { log.add(e); });
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().dead, 1LL, 10000);
        const auto events = log.tasks();
        QCOMPARE(events.size(), size_t(3));
        const TaskOutcome outcomes[] = {TaskOutcome::Retried, TaskOutcome::Retried,
                                        TaskOutcome::Dead};
        const long long delays[] = {300, 700};
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(events[i].attempt, i + 1);
            QCOMPARE(events[i].outcome, outcomes[i]);
            QCOMPARE(events[i].error, "boom " + std::to_string(i + 1));
        }
        for (int i = 0; i < 2; ++i) {
            // The retry is due one backoff step after the nack, and runs at that due time.
            // The nack happened between the handler's start and the event (20 ms for the
            // client's estimate of the server clock), however slow the machine is.
            QCOMPARE(events[i + 1].due, events[i].retryAt);
            const long long nackAt = events[i].retryAt - delays[i];
            QVERIFY2(nackAt >= events[i].started - 20 && nackAt <= events[i].finished + 20,
                     qPrintable(QStringLiteral("nack at %1, handler %2..%3")
                                    .arg(nackAt)
                                    .arg(events[i].started)
                                    .arg(events[i].finished)));
        }
        auto found = q.find(id);
        QVERIFY(found);
        QCOMPARE(found->first, TaskSet::Dead);
        QCOMPARE(found->second.lastError, std::string("boom 3"));
        const auto c = w.counters();
        QCOMPARE(c.failed, 3LL);
        QCOMPARE(c.retried, 2LL);
    }

    void reconnectsAfterARedisRestart()
    {
        EventLog log;
        std::atomic<int> handled{0};
        Worker w(
            options(1s),
            [&](const ClaimedTask&) {
                ++handled;
                return HandlerResult::ack();
            },
            [&](const WorkerEvent& e) { log.add(e); });
        QVERIFY(w.start());
        pushOne();
        QTRY_COMPARE(handled.load(), 1);

        m_server.stop();
        QTRY_COMPARE(log.count(WorkerEvent::Kind::ConnectionLost), 1);
        QVERIFY(!w.counters().connected);
        QVERIFY(!log.all().back().error.empty());
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QTRY_COMPARE_WITH_TIMEOUT(log.count(WorkerEvent::Kind::ConnectionRestored), 1, 10000);
        QVERIFY(w.counters().connected);
        pushOne();
        QTRY_COMPARE_WITH_TIMEOUT(handled.load(), 2, 10000);
        // Backoff, not a busy loop: a few failed attempts per thread, not thousands.
        QVERIFY2(w.counters().connectionErrors < 100,
                 qPrintable(QString::number(w.counters().connectionErrors)));
        w.stop();
    }

    void stopsOnItsOwnAfterMaxTasks()
    {
        Queue& q = *m_jobs;
        q.pushBatch(std::vector<PushRequest>(5));
        auto o = options(1s);
        o.batch = 10;
        o.maxTasks = 3;
        Worker w(o, [](const ClaimedTask&) { return HandlerResult::ack(); });
        QVERIFY(w.start());
        QVERIFY(w.wait(10s));
        QVERIFY(!w.isRunning());
        w.stop();
        // The budget caps the claims themselves: nothing beyond it is taken and handed back.
        QCOMPARE(w.counters().claimed, 3LL);
        QCOMPARE(w.counters().released, 0LL);
        QCOMPARE(q.counts().pending, 2LL);
    }

    // One thread's claim may reserve the rest of the budget and find fewer tasks: the other
    // thread waits for it to give the rest back instead of taking "nothing left to reserve"
    // for "maxTasks reached" and stopping the worker short.
    void maxTasksIsReachedWhenClaimsFindLessThanTheyReserve()
    {
        Queue& q = *m_jobs;
        q.pushBatch(std::vector<PushRequest>(60));
        PushRequest later;
        later.delayMs = 700;
        q.pushBatch(std::vector<PushRequest>(40, later));
        auto o = options(1s);
        o.maxTasks = 100;
        Worker w(o, [](const ClaimedTask&) { return HandlerResult::ack(); });
        QVERIFY(w.start());
        QVERIFY(w.wait(10s));
        QCOMPARE(w.counters().acked, 100LL);
        QCOMPARE(q.counts().pending, 0LL);
    }

    void untilEmptyWaitsForRetries()
    {
        Queue& q = *m_jobs;
        pushTask(2, "300ms");
        auto o = options(60s);
        o.untilEmpty = true;
        Worker w(o, [](const ClaimedTask& t) {
            return t.attempts == 1 ? HandlerResult::fail("once") : HandlerResult::ack();
        });
        QVERIFY(w.start());
        QVERIFY(w.wait(10s));
        QCOMPARE(w.counters().retried, 1LL);
        QCOMPARE(w.counters().acked, 1LL);
        QCOMPARE(q.counts().pending, 0LL);
    }

    // A worker claimed five tasks and died: once their leases ran out, --until-empty reaps
    // them and runs them rather than take the empty pending set for an empty queue. Its own
    // reaper would come only after reapInterval (an hour here): the reap is the untilEmpty's.
    void untilEmptyRunsTheTasksOfADeadWorker()
    {
        Queue& q = *m_jobs;
        q.pushBatch(std::vector<PushRequest>(5, PushRequest{}));
        const auto crashed = q.claim(5, 200, "crashed");
        QCOMPARE(crashed.tasks.size(), size_t(5));
        const long long deadline = crashed.tasks[0].leaseDeadline;
        QTRY_VERIFY(m_conn->serverTimeMs() > deadline);
        auto o = options(60s);
        o.untilEmpty = true;
        o.reapInterval = 3600s;
        Worker w(o, [](const ClaimedTask&) { return HandlerResult::ack(); });
        QVERIFY(w.start());
        QVERIFY(w.wait(10s));
        QCOMPARE(w.counters().reaped, 5LL);
        QCOMPARE(w.counters().acked, 5LL);
        QCOMPARE(q.counts().active + q.counts().pending, 0LL);
    }

    // A live lease of another worker is work left too: untilEmpty waits until that worker
    // acks it, or until the lease runs out and the task is reaped and run here.
    void untilEmptyWaitsForALiveLease_data()
    {
        QTest::addColumn<bool>("holderAcks");
        QTest::newRow("its holder acks it") << true;
        QTest::newRow("its lease runs out") << false;
    }

    void untilEmptyWaitsForALiveLease()
    {
        QFETCH(bool, holderAcks);
        Queue& q = *m_jobs;
        q.push(PushRequest{});
        // Long enough, when its holder acks, that no reap can come first on a slow machine.
        const auto other = q.claim(1, holderAcks ? 20'000 : 1500, "other");
        QCOMPARE(other.tasks.size(), size_t(1));
        auto o = options(100ms);
        o.untilEmpty = true;
        o.reapInterval = 3600s;
        Worker w(o, [](const ClaimedTask&) { return HandlerResult::ack(); });
        QVERIFY(w.start());
        QVERIFY(!w.wait(500ms));
        QCOMPARE(w.counters().claimed, 0LL);
        if (holderAcks)
            q.ack(other.tasks[0].id, other.tasks[0].token);
        QVERIFY(w.wait(10s));
        QCOMPARE(w.counters().acked, holderAcks ? 0LL : 1LL);
        QCOMPARE(w.counters().reaped, holderAcks ? 0LL : 1LL);
        QCOMPARE(q.counts().active + q.counts().pending, 0LL);
    }

    void refusesBadOptions_data()
    {
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<int>("batch");
        QTest::addColumn<long long>("leaseMs");
        QTest::addColumn<QString>("queue");
        QTest::newRow("no threads") << 0 << 10 << 30000LL << "jobs";
        QTest::newRow("batch 0") << 1 << 0 << 30000LL << "jobs";
        QTest::newRow("batch too big") << 1 << 1001 << 30000LL << "jobs";
        QTest::newRow("tiny lease") << 1 << 10 << 50LL << "jobs";
        QTest::newRow("bad queue name") << 1 << 10 << 30000LL << "a b";
    }
    void refusesBadOptions()
    {
        QFETCH(int, concurrency);
        QFETCH(int, batch);
        QFETCH(long long, leaseMs);
        QFETCH(QString, queue);
        auto o = options(1s);
        o.concurrency = concurrency;
        o.batch = batch;
        o.leaseMs = leaseMs;
        o.queue = queue.toStdString();
        Worker w(o, [](const ClaimedTask&) { return HandlerResult::ack(); });
        QVERIFY_THROWS_EXCEPTION(Error, w.start());
        QVERIFY(!w.isRunning());
    }

private:
    WorkerOptions options(std::chrono::milliseconds poll)
    {
        WorkerOptions o;
        o.connection = ConnectionOptions::fromUrl(m_server.unixUrl());
        o.queue = "jobs";
        o.concurrency = 2;
        o.pollInterval = poll;
        o.maxReconnectDelay = 500ms;
        return o;
    }
    // A handler that says it runs, then holds its task until the worker (self, set once it
    // exists) asks it to abort; the ack it returns then comes too late to count.
    static Handler holdUntilAborted(std::atomic<bool>& running, Worker*& self)
    {
        return [&running, &self](const ClaimedTask&) {
            running = true;
            while (!self->abortRequested())
                std::this_thread::sleep_for(10ms);
            return HandlerResult::ack();
        };
    }
    // A task to "jobs" with its own attempts and backoff; its id.
    std::string pushTask(int maxAttempts, const std::string& backoff = {})
    {
        PushRequest r;
        r.maxAttempts = maxAttempts;
        r.backoff = backoff;
        return m_jobs->push(r).id;
    }
    void pushOne()
    {
        Connection conn(ConnectionOptions::fromUrl(m_server.unixUrl()));
        Queue(conn, "jobs").push(PushRequest{});
    }
    // Setup and checks through a plain connection, not redis-cli: a fork while worker threads
    // live is what ThreadSanitizer cannot follow.
    Reply redis(const std::vector<std::string>& args)
    {
        Connection conn(ConnectionOptions::fromUrl(m_server.unixUrl()));
        return conn.command(args);
    }
    // Script calls since the last CONFIG RESETSTAT: each worker thread's first claim.
    int claimCalls()
    {
        const QByteArray info = QByteArray::fromStdString(redis({"INFO", "commandstats"}).str);
        const QByteArray key = "cmdstat_evalsha:calls=";
        const auto at = info.indexOf(key);
        if (at < 0)
            return 0;
        return info.mid(at + key.size(), info.indexOf(',', at) - at - key.size()).toInt();
    }

    std::unique_ptr<Connection> m_conn;
    std::unique_ptr<Queue> m_jobs;
};

QTEST_GUILESS_MAIN(TestWorker)
#include "tst_worker.moc"
