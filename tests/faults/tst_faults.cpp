// A bad network between the workers and Redis (docs/design.md, "Faults"): every scenario puts
// a FaultProxy (tests/support/faultproxy.h) between a real Worker and the suite's own
// redis-server, drains a backlog through it, and checks against the server's own counters that
// nothing was lost and that every duplicate came from a lease that really ran out. Each prints
// its figures (qInfo); DELAYQ_FAULT_TASKS and DELAYQ_PARTITION_SECONDS make it longer by hand.
#include "faultproxy.h"
#include "redissuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/worker.h>

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>

#include <algorithm>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>

using namespace delayq;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

int envOr(const char* name, int fallback)
{
    const int value = qEnvironmentVariableIntValue(name);
    return value > 0 ? value : fallback;
}

long long msSince(Clock::time_point t)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

// What the workers saw, from their handler and events (called on worker threads).
class Seen
{
public:
    void ran(const std::string& id)
    {
        const std::lock_guard<std::mutex> hold(m_lock);
        ++m_runs[id];
        ++m_calls;
    }
    void event(const WorkerEvent& e)
    {
        const std::lock_guard<std::mutex> hold(m_lock);
        if (e.kind == WorkerEvent::Kind::TaskFinished)
            m_maxLateness = std::max(m_maxLateness, e.lateness);
        if (e.kind == WorkerEvent::Kind::ConnectionLost && !m_lostAt)
            m_lostAt = Clock::now();
        if (e.kind == WorkerEvent::Kind::ConnectionRestored && !m_restoredAt)
            m_restoredAt = Clock::now();
    }
    // From now on restoredAt() is the first restore that follows.
    void forgetRestores()
    {
        const std::lock_guard<std::mutex> hold(m_lock);
        m_restoredAt.reset();
    }
    long long unique() const
    {
        const std::lock_guard<std::mutex> hold(m_lock);
        return static_cast<long long>(m_runs.size());
    }
    long long calls() const
    {
        const std::lock_guard<std::mutex> hold(m_lock);
        return m_calls;
    }
    long long maxLateness() const
    {
        const std::lock_guard<std::mutex> hold(m_lock);
        return m_maxLateness;
    }
    std::optional<Clock::time_point> lostAt() const
    {
        const std::lock_guard<std::mutex> hold(m_lock);
        return m_lostAt;
    }
    std::optional<Clock::time_point> restoredAt() const
    {
        const std::lock_guard<std::mutex> hold(m_lock);
        return m_restoredAt;
    }

private:
    mutable std::mutex m_lock;
    std::map<std::string, int> m_runs;
    long long m_calls = 0;
    long long m_maxLateness = 0;
    std::optional<Clock::time_point> m_lostAt;
    std::optional<Clock::time_point> m_restoredAt;
};

// The suite lives in the anonymous namespace with Seen: its lambdas capture one, and a
// class with linkage holding such a capture is a -Wsubobject-linkage warning.
class TestFaults : public RedisSuite
{
    Q_OBJECT

protected:
    void initTest() override
    {
        m_conn = std::make_unique<Connection>(ConnectionOptions::fromUrl(m_server.unixUrl()));
        m_queue = std::make_unique<Queue>(*m_conn, "jobs");
        m_proxy = std::make_unique<FaultProxy>(m_server.port());
    }
    void cleanupTest() override
    {
        m_proxy.reset();
        m_queue.reset();
        m_conn.reset();
    }

private:
    // `count` tasks due now, pushed past the proxy.
    void pushDue(int count)
    {
        std::vector<PushRequest> batch;
        for (int i = 0; i < count; ++i) {
            PushRequest r;
            r.payload = "task " + std::to_string(i);
            batch.push_back(r);
            if (batch.size() == 1000 || i + 1 == count) {
                m_queue->pushBatch(batch);
                batch.clear();
            }
        }
    }

    WorkerOptions options(int concurrency, long long leaseMs) const
    {
        WorkerOptions o;
        o.connection = ConnectionOptions::fromUrl(m_proxy->url());
        o.queue = "jobs";
        o.concurrency = concurrency;
        o.leaseMs = leaseMs;
        return o;
    }

    // Nothing lost: every task ran, every one was acked exactly once in Redis, none is left;
    // and every duplicate run (and every claim whose reply never came back) is a lease that
    // ran out and was reaped: claimed = tasks + expired.
    void checkNothingLost(const Seen& seen, int tasks, const char* scenario)
    {
        const auto stats = m_queue->stats();
        const auto counts = m_queue->counts();
        const long long duplicates = seen.calls() - seen.unique();
        qInfo("%s: %d tasks, %lld lost, %lld duplicate runs, %lld leases expired, %lld claims, "
              "longest wait past due %lld ms",
              scenario, tasks, tasks - seen.unique(), duplicates, stats.at("expired"),
              stats.at("claimed"), seen.maxLateness());
        QCOMPARE(seen.unique(), static_cast<long long>(tasks));
        QCOMPARE(counts.pending + counts.active + counts.dead, 0LL);
        QCOMPARE(stats.at("pushed"), static_cast<long long>(tasks));
        QCOMPARE(stats.at("acked"), static_cast<long long>(tasks));
        QCOMPARE(stats.at("claimed"), tasks + stats.at("expired"));
        QVERIFY(duplicates <= stats.at("expired"));
    }

    std::unique_ptr<Connection> m_conn; // straight to the server, never through the proxy
    std::unique_ptr<Queue> m_queue;
    std::unique_ptr<FaultProxy> m_proxy;

    enum Refusal
    {
        MemoryFull, // OOM: maxmemory reached under noeviction
        DiskError,  // MISCONF: a snapshot failed and the server stopped writes
        ReadOnly,   // READONLY: a replica
    };

    // Makes the server refuse writes for `kind`'s reason, as it would in production.
    void refuseWrites(Refusal kind)
    {
        switch (kind) {
        case MemoryFull:
            m_server.cli({"CONFIG", "SET", "maxmemory-policy", "noeviction"});
            m_server.cli({"CONFIG", "SET", "maxmemory", "1"});
            break;
        case DiskError: {
            // The snapshot's folder vanishes under the server: BGSAVE fails, and with a save
            // point set, stop-writes-on-bgsave-error refuses writes until one succeeds.
            const QString gone = m_server.dataDir() + "/gone";
            QDir().mkpath(gone);
            m_server.cli({"CONFIG", "SET", "dir", gone});
            QDir(gone).removeRecursively();
            m_server.cli({"CONFIG", "SET", "save", "3600 1"});
            m_server.cli({"CONFIG", "SET", "stop-writes-on-bgsave-error", "yes"});
            m_server.cli({"BGSAVE"});
            QTRY_VERIFY(
                m_server.cli({"INFO", "persistence"}).contains("rdb_last_bgsave_status:err"));
            break;
        }
        case ReadOnly:
            m_server.cli({"REPLICAOF", "127.0.0.1", "1"}); // a master that does not exist
            break;
        }
    }
    void allowWrites(Refusal kind)
    {
        switch (kind) {
        case MemoryFull:
            m_server.cli({"CONFIG", "SET", "maxmemory", "0"});
            break;
        case DiskError:
            m_server.cli({"CONFIG", "SET", "dir", m_server.dataDir()});
            m_server.cli({"CONFIG", "SET", "save", ""});
            m_server.cli({"CONFIG", "SET", "stop-writes-on-bgsave-error", "no"});
            break;
        case ReadOnly:
            m_server.cli({"REPLICAOF", "NO", "ONE"});
            break;
        }
    }

private slots:
    // 100 ms +- 50 ms each way. Quick tasks on the default lease, and tasks twice as long as a
    // short lease: the worker renews in time, no lease runs out, nothing runs twice.
    void latencyKeepsLeases_data()
    {
        QTest::addColumn<int>("tasks");
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<long long>("leaseMs");
        QTest::addColumn<int>("handlerMs");
        QTest::newRow("quick tasks, default lease")
            << envOr("DELAYQ_FAULT_TASKS", 1000) << 2 << WorkerOptions{}.leaseMs << 0;
        QTest::newRow("3 s tasks, 1.5 s lease") << 4 << 2 << 1500LL << 3000;
    }
    void latencyKeepsLeases()
    {
        QFETCH(int, tasks);
        QFETCH(int, concurrency);
        QFETCH(long long, leaseMs);
        QFETCH(int, handlerMs);
        m_proxy->setLatency(100ms, 50ms);
        pushDue(tasks);
        Seen seen;
        QElapsedTimer timer;
        timer.start();
        Worker w(
            options(concurrency, leaseMs),
            [&](const ClaimedTask& t) {
                seen.ran(t.id);
                std::this_thread::sleep_for(std::chrono::milliseconds(handlerMs));
                return HandlerResult::ack();
            },
            [&](const WorkerEvent& e) { seen.event(e); });
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(m_queue->stats().at("acked"), static_cast<long long>(tasks),
                                  120000);
        const double seconds = timer.elapsed() / 1000.0;
        w.stop();
        qInfo("100 +- 50 ms each way: %d tasks in %.1f s (%.1f tasks/s)", tasks, seconds,
              tasks / seconds);
        QCOMPARE(w.counters().leaseLost, 0LL);
        QCOMPARE(m_queue->stats().at("expired"), 0LL);
        QCOMPARE(seen.calls(), static_cast<long long>(tasks));
        checkNothingLost(seen, tasks, "latency");
    }

    // Renewals never wait behind upkeep: a dead worker left 40 expired leases, which this
    // worker reaps one a call (reapBatch 1), ten calls a turn: on this link a turn is about
    // 2 s, longer than the 1.5 s lease of the 3 s tasks it holds meanwhile. Renewals that
    // shared the reaper's connection (and so waited for its turn) lost those leases.
    void renewalsDoNotWaitForReaps()
    {
        const int orphans = 40;
        const int tasks = 4;
        std::vector<PushRequest> batch(orphans);
        for (auto& r : batch)
            r.maxAttempts = 1; // reaped straight to dead, never run here
        m_queue->pushBatch(batch);
        std::set<std::string> orphanIds;
        for (const auto& t : m_queue->claim(orphans, 300, "gone").tasks)
            orphanIds.insert(t.id);
        QCOMPARE(static_cast<int>(orphanIds.size()), orphans);
        QTRY_COMPARE(m_queue->counts().leaseExpired, static_cast<long long>(orphans));
        m_proxy->setLatency(100ms, 50ms);
        pushDue(tasks);
        Seen seen;
        WorkerOptions o = options(2, 1500);
        o.reapBatch = 1;
        Worker w(
            o,
            [&](const ClaimedTask& t) {
                seen.ran(t.id);
                std::this_thread::sleep_for(3s);
                return HandlerResult::ack();
            },
            [&](const WorkerEvent& e) { seen.event(e); });
        QVERIFY(w.start());
        // Watched from the server's side, straight (not through the proxy): a lease of this
        // worker's that ran out while it held the task (an ack still finds an unreaped one,
        // so the outcome alone would not tell), read as a deadline at or before a server time
        // taken before the read. Orphans are told by id: a page reads the set and then the
        // records, and an orphan reaped in between shows no worker.
        std::set<std::string> ranOut;
        QElapsedTimer timer;
        timer.start();
        while ((m_queue->stats().at("acked") < tasks || m_queue->counts().dead < orphans) &&
               timer.elapsed() < 60000) {
            const long long now = m_conn->serverTimeMs();
            for (const Task& t : m_queue->page(TaskSet::Active, 0, 100))
                if (!orphanIds.count(t.id) && t.score <= now)
                    ranOut.insert(t.id);
            std::this_thread::sleep_for(10ms);
        }
        w.stop();
        qInfo("reaps beside renewals: %zu leases ran out, %lld lost, %lld expired (%d orphans)",
              ranOut.size(), w.counters().leaseLost, m_queue->stats().at("expired"), orphans);
        QVERIFY2(ranOut.empty(),
                 qPrintable(QString::fromStdString(std::accumulate(
                     ranOut.begin(), ranOut.end(), std::string("ran out:"),
                     [](std::string a, const std::string& id) { return a + " " + id; }))));
        QCOMPARE(m_queue->counts().dead, static_cast<long long>(orphans));
        QCOMPARE(w.counters().leaseLost, 0LL);
        QCOMPARE(m_queue->stats().at("expired"), static_cast<long long>(orphans));
        QCOMPARE(seen.calls(), static_cast<long long>(tasks));
        QCOMPARE(seen.unique(), static_cast<long long>(tasks));
    }

    // A partition (the proxy holds every byte) mid-drain, then healed: the workers notice
    // within their command timeout, are back within a second of the heal, and the tasks held
    // across it finish (their leases outlast the partition) or come back by lease.
    void partitionMidDrain()
    {
        const int tasks = envOr("DELAYQ_FAULT_TASKS", 1000);
        const int partitionS = envOr("DELAYQ_PARTITION_SECONDS", 10);
        pushDue(tasks);
        Seen seen;
        Worker w(
            options(2, WorkerOptions{}.leaseMs),
            [&](const ClaimedTask& t) {
                seen.ran(t.id);
                std::this_thread::sleep_for(2ms);
                return HandlerResult::ack();
            },
            [&](const WorkerEvent& e) { seen.event(e); });
        QVERIFY(w.start());
        QTRY_VERIFY_WITH_TIMEOUT(seen.calls() >= tasks / 5, 30000);
        const auto cutAt = Clock::now();
        m_proxy->blackhole();
        const auto timeout = WorkerOptions{}.connection.commandTimeout;
        QTRY_VERIFY_WITH_TIMEOUT(seen.lostAt().has_value(), timeout.count() + 2000);
        const long long noticedMs =
            std::chrono::duration_cast<std::chrono::milliseconds>(*seen.lostAt() - cutAt).count();
        QTest::qWait(partitionS * 1000 - static_cast<int>(msSince(cutAt)));
        const long long acksBeforeHeal = m_queue->stats().at("acked");
        seen.forgetRestores();
        const auto healAt = Clock::now();
        m_proxy->heal();
        QTRY_VERIFY_WITH_TIMEOUT(seen.restoredAt().has_value(), 10000);
        const long long reconnectMs =
            std::chrono::duration_cast<std::chrono::milliseconds>(*seen.restoredAt() - healAt)
                .count();
        QTRY_COMPARE_WITH_TIMEOUT(m_queue->stats().at("acked"), static_cast<long long>(tasks),
                                  120000);
        w.stop();
        qInfo("%d s partition: noticed after %lld ms, reconnected %lld ms after the heal, "
              "%lld acked while cut off",
              partitionS, noticedMs, reconnectMs, acksBeforeHeal);
        checkNothingLost(seen, tasks, "partition");
        QVERIFY2(noticedMs <= timeout.count() + 1000, qPrintable(QString::number(noticedMs)));
        QVERIFY2(reconnectMs <= 1000, qPrintable(QString::number(reconnectMs)));
    }

    // One client chunk in 50 resets its connection, half before the server sees it, half
    // after (the reply lost). Every script call is applied once or not at all: the server's
    // counters match what the workers saw. A short lease brings lost claims back quickly.
    void randomResets()
    {
        const int tasks = envOr("DELAYQ_FAULT_TASKS", 1000);
        m_proxy->setResetOneIn(50);
        pushDue(tasks);
        Seen seen;
        WorkerOptions o = options(2, 2000);
        o.batch = o.maxBatch = 5; // many small calls, so many of them meet a reset
        Worker w(
            o,
            [&](const ClaimedTask& t) {
                seen.ran(t.id);
                return HandlerResult::ack();
            },
            [&](const WorkerEvent& e) { seen.event(e); });
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(m_queue->stats().at("acked"), static_cast<long long>(tasks),
                                  120000);
        QTRY_COMPARE_WITH_TIMEOUT(m_queue->counts().active, 0LL, 10000);
        w.stop();
        qInfo("resets: %lld connections reset, %lld opened", m_proxy->resets(),
              m_proxy->connections());
        QVERIFY(m_proxy->resets() >= 3);
        checkNothingLost(seen, tasks, "resets");
    }

    // A producer cut off: the push fails with a timeout naming the cause and says nothing was
    // pushed; the same id pushed again after the heal makes one task, whether or not the
    // first push reached Redis when the held bytes were let through.
    void producerDuringPartition()
    {
        auto o = ConnectionOptions::fromUrl(m_proxy->url());
        o.commandTimeout = 1000ms;
        Connection conn(o);
        Queue q(conn, "jobs");
        PushRequest r;
        r.id = "order-42";
        r.payload = "cancel unpaid";
        r.delayMs = 60000;
        m_proxy->blackhole();
        try {
            q.push(r);
            QFAIL("a push through a partition reported success");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Timeout);
            QVERIFY2(std::string(e.what()).find("timed out") != std::string::npos, e.what());
        }
        m_proxy->heal();
        const PushResult again = q.push(r);
        QVERIFY(again.status == PushResult::Status::Created ||
                again.status == PushResult::Status::Exists);
        QCOMPARE(m_queue->counts().pending, 1LL);
        QCOMPARE(m_queue->stats().at("pushed"), 1LL);
    }
    // The same through `delayq push`: exit 3 and the cause on stderr, then one task for the id.
    void cliPushDuringPartition()
    {
        const QStringList push{"--url",
                               QString::fromStdString(m_proxy->url()),
                               "push",
                               "jobs",
                               "cancel unpaid",
                               "--id",
                               "order-7",
                               "--in",
                               "1h"};
        m_proxy->blackhole();
        QProcess cut;
        cut.start(DELAYQ_CLI, push);
        QVERIFY(cut.waitForFinished(30000));
        const QString said = QString::fromUtf8(cut.readAllStandardError());
        QCOMPARE(cut.exitCode(), 3);
        QVERIFY2(said.contains("timed out"), qPrintable(said));
        m_proxy->heal();
        QProcess again;
        again.start(DELAYQ_CLI, push);
        QVERIFY(again.waitForFinished(30000));
        QCOMPARE(again.exitCode(), 0);
        QTRY_COMPARE(m_queue->counts().pending, 1LL);
        QCOMPARE(m_queue->stats().at("pushed"), 1LL);
        qInfo("cut off: exit %d, %s", cut.exitCode(), qPrintable(said.trimmed()));
    }

    // A server that refuses writes: the worker claims nothing (a claim is a write), leaves
    // the queue as it was, backs off, and drains it once the server accepts writes again.
    void refusingServerThenResume_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("code");
        QTest::addColumn<bool>("claimsRefused");
        // Redis lets a script that has begun writing go on under maxmemory, and a claim's
        // first write is a removal: the backlog drains, which is what frees memory.
        QTest::newRow("maxmemory, noeviction")
            << int(MemoryFull) << int(ErrorCode::OutOfMemory) << false;
        QTest::newRow("a failed snapshot") << int(DiskError) << int(ErrorCode::DiskError) << true;
        QTest::newRow("a read-only replica")
            << int(ReadOnly) << int(ErrorCode::ReadOnlyReplica) << true;
    }
    void refusingServerThenResume()
    {
        QFETCH(int, kind);
        QFETCH(int, code);
        QFETCH(bool, claimsRefused);
        if (kind == DiskError) // CONFIG SET dir is a protected config since Redis 7
            QVERIFY(m_server.start({"--enable-protected-configs", "yes"}));
        const int tasks = 50;
        pushDue(tasks);
        const QByteArray digest = m_server.cli({"DEBUG", "DIGEST"});
        refuseWrites(static_cast<Refusal>(kind));
        auto allow = qScopeGuard([&] { allowWrites(static_cast<Refusal>(kind)); });
        PushRequest r;
        r.payload = "refused";
        try {
            m_queue->push(r);
            QFAIL("a refused push reported success");
        } catch (const Error& e) {
            QCOMPARE(static_cast<int>(e.code()), code);
            QVERIFY2(std::string(e.what()).find("refuses writes") != std::string::npos, e.what());
        }
        Seen seen;
        std::mutex lock;
        std::vector<std::string> errors;
        Worker w(
            options(2, WorkerOptions{}.leaseMs),
            [&](const ClaimedTask& t) {
                seen.ran(t.id);
                return HandlerResult::ack();
            },
            [&](const WorkerEvent& e) {
                if (e.kind == WorkerEvent::Kind::Error) {
                    const std::lock_guard<std::mutex> hold(lock);
                    errors.push_back(e.error);
                }
            });
        QVERIFY(w.start());
        if (claimsRefused) {
            QTRY_VERIFY(w.counters().connectionErrors >= 2 || [&] {
                const std::lock_guard<std::mutex> hold(lock);
                return errors.size() >= 2;
            }());
            QCOMPARE(seen.calls(), 0LL);
            QCOMPARE(m_server.cli({"DEBUG", "DIGEST"}), digest); // nothing half-applied
        } else {
            QTRY_COMPARE(m_queue->stats().at("acked"), static_cast<long long>(tasks));
        }
        allow.dismiss();
        allowWrites(static_cast<Refusal>(kind));
        QTRY_COMPARE_WITH_TIMEOUT(m_queue->stats().at("acked"), static_cast<long long>(tasks),
                                  15000);
        w.stop();
        {
            const std::lock_guard<std::mutex> hold(lock);
            qInfo("refused while %s: %zu errors reported, first: %s", QTest::currentDataTag(),
                  errors.size(), errors.empty() ? "(none)" : errors.front().c_str());
        }
        checkNothingLost(seen, tasks, QTest::currentDataTag());
    }
};

} // namespace

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
