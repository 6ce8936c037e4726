// The model-based check of the queue's promises (docs/design.md, "Promises and the model
// check"): random sequences of operations against a real redis-server and a real 3-master
// cluster, each step compared with a reference model (queuemodel.h). Seeded and reproducible:
// a failure prints the seed and a shortened sequence that still fails. A longer run is a
// command line away:
//   DELAYQ_MODEL_SEED=1234 DELAYQ_MODEL_RUNS=50 DELAYQ_MODEL_STEPS=2000 tests/model/tst_model
#include "clustergroup.h"
#include "modelop.h"
#include "queuemodel.h"
#include "redisserver.h"

#include <delayq/connection.h>
#include <delayq/connectionoptions.h>

#include <QElapsedTimer>
#include <QTest>

#include <memory>
#include <string>
#include <vector>

using namespace delayq;

namespace {

long long environmentNumber(const char* name, long long fallback)
{
    bool ok = false;
    const long long value = qEnvironmentVariable(name).toLongLong(&ok);
    return ok && value > 0 ? value : fallback;
}

} // namespace

class TestModel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void promisesHold_data();
    void promisesHold();
    void cleanupTestCase();

private:
    struct Outcome
    {
        int failedAt = -1; // the op after which the server and the model differed; -1: none
        std::string what;
    };
    // Runs ops on a fresh queue; stops at the first difference.
    Outcome replay(const std::string& url, const std::vector<ModelOp>& ops);
    // Drops ops while the run still fails, within a budget of replays and time.
    std::vector<ModelOp> shorten(const std::string& url, std::vector<ModelOp> ops);

    RedisServer m_server;
    ClusterGroup m_cluster;
    int m_queues = 0; // each replay gets a queue of its own
};

void TestModel::initTestCase()
{
    const QString missing = RedisServer::missingTools();
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
}

void TestModel::cleanupTestCase()
{
    m_cluster.stop();
    m_server.stop();
}

void TestModel::promisesHold_data()
{
    QTest::addColumn<bool>("cluster");
    QTest::addColumn<qulonglong>("seed");
    QTest::addColumn<bool>("sharding");
    // Fixed seeds, so a red run is reproducible from its log alone; DELAYQ_MODEL_SEED picks
    // others (and DELAYQ_MODEL_RUNS more of them).
    const qulonglong first = static_cast<qulonglong>(environmentNumber("DELAYQ_MODEL_SEED", 48));
    const long long runs = environmentNumber("DELAYQ_MODEL_RUNS", 3);
    for (long long r = 0; r < runs; ++r) {
        const qulonglong seed = first + static_cast<qulonglong>(r);
        QTest::addRow("one server, seed %llu", seed) << false << seed << true;
        QTest::addRow("cluster, seed %llu", seed) << true << seed << true;
        // Never sharded: fair order (one shard only) is in force for long spells.
        QTest::addRow("one shard, seed %llu", seed) << false << seed << false;
    }
}

void TestModel::promisesHold()
{
    QFETCH(bool, cluster);
    QFETCH(qulonglong, seed);
    QFETCH(bool, sharding);
    const std::string url = cluster ? m_cluster.url() : m_server.tcpUrl();
    const int steps = static_cast<int>(environmentNumber("DELAYQ_MODEL_STEPS", 1000));
    const QByteArray given = qgetenv("DELAYQ_MODEL_OPS");
    const std::vector<ModelOp> ops = given.isEmpty()
                                         ? ModelOp::generate(seed, steps, sharding)
                                         : ModelOp::parse(given.toStdString());
    const Outcome outcome = replay(url, ops);
    if (outcome.failedAt < 0)
        return;
    const std::vector<ModelOp> failing(ops.begin(), ops.begin() + outcome.failedAt + 1);
    const std::vector<ModelOp> shortest = shorten(url, failing);
    std::string sequence;
    for (const auto& op : shortest)
        sequence += "\n  " + op.text();
    const Outcome again = replay(url, shortest);
    QFAIL(qPrintable(QStringLiteral("seed %1 (%2): after op %3 of %4: %5\nshortened to %6 ops "
                                    "(%7):%8")
                         .arg(seed)
                         .arg(cluster    ? "cluster"
                              : sharding ? "one server"
                                         : "one shard")
                         .arg(outcome.failedAt + 1)
                         .arg(steps)
                         .arg(QString::fromStdString(outcome.what))
                         .arg(shortest.size())
                         .arg(QString::fromStdString(again.what))
                         .arg(QString::fromStdString(sequence))));
}

TestModel::Outcome TestModel::replay(const std::string& url, const std::vector<ModelOp>& ops)
{
    Connection connection(ConnectionOptions::fromUrl(url));
    // Setting up the queue and its schedule can throw: a failure, not an abort that would
    // leave the servers running.
    std::unique_ptr<QueueModel> made;
    try {
        made = std::make_unique<QueueModel>(connection, "model-" + std::to_string(++m_queues));
    } catch (const std::exception& e) {
        return {0, std::string("setting up the queue: ") + e.what()};
    }
    QueueModel& model = *made;
    for (size_t i = 0; i < ops.size(); ++i) {
        const std::string what = model.apply(ops[i]);
        if (!what.empty())
            return {static_cast<int>(i), ops[i].text() + ": " + what};
    }
    const std::string what = model.drain();
    if (!what.empty())
        return {static_cast<int>(ops.size()) - 1, "at the final drain: " + what};
    return {};
}

std::vector<ModelOp> TestModel::shorten(const std::string& url, std::vector<ModelOp> ops)
{
    QElapsedTimer spent;
    spent.start();
    // Chunks first, then single ops; a removal is kept when the run still fails.
    for (size_t chunk = ops.size() / 2; chunk >= 1; chunk /= 2) {
        for (size_t at = 0; at + chunk <= ops.size() && spent.elapsed() < 60000;) {
            std::vector<ModelOp> fewer(ops.begin(), ops.begin() + static_cast<long>(at));
            fewer.insert(fewer.end(), ops.begin() + static_cast<long>(at + chunk), ops.end());
            const Outcome o = replay(url, fewer);
            if (o.failedAt >= 0)
                ops.assign(fewer.begin(), fewer.begin() + o.failedAt + 1);
            else
                at += chunk;
        }
        if (chunk == 1)
            break;
    }
    return ops;
}

QTEST_GUILESS_MAIN(TestModel)
#include "tst_model.moc"
