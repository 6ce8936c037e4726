#include "cluster/keyslot.h"
#include "clustergroup.h"
#include "expecterror.h"
#include "groupsuite.h"
#include "runcount.h"
#include "testcertificates.h"
#include "topologytasks.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/plainqueue.h>
#include <delayq/queue.h>
#include <delayq/subscriber.h>
#include <delayq/worker.h>

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <atomic>
#include <map>
#include <set>
#include <string>

using namespace delayq;

namespace {

// A cluster node that never meets another, serving the slots 0..lastSlot.
bool startLoneNode(RedisServer& lone, int lastSlot)
{
    if (!lone.start({"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                     "--cluster-port", QString::number(RedisServer::freePort())}))
        return false;
    lone.cli({"CLUSTER", "ADDSLOTSRANGE", "0", QString::number(lastSlot)});
    return true;
}

} // namespace

// delayq on a real Redis Cluster (three masters, three replicas; tests/support/clustergroup.*):
// every operation, so every script, on a queue of each master; discovery and the registry
// across masters; auto-detection from a redis:// URL; the refusals; and a worker draining a
// queue while its slot is migrated, and while its master is SIGKILLed.
class TestCluster : public GroupSuite
{
    Q_OBJECT

public:
    TestCluster() : GroupSuite(m_group, "cluster") {}

protected:
    void initGroupSuite() override;

private slots:
    void operationsOnEachMaster_data();
    void operationsOnEachMaster();
    void plainScriptsOnEachMaster_data();
    void plainScriptsOnEachMaster();
    void registryAndNodesAcrossMasters();
    void discoveryCoversEveryMaster();
    void pipelineSplitsPerNodeInOrder();
    void detectsClusterFromPlainUrl_data();
    void detectsClusterFromPlainUrl();
    void malformedUrls_data();
    void malformedUrls();
    void urlRoundTrip();
    void overTls();
    void allSeedsUnreachable();
    void wrongPassword();
    void notAClusterNode();
    void uncoveredSlots();
    void oneNodeClusterNamesItselfAndWakes();
    void workerFollowsReshard();
    void workerFollowsFailover(); // last: it leaves one master dead

private:
    ConnectionOptions clusterOptions() const { return ConnectionOptions::fromUrl(m_group.url()); }
    // A queue name (prefix + n) whose slot the given master serves.
    std::string queueOn(int master, const std::string& prefix);
    // Every task of `queue` ran at least once and nothing is left pending or active, while
    // `disturb` moved or killed its master under a running worker.
    void drainWhile(const std::string& queueName, const std::function<void()>& disturb);

    ClusterGroup m_group;
    std::vector<int> m_masters;
};

void TestCluster::initGroupSuite()
{
    m_masters = m_group.masters();
    QCOMPARE(m_masters.size(), size_t(3));
}

std::string TestCluster::queueOn(int master, const std::string& prefix)
{
    for (int n = 0; n < 10000; ++n) {
        const std::string name = prefix + std::to_string(n);
        if (m_group.masterOf(keyslot::ofKey(name)) == master)
            return name;
    }
    return {};
}

void TestCluster::operationsOnEachMaster_data()
{
    QTest::addColumn<int>("which");
    QTest::newRow("first master") << 0;
    QTest::newRow("second master") << 1;
    QTest::newRow("third master") << 2;
}

// Each native script (push, claim, ack, nack, extend, reap, cancel, reschedule, requeue,
// delete_dead, purge) runs on the master of the queue's slot. A script that touched a key of
// another slot would be refused there ("non local key" or CROSSSLOT) and this would throw.
void TestCluster::operationsOnEachMaster()
{
    QFETCH(int, which);
    const int master = m_masters[static_cast<size_t>(which)];
    const std::string name = queueOn(master, "ops");
    Connection connection(clusterOptions());
    Queue queue(connection, name);
    queue.setConfig("max_attempts", "1");
    queue.pushBatch(
        {task("now"), task("later", 3'600'000), task("gone", 3'600'000), task("moved", 3'600'000)});
    // The tasks are on that master, not merely somewhere.
    QCOMPARE(m_group.node(master)
                 .cli({"ZCARD", QString::fromStdString(queue.keys().pending())})
                 .trimmed(),
             QByteArray("4"));
    QCOMPARE(connection.nodeForKey(queue.keys().pending()), m_group.address(master));

    QCOMPARE(queue.page(TaskSet::Pending, 0, 10).size(), size_t(4));
    const long long now = connection.serverNowMs();
    const auto buckets = queue.histogram(now - 1000, now + 7'200'000, 2);
    QCOMPARE(buckets.size(), size_t(2));
    QCOMPARE(buckets[0] + buckets[1], 4LL);
    QCOMPARE(queue.cancel({"gone"})[0].status, IdResult::Status::Done);
    QCOMPARE(queue.reschedule({"moved"}, std::nullopt, 0)[0].status, IdResult::Status::Done);

    ClaimResult claim = queue.claim(10, 5000, "w");
    QCOMPARE(claim.tasks.size(), size_t(2));
    QVERIFY(queue.extend(claim.tasks[0].id, claim.tasks[0].token, 10000) > now);
    queue.ack(claim.tasks[0].id, claim.tasks[0].token);
    QVERIFY(queue.nack(claim.tasks[1].id, claim.tasks[1].token, "boom").dead);
    QCOMPARE(queue.requeue({claim.tasks[1].id})[0].status, IdResult::Status::Done);
    claim = queue.claim(10, 1, "w");
    QCOMPARE(claim.tasks.size(), size_t(1));
    QThread::msleep(20);
    QCOMPARE(queue.reap(10).dead, 1);
    QCOMPARE(queue.deleteDead({claim.tasks[0].id})[0].status, IdResult::Status::Done);
    QCOMPARE(queue.purge().done, 1LL);
    const QueueCounts counts = queue.counts();
    QCOMPARE(counts.pending + counts.active + counts.dead, 0LL);
}

void TestCluster::plainScriptsOnEachMaster_data()
{
    operationsOnEachMaster_data();
}

// plain_pop (with a forward list in the same slot) and plain_reschedule on each master.
void TestCluster::plainScriptsOnEachMaster()
{
    QFETCH(int, which);
    const int master = m_masters[static_cast<size_t>(which)];
    const std::string tag = queueOn(master, "plain");
    const std::string key = "jobs:{" + tag + "}";
    Connection connection(clusterOptions());
    PlainQueue plain(connection, key, PlainQueue::ScoreUnit::Milliseconds);
    const long long now = connection.serverNowMs();
    QVERIFY(plain.push({"a", "b"}, now - 10)[0]);
    QVERIFY(plain.reschedule({"b"}, now + 3'600'000)[0]);
    const auto popped = plain.pop(10, "out:{" + tag + "}");
    QCOMPARE(popped.members.size(), size_t(1));
    QCOMPARE(popped.members[0].member, std::string("a"));
    QCOMPARE(connection.command({"LLEN", "out:{" + tag + "}"}).integer, 1LL);
    QCOMPARE(plain.size(), 1LL);
    connection.command({"DEL", key, "out:{" + tag + "}"});
}

void TestCluster::registryAndNodesAcrossMasters()
{
    Connection connection(clusterOptions());
    std::map<std::string, std::string> nodeOf;
    for (int m : m_masters) {
        const std::string name = queueOn(m, "reg");
        Queue(connection, name).push(task("x"));
        nodeOf[name] = m_group.address(m);
    }
    // The registry is one key on one master; the summaries pipeline reads every master.
    const auto names = Queue::listQueues(connection, "dq");
    for (const auto& [name, node] : nodeOf) {
        QVERIFY(std::find(names.begin(), names.end(), name) != names.end());
        QCOMPARE(connection.nodeForKey(Keys("dq", name).pending()), node);
    }
    for (const auto& s : Queue::summaries(connection, names, "dq"))
        if (nodeOf.count(s.name))
            QCOMPARE(s.counts.pending, 1LL);

    const auto nodes = connection.clusterNodes();
    QCOMPARE(nodes.size(), size_t(6));
    int masters = 0;
    int covered = 0;
    for (const auto& n : nodes) {
        QVERIFY2(n.reachable, n.address.c_str());
        if (!n.master) {
            QVERIFY(!n.masterId.empty());
            continue;
        }
        ++masters;
        for (const auto& [first, last] : n.slotRanges)
            covered += last - first + 1;
    }
    QCOMPARE(masters, 3);
    QCOMPARE(covered, 16384);
    QCOMPARE(connection.masters().size(), size_t(3));
    for (const auto& [name, node] : nodeOf)
        Queue(connection, name).purge();
}

void TestCluster::discoveryCoversEveryMaster()
{
    Connection connection(clusterOptions());
    std::set<std::string> expected;
    for (int m : m_masters) {
        const std::string key = "legacy:{" + queueOn(m, "disc") + "}";
        connection.command({"ZADD", key, std::to_string(connection.serverNowMs()), "m"});
        expected.insert(key);
    }
    std::set<std::string> found;
    std::string cursor = "0";
    int steps = 0;
    do {
        for (const auto& c : PlainQueue::discover(connection, cursor, "dq", 10))
            found.insert(c.key);
        QVERIFY(++steps < 1000);
    } while (cursor != "0");
    for (const auto& key : expected) {
        QVERIFY2(found.count(key), key.c_str());
        connection.command({"DEL", key});
    }
    std::string bad = "17";
    const auto error = errorOf([&] { PlainQueue::discover(connection, bad); });
    QVERIFY(isError(error, ErrorCode::InvalidArgument, "N:C"));
}

void TestCluster::pipelineSplitsPerNodeInOrder()
{
    Connection connection(clusterOptions());
    std::vector<std::vector<std::string>> commands;
    std::vector<std::string> keys;
    for (int i = 0; i < 60; ++i) {
        keys.push_back("order:" + std::to_string(i)); // no hash tag: spread over the masters
        commands.push_back({"SET", keys.back(), std::to_string(i)});
    }
    commands.push_back({"PING"});
    for (const auto& k : keys)
        commands.push_back({"GET", k});
    const auto replies = connection.pipeline(commands);
    QCOMPARE(replies.size(), commands.size());
    QCOMPARE(replies[60].str, std::string("PONG"));
    for (int i = 0; i < 60; ++i)
        QCOMPARE(replies[61 + static_cast<size_t>(i)].str, std::to_string(i));
    for (const auto& k : keys)
        connection.command({"DEL", k});
}

void TestCluster::detectsClusterFromPlainUrl_data()
{
    QTest::addColumn<bool>("replica");
    QTest::newRow("a master") << false;
    QTest::newRow("a replica") << true;
}

void TestCluster::detectsClusterFromPlainUrl()
{
    QFETCH(bool, replica);
    const int node = replica ? m_group.replicaOf(m_masters[0]) : m_masters[0];
    QVERIFY(node >= 0);
    Connection connection(ConnectionOptions::fromUrl(m_group.node(node).tcpUrl()));
    connection.ping();
    QVERIFY(connection.isCluster());
    QCOMPARE(connection.masters().size(), size_t(3));
    // A queue on another master than the one named works as well.
    const std::string name = queueOn(m_masters[2], "detect");
    Queue queue(connection, name);
    queue.push(task("t"));
    QCOMPARE(queue.counts().pending, 1LL);
    QCOMPARE(connection.nodeForKey(queue.keys().pending()), m_group.address(m_masters[2]));
    queue.purge();
    // A plain server is still one server.
    RedisServer single;
    QVERIFY2(single.start(), qPrintable(single.errorString()));
    Connection plain(ConnectionOptions::fromUrl(single.tcpUrl()));
    plain.ping();
    QVERIFY(!plain.isCluster());
    QCOMPARE(plain.masters(), std::vector<std::string>{plain.serverAddress()});
}

void TestCluster::malformedUrls_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("no nodes") << "redis+cluster://"
                              << "no node is listed";
    QTest::newRow("empty node") << "redis+cluster://h1:7001,,h2:7002"
                                << "host of node 2";
    QTest::newRow("bad port") << "redis+cluster://h1:7001,h2:99999"
                              << "port of node 2";
    QTest::newRow("a database") << "redis+cluster://h1:7001/3"
                                << "only database 0";
    QTest::newRow("db in query") << "redis+cluster://h1:7001?db=2"
                                 << "only database 0";
    QTest::newRow("unknown key") << "redis+cluster://h1:7001?foo=1"
                                 << "unknown parameter";
    QTest::newRow("tls key on plain") << "redis+cluster://h1:7001?ca=x.pem"
                                      << "rediss://";
    QTest::newRow("unclosed v6") << "redis+cluster://[::1:7001"
                                 << "unclosed [";
}

void TestCluster::malformedUrls()
{
    QFETCH(QString, url);
    QFETCH(QString, mentions);
    const auto error = errorOf([&] { ConnectionOptions::fromUrl(url.toStdString()); });
    QVERIFY(isError(error, ErrorCode::InvalidArgument, mentions));
    QVERIFY2(QString(error->what()).contains("Redis Cluster URL"), error->what());
}

void TestCluster::urlRoundTrip()
{
    const auto options =
        ConnectionOptions::fromUrl("rediss+cluster://app:s3cret@h1:7001,[::1]:7002/?ca=/c/ca.pem");
    QVERIFY(options.cluster.enabled());
    QVERIFY(options.tls.enabled);
    QCOMPARE(options.cluster.seeds.size(), size_t(2));
    QCOMPARE(options.cluster.seeds[1].host, std::string("::1"));
    QCOMPARE(options.user, std::string("app"));
    QCOMPARE(options.password, std::string("s3cret"));
    QCOMPARE(options.tls.caFile, std::string("/c/ca.pem"));
    QCOMPARE(options.displayUrl(),
             std::string("rediss+cluster://app:***@h1:7001,[::1]:7002/?ca=/c/ca.pem"));
    const std::string stored = options.urlWithoutPassword();
    QVERIFY2(stored.find("s3cret") == std::string::npos, stored.c_str());
    const auto back = ConnectionOptions::fromUrl(stored);
    QCOMPARE(back.urlWithoutPassword(), stored);
    QCOMPARE(back.cluster.seedList(), std::string("h1:7001,[::1]:7002"));
    QCOMPARE(back.user, std::string("app"));
    QVERIFY(back.password.empty());
    const auto defaults = ConnectionOptions::fromUrl("redis+cluster://h1,h2");
    QCOMPARE(defaults.cluster.seedList(), std::string("h1:6379,h2:6379"));
}

// rediss+cluster:// and a rediss:// URL to one node: every node reached over verified TLS
// (the TLS options of the URL apply to each), queues on each master, no plain byte sent.
void TestCluster::overTls()
{
    TestCertificates certs;
    QVERIFY2(certs.create(), qPrintable(certs.errorString()));
    ClusterGroup group;
    group.setTls({certs.cert("server"), certs.key("server"), certs.cert("ca"), false},
                 certs.cert("client"), certs.key("client"));
    QVERIFY2(group.start(), qPrintable(group.errorString()));
    const std::string query = "?ca=" + certs.cert("ca").toStdString();
    Connection connection(ConnectionOptions::fromUrl(group.tlsUrl(query)));
    QVERIFY(connection.ping().count() >= 0);
    QVERIFY(connection.isCluster());
    QVERIFY2(connection.securityDescription().rfind("TLS", 0) == 0,
             connection.securityDescription().c_str());
    std::set<std::string> nodes;
    for (int n = 0; n < 200 && nodes.size() < 3; ++n) {
        const std::string name = "tls" + std::to_string(n);
        const std::string node = connection.nodeForKey(name);
        if (nodes.count(node))
            continue;
        nodes.insert(node);
        Queue queue(connection, name);
        queue.push(task("t"));
        QCOMPARE(queue.claim(1, 5000, "w").tasks.size(), size_t(1));
    }
    QCOMPARE(nodes.size(), size_t(3));
    // The map holds the TLS ports: a TLS client is never sent to a plain port.
    for (const auto& node : nodes) {
        bool tlsPort = false;
        for (int i = 0; i < ClusterGroup::kNodes; ++i)
            tlsPort = tlsPort || node == "127.0.0.1:" + std::to_string(group.node(i).tlsPort());
        QVERIFY2(tlsPort, node.c_str());
    }
    // A certificate the URL does not trust is a TLS refusal, not "no node answered".
    Connection untrusted(ConnectionOptions::fromUrl(group.tlsUrl("")));
    const auto refused = errorOf([&] { untrusted.ping(); });
    QVERIFY(refused);
    QCOMPARE(refused->code(), ErrorCode::Tls);

    Connection one(ConnectionOptions::fromUrl(group.node(0).tlsUrl(query)));
    one.ping();
    QVERIFY(one.isCluster());
    QCOMPARE(Queue::listQueues(one, "dq").size(), size_t(3));
}

void TestCluster::allSeedsUnreachable()
{
    const std::string seeds = "127.0.0.1:" + std::to_string(RedisServer::freePort()) +
                              ",127.0.0.1:" + std::to_string(RedisServer::freePort());
    Connection connection(ConnectionOptions::fromUrl("redis+cluster://" + seeds));
    QElapsedTimer timer;
    timer.start();
    const auto error = errorOf([&] { connection.command({"PING"}); });
    QVERIFY(error);
    QCOMPARE(error->code(), ErrorCode::Connection);
    QVERIFY2(QString(error->what()).startsWith("no node of the Redis Cluster answered"),
             error->what());
    QVERIFY(timer.elapsed() < 2000);
    QVERIFY(!connection.isConnected());
}

void TestCluster::wrongPassword()
{
    // The cluster has no password: AUTH is refused, and the code says so (exit 3, and the app
    // asks for the password again) instead of "no node answered".
    const auto error = errorOf([&] {
        Connection(ConnectionOptions::fromUrl(m_group.url() + "?password=Hunter2")).ping();
    });
    QVERIFY(error);
    QCOMPARE(error->code(), ErrorCode::Auth);
    QVERIFY2(!QString(error->what()).contains("Hunter2"), error->what());
}

void TestCluster::notAClusterNode()
{
    RedisServer single;
    QVERIFY2(single.start(), qPrintable(single.errorString()));
    Connection connection(
        ConnectionOptions::fromUrl("redis+cluster://127.0.0.1:" + std::to_string(single.port())));
    const auto error = errorOf([&] { connection.ping(); });
    QVERIFY(isError(error, ErrorCode::Connection, "not a Redis Cluster"));
}

// A one-node cluster that serves slots 0..100 only: a key elsewhere is refused with
// CLUSTERDOWN after a few short waits, not retried for ever.
void TestCluster::uncoveredSlots()
{
    RedisServer lone;
    QVERIFY2(startLoneNode(lone, 100), qPrintable(lone.errorString()));
    std::string key = "k";
    for (int n = 0; keyslot::ofKey(key) <= 100; ++n)
        key = "k" + std::to_string(n);
    Connection connection(ConnectionOptions::fromUrl(lone.tcpUrl()));
    QElapsedTimer timer;
    timer.start();
    const auto error = errorOf([&] { connection.command({"GET", key}); });
    QVERIFY(isError(error, ErrorCode::Connection, "CLUSTERDOWN"));
    QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
}

void TestCluster::oneNodeClusterNamesItselfAndWakes()
{
    // A node that never met another lists itself as ":port" in CLUSTER NODES, with no host:
    // the node list must still name it, and a worker's wake subscription must reach it.
    RedisServer lone;
    QVERIFY2(startLoneNode(lone, 16383), qPrintable(lone.errorString()));
    QTRY_VERIFY(lone.cli({"CLUSTER", "INFO"}).contains("cluster_state:ok"));
    const auto options =
        ConnectionOptions::fromUrl("redis+cluster://127.0.0.1:" + std::to_string(lone.port()));
    Connection connection(options);
    const auto nodes = connection.clusterNodes();
    QCOMPARE(nodes.size(), size_t(1));
    QCOMPARE(nodes.front().address, "127.0.0.1:" + std::to_string(lone.port()));
    Subscriber subscriber(options);
    subscriber.subscribe(Keys("dq", "solo").wake());
    Queue(connection, "solo").push(task("t1"));
    QVERIFY(subscriber.waitMessage(std::chrono::seconds(5)).has_value());
}

void TestCluster::drainWhile(const std::string& queueName, const std::function<void()>& disturb)
{
    constexpr int kTasks = 200;
    Connection connection(clusterOptions());
    Queue queue(connection, queueName);
    RunCount::pushRetried(queue, kTasks);
    // Replication is asynchronous: the pushes must be on the replica before a master dies.
    QCOMPARE(connection
                 .pipelineOn(connection.nodeForKey(queue.keys().pending()), {{"WAIT", "1", "5000"}})
                 .front()
                 .integer,
             1LL);

    RunCount runs;
    WorkerOptions options;
    options.connection = clusterOptions();
    options.queue = queueName;
    options.concurrency = 2;
    options.batch = 5;
    options.leaseMs = 1000; // short: acks lost with a dead master come back quickly
    options.maxReconnectDelay = std::chrono::milliseconds(500);
    Worker worker(options, [&](const ClaimedTask& t) {
        QThread::msleep(5);
        runs.add(t.id);
        return HandlerResult::ack();
    });
    worker.start();
    QTRY_VERIFY_WITH_TIMEOUT(runs.ran() >= kTasks / 4, 20000);
    disturb();
    QTRY_VERIFY_WITH_TIMEOUT(runs.drained(queue, kTasks), 30000);
    worker.stop();
    qInfo("%d tasks ran, %d of them more than once; the worker saw %lld connection errors", kTasks,
          runs.twice(), worker.counters().connectionErrors);
}

void TestCluster::workerFollowsReshard()
{
    const int source = m_masters[0];
    const int target = m_masters[1];
    const std::string name = queueOn(source, "reshard");
    const int slot = keyslot::ofKey(name);
    const ClusterRedirects before = Connection::totalClusterRedirects();
    drainWhile(name, [&] {
        QVERIFY2(m_group.moveSlot(slot, target,
                                  [&] {
                                      // Reads of a moved key meanwhile are sent ASK.
                                      Connection reader(clusterOptions());
                                      for (int i = 0; i < 10; ++i) {
                                          Queue(reader, name).counts();
                                          QThread::msleep(20);
                                      }
                                  }),
                 qPrintable(m_group.errorString()));
    });
    const ClusterRedirects after = Connection::totalClusterRedirects();
    qInfo("followed %lld MOVED, %lld ASK, %lld TRYAGAIN/CLUSTERDOWN", after.moved - before.moved,
          after.ask - before.ask, after.retries - before.retries);
    QVERIFY(after.moved > before.moved);
    QVERIFY(after.ask > before.ask);
    QCOMPARE(m_group.masterOf(slot), target);
    Connection connection(clusterOptions());
    QCOMPARE(connection.nodeForKey(Keys("dq", name).pending()), m_group.address(target));
}

void TestCluster::workerFollowsFailover()
{
    const int master = m_masters[2];
    const int replica = m_group.replicaOf(master);
    QVERIFY(replica >= 0);
    const std::string name = queueOn(master, "failover");
    const int slot = keyslot::ofKey(name);
    // A subscriber given the redis:// URL of the master that dies learns its peers.
    Subscriber follower(ConnectionOptions::fromUrl(m_group.node(master).tcpUrl()));
    follower.subscribe("news");
    QElapsedTimer timer;
    drainWhile(name, [&] {
        m_group.node(master).crash();
        timer.start();
    });
    qInfo("drained %lld ms after the SIGKILL", timer.elapsed());
    QCOMPARE(m_group.masterOf(slot), replica);

    // Its node is gone: the next subscribe lands on a peer, which hears a PUBLISH sent to
    // any node (classic pub/sub is broadcast over the cluster bus).
    errorOf([&] { follower.waitMessage(std::chrono::milliseconds(50)); });
    follower.subscribe("news");
    Connection publisher(clusterOptions());
    std::optional<std::string> message;
    for (int i = 0; i < 20 && !message; ++i) {
        publisher.command({"PUBLISH", "news", "hello"});
        message = follower.waitMessage(std::chrono::milliseconds(100));
    }
    QCOMPARE(message, std::optional<std::string>("hello"));
}

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
