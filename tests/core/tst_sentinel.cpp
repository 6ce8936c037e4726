#include "expecterror.h"
#include "groupsuite.h"
#include "runcount.h"
#include "sentinelgroup.h"
#include "topologytasks.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/subscriber.h>
#include <delayq/worker.h>

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <atomic>
#include <chrono>
#include <string>

using namespace delayq;
using namespace std::chrono_literals;

namespace {

std::string address(const RedisServer& server)
{
    return "127.0.0.1:" + std::to_string(server.port());
}

} // namespace

// Connections through Redis Sentinel: resolving the master, the errors when that cannot be
// done, and following a failover (a demoted master answering READONLY, a manual failover, and
// a worker draining a queue while the master is SIGKILLed).
class TestSentinel : public GroupSuite
{
    Q_OBJECT

public:
    TestSentinel() : GroupSuite(m_group, "sentinel group") {}

private slots:
    void pushClaimAckThroughSentinels();
    void skipsUnreachableSentinels_data();
    void skipsUnreachableSentinels();
    void unknownMasterName();
    void allSentinelsUnreachable();
    void wrongSentinelPassword();
    void tlsToPlainSentinelsIsRefused();
    void leavesAMasterThatAnswersReadOnly();
    void followsManualFailover();
    void workerDrainsQueueThroughFailover();

private:
    ConnectionOptions groupOptions(const std::string& masterName = SentinelGroup::kMasterName)
    {
        return ConnectionOptions::fromUrl(m_group.url(masterName));
    }

    SentinelGroup m_group;
};

void TestSentinel::pushClaimAckThroughSentinels()
{
    RedisServer* master = m_group.master();
    QVERIFY(master);
    Connection connection(groupOptions());
    Queue queue(connection, "sentinel");
    queue.push(task("t1"));
    QCOMPARE(connection.serverAddress(), address(*master));
    QCOMPARE(connection.masterChanges(), 0);
    // The task is on the master the sentinels name, not merely somewhere.
    QCOMPARE(master->cli({"ZCARD", "dq:{sentinel}:pending"}).trimmed(), QByteArray("1"));
    claimAndAckTheOnly(queue, "t1", "w");
}

void TestSentinel::skipsUnreachableSentinels_data()
{
    QTest::addColumn<bool>("frozen");
    QTest::newRow("first one refuses connections") << false;
    QTest::newRow("first one accepts but never answers") << true;
}

void TestSentinel::skipsUnreachableSentinels()
{
    QFETCH(bool, frozen);
    RedisServer& first = m_group.sentinel(0);
    std::string url = m_group.url();
    if (frozen)
        first.freeze();
    else
        url.insert(std::string("redis+sentinel://").size(),
                   "127.0.0.1:" + std::to_string(RedisServer::freePort()) + ",");
    QElapsedTimer timer;
    timer.start();
    const auto error = errorOf([&] { Connection(ConnectionOptions::fromUrl(url)).ping(); });
    const qint64 elapsed = timer.elapsed();
    first.thaw();
    QVERIFY2(!error, error ? error->what() : "");
    // A frozen sentinel costs its short timeout (1 s), not the command timeout (5 s).
    QVERIFY2(elapsed < 3000, qPrintable(QString::number(elapsed)));
}

void TestSentinel::unknownMasterName()
{
    Connection connection(groupOptions("nosuchmaster"));
    const auto error = errorOf([&] { connection.connect(); });
    QVERIFY(
        isError(error, ErrorCode::Connection, "no sentinel knows a master named 'nosuchmaster'"));
}

void TestSentinel::allSentinelsUnreachable()
{
    const std::string nodes = "127.0.0.1:" + std::to_string(RedisServer::freePort()) +
                              ",127.0.0.1:" + std::to_string(RedisServer::freePort());
    Connection connection(ConnectionOptions::fromUrl("redis+sentinel://" + nodes + "/mymaster"));
    QElapsedTimer timer;
    timer.start();
    const auto error = errorOf([&] { connection.command({"PING"}); });
    QVERIFY(error);
    QCOMPARE(error->code(), ErrorCode::Connection);
    QVERIFY2(QString(error->what())
                 .startsWith(QString::fromStdString("no sentinel of " + nodes + " answered: ")),
             error->what());
    QVERIFY(timer.elapsed() < 2000);
    QVERIFY(!connection.isConnected());
}

void TestSentinel::wrongSentinelPassword()
{
    // These sentinels have no password: AUTH to them is refused, and the message says so.
    Connection connection(
        ConnectionOptions::fromUrl(m_group.url() + "?sentinel_password=Hunter2Pw"));
    const auto error = errorOf([&] { connection.connect(); });
    QVERIFY(error);
    QCOMPARE(error->code(), ErrorCode::Connection);
    const QString message = error->what();
    QVERIFY2(message.contains("no sentinel of") && message.contains("authentication"),
             error->what());
    QVERIFY2(!message.contains("Hunter2"), error->what());
}

void TestSentinel::tlsToPlainSentinelsIsRefused()
{
    // rediss+sentinel:// to sentinels that speak plain text: refused, never downgraded.
    Connection connection(ConnectionOptions::fromUrl(
        "rediss+sentinel://127.0.0.1:" + std::to_string(m_group.sentinelPort(0)) + "/mymaster"));
    const auto error = errorOf([&] { connection.connect(); });
    QVERIFY(isError(error, ErrorCode::Connection, "TLS"));
    QVERIFY(!connection.isConnected());
}

void TestSentinel::leavesAMasterThatAnswersReadOnly()
{
    // The master is demoted behind the sentinels' backs and keeps its clients (as when a
    // managed service disables CLIENT KILL): the connection must not stay on it.
    RedisServer* master = m_group.master();
    QVERIFY(master);
    Connection connection(groupOptions());
    Queue queue(connection, "readonly");
    queue.push(task("before"));
    master->cli({"REPLICAOF", "127.0.0.1", QString::number(RedisServer::freePort())});

    auto error = errorOf([&] { queue.push(task("during")); });
    // The sentinels still name it: the next connect finds it is a replica and says so.
    const auto stillReplica = errorOf([&] { connection.connect(); });
    master->cli({"REPLICAOF", "NO", "ONE"});
    QVERIFY(error);
    QCOMPARE(error->code(), ErrorCode::ReadOnlyReplica);
    QVERIFY2(!connection.isConnected(), "a READONLY reply must drop the connection");
    QVERIFY(isError(stillReplica, ErrorCode::Connection, "is a replica now"));

    error = errorOf([&] { queue.push(task("after")); });
    QVERIFY2(!error, error ? error->what() : "");
    QCOMPARE(connection.serverAddress(), address(*master));
    QCOMPARE(queue.counts().pending, 2LL);
    QVERIFY2(m_group.waitUntilReady(15000), qPrintable(m_group.errorString()));
}

void TestSentinel::followsManualFailover()
{
    RedisServer* oldMaster = m_group.master();
    QVERIFY(oldMaster);
    Connection connection(groupOptions());
    Queue queue(connection, "failover");
    queue.push(task("t1"));
    QCOMPARE(connection.command({"WAIT", "1", "5000"}).integer, 1LL);
    // A worker on another queue, idle on the old master when it is demoted.
    std::atomic<bool> workerRan{false};
    WorkerOptions options;
    options.connection = groupOptions();
    options.queue = "failover-work";
    Worker worker(options, [&](const ClaimedTask&) {
        workerRan = true;
        return HandlerResult::ack();
    });
    worker.start();

    QElapsedTimer timer;
    timer.start();
    QCOMPARE(
        m_group.sentinel(1).cli({"SENTINEL", "FAILOVER", SentinelGroup::kMasterName}).trimmed(),
        QByteArray("OK"));
    const int newPort = m_group.waitForNewMaster(oldMaster->port(), 20000);
    QVERIFY2(newPort != 0, "the sentinels did not fail over");
    qInfo("SENTINEL FAILOVER: a new master in %lld ms", timer.elapsed());
    // The sentinels turn the old master into a replica some seconds later (when they next
    // see it claim to be a master) and drop its clients then. Demoting it now, without
    // dropping anyone, leaves this connection on a server that answers READONLY.
    oldMaster->cli({"REPLICAOF", "127.0.0.1", QString::number(newPort)});

    const auto error = errorOf([&] { queue.push(task("t2")); });
    QVERIFY(error);
    QCOMPARE(error->code(), ErrorCode::ReadOnlyReplica);
    QVERIFY(!connection.isConnected());
    const auto again = errorOf([&] { queue.push(task("t2")); });
    QVERIFY2(!again, again ? again->what() : "");
    QCOMPARE(connection.serverAddress(), "127.0.0.1:" + std::to_string(newPort));
    QCOMPARE(connection.masterChanges(), 1);
    QCOMPARE(queue.counts().pending, 2LL);
    // Its threads got READONLY too, and found the new master on their next try.
    Queue(connection, "failover-work").push(task("w1"));
    QTRY_VERIFY_WITH_TIMEOUT(workerRan, 10000);
    worker.stop();
    QVERIFY2(m_group.waitUntilReady(20000), qPrintable(m_group.errorString()));
}

void TestSentinel::workerDrainsQueueThroughFailover()
{
    // As tests/chaos: every task must run at least once, and none be left pending or active.
    constexpr int kTasks = 300;
    Connection connection(groupOptions());
    Queue queue(connection, "drain");
    RunCount::pushRetried(queue, kTasks);
    // Replication is asynchronous: the pushes must be on the replica before the master dies.
    QCOMPARE(connection.command({"WAIT", "1", "5000"}).integer, 1LL);

    RunCount runs;
    using Clock = std::chrono::steady_clock;
    std::atomic<long long> firstAckAfterKill{0};
    std::atomic<long long> killedAt{0};
    const auto sinceEpoch = [] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   Clock::now().time_since_epoch())
            .count();
    };
    WorkerOptions options;
    options.connection = groupOptions();
    options.queue = "drain";
    options.concurrency = 2;
    options.leaseMs = 1000; // short: acks lost with the master come back quickly
    Worker worker(
        options,
        [&](const ClaimedTask& task) {
            QThread::msleep(10);
            runs.add(task.id);
            return HandlerResult::ack();
        },
        [&](const WorkerEvent& e) {
            long long expected = 0;
            if (e.kind == WorkerEvent::Kind::TaskFinished && e.outcome == TaskOutcome::Acked &&
                killedAt != 0)
                firstAckAfterKill.compare_exchange_strong(expected, sinceEpoch());
        });
    worker.start();

    Subscriber subscriber(groupOptions());
    subscriber.subscribe("news");
    QTRY_VERIFY_WITH_TIMEOUT(runs.ran() >= kTasks / 3, 20000);
    RedisServer* master = m_group.master();
    QVERIFY(master);
    const int oldPort = master->port();
    master->crash();
    killedAt = sinceEpoch();
    const int newPort = m_group.waitForNewMaster(oldPort, 30000);
    QVERIFY2(newPort != 0, "the sentinels did not fail over");
    const long long failedOverAt = sinceEpoch();

    QTRY_VERIFY_WITH_TIMEOUT(runs.drained(queue, kTasks), 30000);
    worker.stop();

    qInfo("failover under a worker: sentinels named the new master %lld ms after the SIGKILL; "
          "first ack on it after %lld ms; %d of %d tasks ran more than once",
          failedOverAt - killedAt, firstAckAfterKill - killedAt, runs.twice(), kTasks);
    QCOMPARE(connection.serverAddress(), "127.0.0.1:" + std::to_string(newPort));
    QCOMPARE(runs.distinct(), kTasks);

    // The subscriber's connection died with the master; subscribing again finds the new one.
    QVERIFY(errorOf([&] { subscriber.waitMessage(2000ms); }));
    subscriber.subscribe("news");
    QCOMPARE(connection.command({"PUBLISH", "news", "hi"}).integer, 1LL);
    QCOMPARE(subscriber.waitMessage(2000ms), std::optional<std::string>("hi"));
}

QTEST_GUILESS_MAIN(TestSentinel)
#include "tst_sentinel.moc"
