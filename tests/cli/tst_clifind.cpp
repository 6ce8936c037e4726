#include "clisuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

// delayq find end to end: text and --json output, --limit, --in error, refusals.
class TestCliFind : public CliSuite
{
    Q_OBJECT

private slots:
    void findsPayloadsInSteps()
    {
        seed();
        // --step 50: 2,000 tasks read in 40 steps.
        CliRun r = delayq({"find", "orders", "needle", "--step", "50"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("20 matches in the payload of 2000 pending tasks read (of 2000)"),
                 r.out.constData());
        QVERIFY(r.out.contains("t00100"));
        QVERIFY(!r.out.contains("t00101"));

        r = delayq({"--json", "find", "orders", "needle", "--step", "50"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r).object();
        QCOMPARE(o.value("queue").toString(), QStringLiteral("orders"));
        QCOMPARE(o.value("state").toString(), QStringLiteral("pending"));
        QCOMPARE(o.value("in").toString(), QStringLiteral("payload"));
        QCOMPARE(o.value("read").toInt(), 2000);
        QCOMPARE(o.value("total").toInt(), 2000);
        QVERIFY(o.value("complete").toBool());
        const QJsonArray matches = o.value("matches").toArray();
        QCOMPARE(matches.size(), 20);
        for (const auto& m : matches)
            QVERIFY(m.toObject().value("payload").toString().contains("needle"));
        QCOMPARE(matches.first().toObject().value("id").toString(), QStringLiteral("t00000"));
    }

    void limitStopsTheSearch()
    {
        seed();
        CliRun r = delayq({"--json", "find", "orders", "needle", "--limit", "5"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r).object();
        QCOMPARE(o.value("matches").toArray().size(), 5);
        QVERIFY(!o.value("complete").toBool());
        r = delayq({"find", "orders", "needle", "--limit", "5"});
        QVERIFY(r.out.contains("--limit stopped the search"));
    }

    void findsDeadTasksByError()
    {
        seed();
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "mail");
        for (int i = 0; i < 30; ++i) {
            delayq::PushRequest p;
            p.id = "m" + std::to_string(i);
            p.payload = "mail " + std::to_string(i);
            p.maxAttempts = 1;
            q.push(p);
        }
        for (const auto& t : q.claim(30, 60000, "w").tasks)
            q.nack(t.id, t.token,
                   std::stoi(t.id.substr(1)) % 3 == 0 ? "SMTP 550 mailbox unavailable" : "timeout");
        CliRun r = delayq({"--json", "find", "mail", "550", "--in", "error"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r).object();
        QCOMPARE(o.value("state").toString(), QStringLiteral("dead"));
        QCOMPARE(o.value("matches").toArray().size(), 10);
        for (const auto& m : o.value("matches").toArray())
            QVERIFY(m.toObject().value("last_error").toString().contains("550"));
        r = delayq({"find", "mail", "550", "--in", "error"});
        QVERIFY(r.out.contains("LAST ERROR"));
        QVERIFY(r.out.contains("SMTP 550"));
        // The payloads hold no "550".
        QCOMPARE(delayq({"find", "mail", "550", "--state", "dead"}).exitCode, 1);
    }

    void noMatchExitsOne()
    {
        seed();
        const CliRun r = delayq({"find", "orders", "haystack-only"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no match"));
        const CliRun j = delayq({"--json", "find", "orders", "haystack-only"});
        QCOMPARE(j.exitCode, 1);
        QCOMPARE(json(j).object().value("matches").toArray().size(), 0);
    }

    void refusesBadArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("state") << QStringList{"find", "orders", "x", "--state", "gone"}
                               << "--state must be";
        QTest::newRow("in") << QStringList{"find", "orders", "x", "--in", "id"} << "--in must be";
        QTest::newRow("empty") << QStringList{"find", "orders", ""} << "TEXT is empty";
        QTest::newRow("limit") << QStringList{"find", "orders", "x", "--limit", "0"} << "--limit";
        QTest::newRow("step") << QStringList{"find", "orders", "x", "--step", "5000"} << "--step";
        QTest::newRow("no text") << QStringList{"find", "orders"} << "";
        QTest::newRow("plain") << QStringList{"--plain", "find", "k", "x"} << "--plain";
    }
    void refusesBadArguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        expectUsageError(delayq(args), message);
    }

private:
    // 2,000 pending tasks t00000..t01999 due in order; every 100th payload holds "needle".
    void seed()
    {
        delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue q(conn, "orders");
        std::vector<delayq::PushRequest> batch;
        for (int i = 0; i < 2000; ++i) {
            delayq::PushRequest p;
            char id[16];
            std::snprintf(id, sizeof id, "t%05d", i);
            p.id = id;
            p.delayMs = 3'600'000 + i;
            p.payload = i % 100 == 0 ? "{\"n\":" + std::to_string(i) + ",\"tag\":\"needle\"}"
                                     : "{\"n\":" + std::to_string(i) + "}";
            batch.push_back(std::move(p));
        }
        q.pushBatch(batch);
    }
};

QTEST_GUILESS_MAIN(TestCliFind)
#include "tst_clifind.moc"
