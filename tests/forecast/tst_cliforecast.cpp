#include "clisuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// delayq forecast (issue 54) end to end: the table and the summary line, --json, the
// capacity it says it took, and the refusals of bad options (exit 2, naming the option).
class TestCliForecast : public CliSuite
{
    Q_OBJECT

private slots:
    void tableAndSummary();
    void json();
    void noCapacityKnown();
    void badOptionsAreRefused_data();
    void badOptionsAreRefused();

private:
    // 600 tasks due 30 s from now.
    void pushBurst()
    {
        delayq::Connection connection(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue queue(connection, "mail");
        std::vector<delayq::PushRequest> tasks(600);
        const long long due = connection.serverTimeMs() + 30'000;
        for (auto& t : tasks)
            t.dueAtMs = due;
        queue.pushBatch(tasks);
    }
};

// At a stated 10/s (600/m) the 600 wait up to a minute (less the 0.25 s sub-bucket of a 5 min
// horizon's 120 buckets): one row where they fall due, then the backlog draining.
void TestCliForecast::tableAndSummary()
{
    pushBurst();
    const CliRun r = delayq(
        {"forecast", "mail", "--horizon", "5m", "--capacity", "600/m", "--threshold", "30s"});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains("queue mail: 0 overdue, 600 pending and 0 from schedules due within "
                          "5m\n"),
             r.out.constData());
    QVERIFY2(out.contains("capacity 10/s (stated; 0 live workers)\n"), r.out.constData());
    QVERIFY2(out.contains("TIME      DUE  BACKLOG  EXPECTED LATENESS\n"), r.out.constData());
    QVERIFY2(out.contains("  600  "), r.out.constData());
    // 59.75 s, shown to the second; 600 within 30 s of their due time need about 19.7/s.
    QVERIFY2(out.contains("\npeak 59s late at "), r.out.constData());
    QVERIFY2(out.contains("; 2.0× the stated capacity (19.") &&
                 out.contains("/s) keeps it under 30s\n"),
             r.out.constData());
}

void TestCliForecast::json()
{
    pushBurst();
    const CliRun r = delayq({"--json", "forecast", "mail", "--horizon", "5m", "--capacity", "10/s",
                             "--threshold", "30s", "--buckets", "60"});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value("queue").toString(), QString("mail"));
    QCOMPARE(o.value("capacity_source").toString(), QString("stated"));
    QCOMPARE(o.value("capacity_per_second").toDouble(), 10.0);
    QCOMPARE(o.value("due_in_horizon").toInteger(), 600);
    QCOMPARE(o.value("bucket_ms").toInteger(), 5000);
    QCOMPARE(o.value("threshold_ms").toInteger(), 30000);
    QCOMPARE(o.value("curve").toArray().size(), 61);
    const qint64 peak = o.value("peak_lateness_ms").toInteger();
    QVERIFY2(peak > 59'000 && peak <= 60'000, qPrintable(QString::number(peak)));
    const qint64 at = o.value("peak_at").toInteger() - o.value("server_now").toInteger();
    QVERIFY2(at >= 29'000 && at <= 30'250, qPrintable(QString::number(at)));
    // 600 within 30 s of their due time: about 19.7/s (the 0.25 s sub-bucket serves some).
    const double needed = o.value("capacity_for_threshold_per_second").toDouble();
    QVERIFY2(needed > 19 && needed < 20.5, qPrintable(QString::number(needed)));
    QCOMPARE(o.value("buckets_read").toInteger(), 80);
}

// Nothing acked, no rate, nothing stated: no curve, and it says how to give one.
void TestCliForecast::noCapacityKnown()
{
    pushBurst();
    const CliRun r = delayq({"forecast", "mail"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("no capacity known (nothing acked in the last 15 minutes): give one "
                            "with --capacity N/s\n"),
             r.out.constData());
    QVERIFY(!r.out.contains("TIME"));
}

void TestCliForecast::badOptionsAreRefused_data()
{
    QTest::addColumn<QStringList>("args"); // after "forecast mail"
    QTest::addColumn<QString>("message");
    QTest::newRow("horizon short") << QStringList{"--horizon", "5s"} << "--horizon: from 10s";
    QTest::newRow("horizon long") << QStringList{"--horizon", "8d"} << "--horizon: from 10s";
    QTest::newRow("horizon garbage") << QStringList{"--horizon", "soon"} << "--horizon";
    QTest::newRow("capacity 0") << QStringList{"--capacity", "0/s"} << "--capacity";
    QTest::newRow("capacity word") << QStringList{"--capacity", "fast"} << "--capacity";
    QTest::newRow("capacity unit") << QStringList{"--capacity", "5/fortnight"} << "--capacity";
    QTest::newRow("capacity negative") << QStringList{"--capacity", "-5/s"} << "--capacity";
    QTest::newRow("threshold negative") << QStringList{"--threshold", "-1m"} << "--threshold";
    QTest::newRow("buckets 0") << QStringList{"--buckets", "0"} << "--buckets";
    QTest::newRow("buckets 1001") << QStringList{"--buckets", "1001"} << "--buckets";
    QTest::newRow("unknown option") << QStringList{"--peak", "1"} << "--peak";
}

void TestCliForecast::badOptionsAreRefused()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    expectUsageError(delayq(QStringList{"forecast", "mail"} + args), message);
}

QTEST_GUILESS_MAIN(TestCliForecast)
#include "tst_cliforecast.moc"
