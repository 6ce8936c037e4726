#include "clisuite.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <chrono>
#include <thread>

// Dead tasks bounded and expiry from the command line (docs/design/bounds.md, issue 52): the
// config keys, stats' dead line and --json dead_bound, doctor's warning, push --expires-at and
// --max-age with show / ls --json, and the refusals.
class TestCliBounds : public CliSuite
{
    Q_OBJECT

private slots:
    void configKeys()
    {
        const CliRun shown = delayq({"config", "mail"});
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.out.contains("dead_max      100000\n"), shown.out.constData());
        QVERIFY2(shown.out.contains("dead_max_bytes 67108864\n"), shown.out.constData());
        QVERIFY2(shown.out.contains("max_age       off\n"), shown.out.constData());
        QVERIFY2(shown.out.contains("expired_to    dead\n"), shown.out.constData());
        QCOMPARE(delayq({"config", "mail", "dead_max_bytes", "1MB", "max_age", "2h"}).exitCode, 0);
        QCOMPARE(delayq({"config", "mail", "dead_max_bytes"}).out, QByteArray("1048576\n"));
        QCOMPARE(delayq({"config", "mail", "max_age"}).out, QByteArray("2h\n"));
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("dead_max -1")
            << QStringList{"config", "mail", "dead_max", "-1"} << "dead_max";
        QTest::newRow("dead_max_bytes 12x")
            << QStringList{"config", "mail", "dead_max_bytes", "12x"} << "dead_max_bytes";
        QTest::newRow("max_age 500ms")
            << QStringList{"config", "mail", "max_age", "500ms"} << "max_age";
        QTest::newRow("expired_to maybe")
            << QStringList{"config", "mail", "expired_to", "maybe"} << "expired_to";
        QTest::newRow("both expiries")
            << QStringList{"push",      "mail", "x", "--expires-at", "2099-01-01T00:00:00Z",
                           "--max-age", "1h"}
            << "expires-at";
        QTest::newRow("start-by passed")
            << QStringList{"push", "mail", "x", "--expires-at", "2020-01-01T00:00:00Z"}
            << "has passed";
        QTest::newRow("expires before due")
            << QStringList{"push", "mail", "x", "--in", "2h", "--max-age", "1h"}
            << "before it is due";
        QTest::newRow("max-age 0")
            << QStringList{"push", "mail", "x", "--max-age", "0s"} << "--max-age";
    }
    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const QByteArray before = m_server.cli({"DBSIZE"});
        const CliRun r = delayq(args);
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(says.toUtf8()), r.err.constData());
        QCOMPARE(m_server.cli({"DBSIZE"}), before);
    }

    void expiryShown()
    {
        CliRun r = delayq({"push", "mail", "p", "--id", "t", "--max-age", "1h"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = delayq({"show", "mail", "t"});
        QVERIFY2(r.out.contains("expires       "), r.out.constData());
        QVERIFY2(r.out.contains("it never runs"), r.out.constData());
        const QJsonArray listed =
            QJsonDocument::fromJson(delayq({"--json", "ls", "mail"}).out)["tasks"].toArray();
        QCOMPARE(listed.size(), 1);
        const QJsonObject task = listed[0].toObject();
        QCOMPARE(static_cast<qint64>(task["expires_at"].toDouble()),
                 static_cast<qint64>(task["created"].toDouble()) + 3'600'000);
        delayq({"push", "mail", "p", "--id", "u"});
        const QJsonArray both =
            QJsonDocument::fromJson(delayq({"--json", "ls", "mail"}).out)["tasks"].toArray();
        for (const auto& t : both)
            if (t.toObject()["id"].toString() == QLatin1String("u"))
                QVERIFY(t.toObject()["expires_at"].isNull());
    }

    void expiredNeverRuns()
    {
        delayq({"push", "mail", "p", "--id", "late", "--max-age", "100ms"});
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        // Never handed out: the worker claims nothing.
        const CliRun w = delayq({"work", "mail", "--until-empty", "--quiet", "--handler", "ack"});
        QVERIFY2(w.exitCode == 0, w.err.constData());
        QVERIFY2(w.err.contains("claimed 0"), w.err.constData());
        const CliRun dead = delayq({"ls", "mail", "--state", "dead"});
        QVERIFY2(dead.out.contains("expired before it started"), dead.out.constData());
        const QJsonObject stats =
            QJsonDocument::fromJson(delayq({"--json", "stats", "mail"}).out).object();
        QCOMPARE(stats["counters"]["expired_unstarted"].toInt(), 1);
    }

    void deadBoundShownAndWarned()
    {
        QCOMPARE(delayq({"config", "mail", "dead_max", "2"}).exitCode, 0);
        for (const char* id : {"a", "b", "c"})
            delayq({"push", "mail", "p", "--id", id, "--max-attempts", "1"});
        const CliRun w =
            delayq({"work", "mail", "--until-empty", "--quiet", "--handler", "fail:1"});
        QVERIFY2(w.exitCode == 0, w.err.constData());
        const CliRun text = delayq({"stats", "mail"});
        QVERIFY2(text.out.contains("dead            2 (bound 2 / 64.0 MB"), text.out.constData());
        QVERIFY2(text.out.contains("1 dropped; NEAR THE BOUND"), text.out.constData());
        const QJsonObject bound = QJsonDocument::fromJson(delayq({"--json", "stats", "mail"}).out)
                                      .object()["dead_bound"]
                                      .toObject();
        QCOMPARE(bound["max"].toInt(), 2);
        QCOMPARE(bound["dropped"].toInt(), 1);
        QVERIFY(bound["near"].toBool());
        QVERIFY(bound["bytes"].toInt() > 0);
        const CliRun doctor = delayq({"doctor", "--sample", "0s"});
        QVERIFY2(doctor.out.contains("dead bound"), doctor.out.constData());
        QVERIFY2(doctor.out.contains("queue mail: dead holds 2 tasks"), doctor.out.constData());
        const CliRun audit = delayq({"audit", "mail"});
        QVERIFY2(audit.out.contains("dead_dropped"), audit.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliBounds)
#include "tst_clibounds.moc"
