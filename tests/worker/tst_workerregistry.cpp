#include "eventlog.h"
#include "redissuite.h"
#include "workerbeat.h"
#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/script.h>
#include <delayq/version.h>
#include <delayq/worker.h>
#include <delayq/workerregistry.h>

#include <QScopeGuard>
#include <QTest>

#include <atomic>
#include <memory>
#include <thread>
#include <unistd.h>

using namespace delayq;
using namespace std::chrono_literals;

// The worker registry (heartbeat.lua, WorkerRegistry, the Worker's Heartbeat) against a real
// redis-server: what a worker says of itself, that a clean stop leaves at once, that a silent
// worker turns gone and is dropped, and that the registry stays bounded.
class TestWorkerRegistry : public RedisSuite
{
    Q_OBJECT

protected:
    void initTest() override
    {
        m_conn = std::make_unique<Connection>(ConnectionOptions::fromUrl(m_server.unixUrl()));
    }
    void cleanupTest() override { m_conn.reset(); }

private slots:
    void aWorkerListsItselfWithItsFigures()
    {
        Queue q(*m_conn, "jobs");
        // Due one ms apart, long past: claims of 5 take them in order, so tasks 0-19 fill
        // four whole batches. A thread sends its acks when its batch is done (or 20 ms
        // later, checked between tasks): a count of handled tasks as the blocking rule let a
        // thread block halfway through a batch, its finished tasks not yet acked (15 of 20
        // seen under ASan).
        for (int i = 0; i < 30; ++i) {
            PushRequest r;
            r.payload = std::to_string(i);
            r.dueAtMs = 1'000'000 + i;
            q.push(r);
        }
        std::atomic<bool> release{false};
        WorkerOptions o = options("w-figures");
        o.handlerKind = "test";
        o.batch = 5;
        o.maxBatch = 5;
        // Tasks 0-19 acked, then the handler holds tasks 20-29 until released.
        Worker w(o, [&](const ClaimedTask& t) {
            if (std::stoi(t.payload) >= 20)
                while (!release)
                    std::this_thread::sleep_for(5ms);
            return HandlerResult::ack();
        });
        // A failed check returns early: the handler must not hold the worker's destructor.
        const auto releaseOnExit = qScopeGuard([&] { release = true; });
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, 20LL, 10000);
        // Both threads end up holding a batch of 5; a beat may first see only one of them.
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().inFlight, 10LL, 10000);
        WorkerRegistry registry(*m_conn);
        QTRY_VERIFY_WITH_TIMEOUT(!registry.read({"jobs"}).empty() &&
                                     registry.read({"jobs"}).front().acked == 20 &&
                                     registry.read({"jobs"}).front().held == 10,
                                 5000);
        const WorkerInfo info = registry.read({"jobs"}).front();
        QCOMPARE(info.queue, std::string("jobs"));
        QCOMPARE(info.name, std::string("w-figures"));
        QCOMPARE(info.handler, std::string("test"));
        QCOMPARE(info.version, std::string(DELAYQ_VERSION));
        QCOMPARE(info.pid, static_cast<long long>(::getpid()));
        QCOMPARE(info.threads, 2);
        QCOMPARE(info.intervalMs, 100LL);
        QVERIFY(info.live);
        QCOMPARE(info.failed, 0LL);
        QCOMPARE(info.held, w.counters().inFlight);
        QVERIFY(info.startedMs > 0 && info.startedMs <= info.lastSeenMs);
        QVERIFY(info.lastAckMs >= info.startedMs);
        QVERIFY(info.lastSeenMs <= registry.nowMs() && registry.nowMs() - info.lastSeenMs < 1000);
        QVERIFY(!info.stalled(registry.nowMs()));
        // Nothing acked for kStalledMs from now on: stalled, as the reader judges it.
        QVERIFY(info.stalled(info.lastAckMs + WorkerRegistry::kStalledMs));
        QCOMPARE(QueueSnapshotReader(*m_conn, "dq").read({"jobs"}, false).front().consumers, 1LL);
        release = true;
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, 30LL, 10000);
        w.stop();
    }

    // stop() and stopNow() each take the worker out of the registry before they return.
    void aCleanStopLeavesTheRegistry_data()
    {
        QTest::addColumn<bool>("now");
        QTest::newRow("stop") << false;
        QTest::newRow("stopNow") << true;
    }
    void aCleanStopLeavesTheRegistry()
    {
        QFETCH(bool, now);
        Worker w(options("w-leaves"), [](const ClaimedTask&) { return HandlerResult::ack(); });
        QVERIFY(w.start());
        WorkerRegistry registry(*m_conn);
        QTRY_COMPARE(registry.read({"jobs"}).size(), size_t(1));
        // Nobody pushed to the queue: the worker listed it, so readers of every queue find it.
        QCOMPARE(m_conn->command({"SISMEMBER", "dq:queues", "jobs"}).integer, 1LL);
        if (now)
            w.stopNow();
        else
            w.stop();
        QVERIFY(registry.read({"jobs"}).empty());
        QCOMPARE(m_conn->command({"EXISTS", keys().workers(), keys().workerRecords()}).integer,
                 0LL);
    }

    // A worker that stops beating (its process died) is gone after three missed beats, listed
    // as gone for twenty more, then left out; the next beat of another worker removes it from
    // Redis.
    void aSilentWorkerTurnsGoneThenIsDropped()
    {
        beat("w-dead", 100);
        WorkerRegistry registry(*m_conn);
        QVERIFY(registry.read({"jobs"}).front().live);
        QTRY_VERIFY_WITH_TIMEOUT(!registry.read({"jobs"}).front().live, 2000);
        const long long goneAt = registry.nowMs();
        QTRY_VERIFY_WITH_TIMEOUT(registry.read({"jobs"}).empty(), 5000);
        QVERIFY(registry.nowMs() - goneAt >= 100 * WorkerRegistry::kGoneKeptIntervals - 50);
        QCOMPARE(hexists("w-dead"), 1LL); // left out by readers, not removed yet
        beat("w-alive", 100);
        QCOMPARE(hexists("w-dead"), 0LL);
        QCOMPARE(m_conn->command({"ZSCORE", keys().workers(), "w-dead"}).isNil(), true);
        QCOMPARE(registry.read({"jobs"}).size(), size_t(1));
    }

    // Workers with new names at every start (a crash loop) never pile up: at most 1000 are
    // kept, the ones closest to gone removed first.
    void theRegistryIsBounded()
    {
        std::vector<Connection::ScriptCall> calls;
        for (int i = 0; i < 1005; ++i)
            calls.push_back(
                {{keys().workers(), keys().workerRecords()},
                 {"beat", "crash-" + std::to_string(i), "300000", "86400000", record(5000)}});
        for (size_t from = 0; from < calls.size(); from += 200)
            m_conn->evalPipeline(
                scripts::heartbeat,
                {calls.begin() + static_cast<long>(from),
                 calls.begin() + static_cast<long>(std::min(calls.size(), from + 200))});
        QCOMPARE(m_conn->command({"ZCARD", keys().workers()}).integer, 1000LL);
        QCOMPARE(m_conn->command({"HLEN", keys().workerRecords()}).integer, 1000LL);
        // Five went (equal scores go by name), never the one that just beat.
        QCOMPARE(hexists("crash-1004"), 1LL);
        QCOMPARE(WorkerRegistry(*m_conn).read({"jobs"}).size(), size_t(1000));
    }

    // An ACL user who may not write the registry: each beat is refused and said once an
    // interval, and the lease renewals on the same thread go on, so a task that outlives its
    // short lease is acked, not lost.
    void aRefusedBeatNeverHoldsBackLeaseRenewals()
    {
        m_conn->command({"ACL", "SETUSER", "worker", "on", ">pw", "~dq:{jobs}:[^w]*", "~dq:queues",
                         "&*", "+@all"});
        Queue(*m_conn, "jobs").push({});
        EventLog log;
        WorkerOptions o = options("w-refused");
        o.connection = ConnectionOptions::fromUrl(m_server.unixUrl() + "?user=worker&password=pw");
        o.leaseMs = 600;
        Worker w(
            o,
            [](const ClaimedTask&) {
                std::this_thread::sleep_for(2000ms); // three leases long
                return HandlerResult::ack();
            },
            [&](const WorkerEvent& e) { log.add(e); });
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, 1LL, 10000);
        QCOMPARE(w.counters().leaseLost, 0LL);
        bool said = false;
        for (const WorkerEvent& e : log.all())
            said = said || (e.kind == WorkerEvent::Kind::Error &&
                            QString::fromStdString(e.error).contains("NOPERM"));
        QVERIFY(said);
        w.stop();
        QVERIFY(WorkerRegistry(*m_conn).read({"jobs"}).empty());
    }

    void aBadOptionIsRefusedBeforeStarting_data()
    {
        QTest::addColumn<int>("intervalMs");
        QTest::addColumn<int>("nameBytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("interval 50 ms") << 50 << 5 << "heartbeat interval must be 100 ms";
        QTest::newRow("interval 21 min") << 21 * 60000 << 5 << "heartbeat interval must be 100 ms";
        QTest::newRow("name 201 bytes") << 5000 << 201 << "at most 200 bytes";
    }
    void aBadOptionIsRefusedBeforeStarting()
    {
        QFETCH(int, intervalMs);
        QFETCH(int, nameBytes);
        QFETCH(QString, message);
        WorkerOptions o = options(std::string(static_cast<size_t>(nameBytes), 'w'));
        o.heartbeatInterval = std::chrono::milliseconds(intervalMs);
        Worker w(o, [](const ClaimedTask&) { return HandlerResult::ack(); });
        try {
            w.start();
            QFAIL("started");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
        QCOMPARE(m_conn->command({"EXISTS", keys().workers()}).integer, 0LL);
    }

private:
    static Keys keys() { return Keys("dq", "jobs"); }
    WorkerOptions options(const std::string& name) const
    {
        WorkerOptions o;
        o.connection = ConnectionOptions::fromUrl(m_server.unixUrl());
        o.queue = "jobs";
        o.concurrency = 2;
        o.name = name;
        o.heartbeatInterval = 100ms;
        return o;
    }
    static std::string record(long long intervalMs)
    {
        return workerRecordText(workerInfo(0, intervalMs));
    }
    // One beat of a worker that beats every intervalMs, the way Heartbeat sends it.
    void beat(const std::string& name, long long intervalMs)
    {
        beatAs(*m_conn, "jobs", name, workerInfo(0, intervalMs),
               WorkerRegistry::kLiveIntervals * intervalMs);
    }
    long long hexists(const std::string& name)
    {
        return m_conn->command({"HEXISTS", keys().workerRecords(), name}).integer;
    }

    std::unique_ptr<Connection> m_conn;
};

QTEST_GUILESS_MAIN(TestWorkerRegistry)
#include "tst_workerregistry.moc"
