#include "clirunner.h"
#include "clustergroup.h"
#include "exporterprocess.h"
#include "groupsuite.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <csignal>

// delayq end to end on a Redis Cluster: push, ls and work through a redis+cluster:// URL and
// through a redis:// URL to one node, `queues` naming each queue's node (text and JSON), and
// --verbose saying how many masters there are.
class TestCliCluster : public GroupSuite
{
    Q_OBJECT

public:
    TestCliCluster() : GroupSuite(m_group, "cluster") {}

protected:
    void initGroupSuite() override
    {
        // One queue on each master, picked by the slot of its name.
        for (int m : m_group.masters())
            for (int n = 0; n < 10000; ++n) {
                const QString name = QStringLiteral("mail%1").arg(n);
                const int slot =
                    m_group.node(0).cli({"CLUSTER", "KEYSLOT", name}).trimmed().toInt();
                if (m_group.masterOf(slot) == m) {
                    m_queues.append({name, QString::fromStdString(m_group.address(m))});
                    break;
                }
            }
        QCOMPARE(m_queues.size(), 3);
    }

private slots:
    void pushListAndQueuesShowNodes()
    {
        const CliRunner cli(m_group.url());
        for (const auto& [name, node] : m_queues) {
            const CliRun r = cli.run({"push", name, "hello", "--id", "t1"});
            QCOMPARE(r.exitCode, 0);
        }
        CliRun r = cli.run({"queues", "--verbose"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("cluster: 3 masters"), r.err.constData());
        QVERIFY2(r.out.startsWith("QUEUE"), r.out.constData());
        QVERIFY2(r.out.contains("NODE"), r.out.constData());
        for (const auto& [name, node] : m_queues) {
            const QByteArray line = name.toUtf8() + "  " + node.toUtf8();
            QVERIFY2(r.out.contains(line), r.out.constData());
        }
        r = cli.run({"queues", "--json"});
        QCOMPARE(r.exitCode, 0);
        for (const auto& [name, node] : m_queues) {
            const QByteArray field =
                "\"name\":\"" + name.toUtf8() + "\",\"node\":\"" + node.toUtf8() + "\"";
            QVERIFY2(r.out.contains(field), r.out.constData());
        }
        r = cli.run({"ls", m_queues[1].first, "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("\"t1\""), r.out.constData());
    }

    // The exporter finds the queues the way `queues` does and reads each on its master (one
    // pipeline, split per node by the connection).
    void exporterReadsEveryMaster()
    {
        const CliRunner cli(m_group.url());
        ExporterProcess exporter(cli);
        QVERIFY(exporter.start());
        const auto m = exporter.metrics();
        QCOMPARE(m.value("delayq_up", -1), 1.0);
        for (const auto& [name, node] : m_queues) {
            const QString queue = "{queue=\"" + name + "\"";
            QCOMPARE(m.value("delayq_tasks" + queue + ",state=\"pending\"}", -1), 1.0);
            QCOMPARE(m.value("delayq_tasks_pushed_total" + queue + "}", -1), 1.0);
        }
        QCOMPARE(exporter.stop(SIGTERM), 0);
    }

    // A redis:// URL to a replica is found to be a cluster node: the same queues, the same
    // nodes, and a worker drains a queue of another master.
    void plainUrlToOneNode()
    {
        const CliRunner cli(m_group.node(m_group.replicaOf(m_group.masters()[0])).tcpUrl());
        CliRun r = cli.run({"queues"});
        QCOMPARE(r.exitCode, 0);
        for (const auto& [name, node] : m_queues)
            QVERIFY2(r.out.contains(name.toUtf8() + "  " + node.toUtf8()), r.out.constData());
        r = cli.run({"work", m_queues[2].first, "--until-empty", "--quiet"});
        QCOMPARE(r.exitCode, 0);
        r = cli.run({"stats", m_queues[2].first, "--json"});
        QVERIFY2(r.out.contains("\"pending\":0"), r.out.constData());
    }

    // bench --queues 3 puts one queue on each master and says which (--force: the tests
    // above left keys), and leaves none of its keys behind.
    void benchQueuesOnEveryMaster()
    {
        const CliRun r =
            CliRunner(m_group.url())
                .run({"bench", "--force", "--json", "--queues", "3", "--tasks", "600",
                      "--single-tasks", "30", "--duration", "100ms", "--rate", "200",
                      "--drain-tasks", "100", "--memory-tasks", "100", "--skip-seeds"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r).object();
        QCOMPARE(o.value("masters").toInt(), 3);
        QSet<QString> names;
        QSet<QString> nodes;
        for (const QJsonValue& v : o.value("queues").toArray()) {
            names.insert(v.toObject().value("name").toString());
            nodes.insert(v.toObject().value("node").toString());
        }
        QCOMPARE(names.size(), 3);
        QSet<QString> masters;
        for (int m : m_group.masters())
            masters.insert(QString::fromStdString(m_group.address(m)));
        QCOMPARE(nodes, masters);
        QVERIFY(o.value("ours").toObject().value("claim_per_s").toDouble() > 0);
        // INFO cpu is summed over the masters: the claim+ack phase cost them something.
        QVERIFY(o.value("ours").toObject().value("claim_cpu_us_per_task").toDouble() > 0);
        for (int m : m_group.masters())
            QCOMPARE(m_group.node(m).cli({"KEYS", "dqbench-*"}).trimmed(), QByteArray());

        for (const char* n : {"0", "17"}) {
            const CliRun bad = CliRunner(m_group.url()).run({"bench", "--queues", n});
            expectUsageError(bad, QStringLiteral("--queues must be a whole number from 1 to 16"));
        }
    }

    // export and import on a cluster: a pipeline per window instead of MULTI/EXEC, the
    // queue's keys on its own master; the round trip gives back the same lines.
    void exportImportRoundTrip()
    {
        const CliRunner cli(m_group.url());
        const QString name = m_queues.last().first;
        QByteArray input;
        for (int i = 0; i < 1200; ++i)
            input += "{\"id\":\"rt" + QByteArray::number(i) +
                     "\",\"due\":" + QByteArray::number(4102444800000LL + i) +
                     ",\"created\":1000,\"payload\":\"p" + QByteArray::number(i) + "\"}\n";
        QCOMPARE(cli.run({"import", name}, input).exitCode, 0);
        const CliRun first = cli.run({"export", name, "--state", "pending"});
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.out.count('\n'), 1200);
        QCOMPARE(cli.run({"purge", name, "--yes"}).exitCode, 0);
        QCOMPARE(cli.run({"import", name}, first.out).exitCode, 0);
        QCOMPARE(cli.run({"export", name, "--state", "pending"}).out, first.out);
        QCOMPARE(cli.run({"purge", name, "--yes"}).exitCode, 0);
    }

    // A forwarder on a cluster: delayq's keys beside the plain key share a tag of their own,
    // the key's name (the plain key's own slot) or, for a name with braces, its SHA1 (here on
    // another master): a member that keeps failing is parked either way, and requeued.
    void plainForwarderParksAcrossSlots_data()
    {
        QTest::addColumn<QString>("key");
        QTest::newRow("no braces: one slot") << QStringLiteral("legacy:delay");
        QTest::newRow("a hash tag of its own: two masters") << QStringLiteral("{shop}:delay");
    }
    void plainForwarderParksAcrossSlots()
    {
        QFETCH(QString, key);
        const CliRunner cli(m_group.url());
        const QString nacker = "pipe:python3 -c 'import sys, json\n"
                               "for line in sys.stdin:\n"
                               "    print(json.dumps({\"id\": json.loads(line)[\"id\"], "
                               "\"fail\": \"NO_ROUTE\"}), flush=True)'";
        const bool braces = key.contains('{');
        const QString tag =
            braces ? "#sha1:" +
                         QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha1).toHex()
                   : key;
        const auto masterOf = [&](const QString& k) {
            return m_group.masterOf(
                m_group.node(0).cli({"CLUSTER", "KEYSLOT", k}).trimmed().toInt());
        };
        QCOMPARE(masterOf(key) != masterOf("dq:plain:{" + tag + "}:parked"), braces);
        QCOMPARE(cli.run({"push", "--plain", key, "m1", "m2"}).exitCode, 0);
        CliRun r = cli.run({"work", "--plain", key, "--forward-to", nacker, "--max-attempts", "1",
                            "--max-tasks", "2", "--quiet"});
        QCOMPARE(r.exitCode, 0);
        r = cli.run({"--json", "ls", "--plain", key, "--parked"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).object().value("parked_total").toInt(), 2);
        r = cli.run({"--json", "stats", "--plain", key});
        QCOMPARE(json(r).object().value("total").toInt(), 0);
        QCOMPARE(cli.run({"requeue", "--plain", key, "--all", "--score-unit", "ms"}).exitCode, 0);
        r = cli.run({"--json", "stats", "--plain", key});
        QCOMPARE(json(r).object().value("total").toInt(), 2);
        QCOMPARE(json(r).object().value("parked").toInt(), 0);
        QCOMPARE(cli.run({"cancel", "--plain", key, "m1", "m2"}).exitCode, 0);
    }

    void refusals()
    {
        CliRun r = CliRunner("redis+cluster://127.0.0.1:7001,127.0.0.1:x").run({"queues"});
        expectUsageError(r, QStringLiteral("invalid Redis Cluster URL: the port of node 2"));
        r = CliRunner("redis+cluster://127.0.0.1:1").run({"queues"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("no node of the Redis Cluster answered"), r.err.constData());
    }

private:
    ClusterGroup m_group;
    QList<QPair<QString, QString>> m_queues; // name, node
};

QTEST_GUILESS_MAIN(TestCliCluster)
#include "tst_clicluster.moc"
