#include "clisuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// delayq stats and config on a queue's flow limits (issue 51): what a rate or cap holds back,
// in text and --json, and the refusals of bad limits, which change nothing.
class TestCliFlow : public CliSuite
{
    Q_OBJECT

private slots:
    void statsSaysWhatHoldsTheQueue_data();
    void statsSaysWhatHoldsTheQueue();
    void badLimitsAreRefused_data();
    void badLimitsAreRefused();

private:
    static QJsonObject flowOf(const CliRun& r)
    {
        return QJsonDocument::fromJson(r.out).object().value("flow").toObject();
    }
};

void TestCliFlow::statsSaysWhatHoldsTheQueue_data()
{
    QTest::addColumn<QStringList>("config"); // after "config mail"; empty: none
    QTest::addColumn<QStringList>("lines");  // in the text, each
    QTest::addColumn<QString>("heldBy");     // --json flow.held_by; "" = null

    // 5 due tasks, one claim of 5.
    QTest::newRow("no limits") << QStringList{} << QStringList{"queue           mail\n"} << "";
    QTest::newRow("rate") << QStringList{"rate", "2/1h"}
                          << QStringList{"queue           mail (limited by rate 2/h: 3 due "
                                         "tasks waiting)\n",
                                         "rate            2/h, burst 2 (2 started in the last "
                                         "minute)\n"}
                          << "rate";
    QTest::newRow("cap") << QStringList{"cap", "2"}
                         << QStringList{"(limited by cap 2: 2 active, 3 due waiting)",
                                        "cap             2 (2 active)\n"}
                         << "cap";
}

void TestCliFlow::statsSaysWhatHoldsTheQueue()
{
    QFETCH(QStringList, config);
    QFETCH(QStringList, lines);
    QFETCH(QString, heldBy);

    if (!config.isEmpty())
        QCOMPARE(delayq(QStringList{"config", "mail"} + config).exitCode, 0);
    for (int i = 0; i < 5; ++i)
        QCOMPARE(delayq({"push", "mail", "p"}).exitCode, 0);
    delayq::Connection connection(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
    delayq::Queue queue(connection, "mail");
    queue.claim(5, 60000, "w1");

    const CliRun text = delayq({"stats", "mail"});
    QCOMPARE(text.exitCode, 0);
    for (const QString& line : lines)
        QVERIFY2(text.out.contains(line.toUtf8()), text.out.constData());
    QCOMPARE(text.out.contains("limited"), !heldBy.isEmpty());

    const CliRun json = delayq({"stats", "mail", "--json"});
    QCOMPARE(json.exitCode, 0);
    const QJsonObject flow = flowOf(json);
    QCOMPARE(flow.value("held_now").toBool(), !heldBy.isEmpty());
    QCOMPARE(flow.value("held_by").toString(), heldBy);
    QCOMPARE(flow.value("held_by").isNull(), heldBy.isEmpty());
    QCOMPARE(flow.value("rate").isNull(), !config.contains("rate"));
    QCOMPARE(flow.value("cap").isNull(), !config.contains("cap"));
    QCOMPARE(flow.value("started_last_minute").toInt(), heldBy.isEmpty() ? 5 : 2);
    QCOMPARE(flow.value("due_waiting").toInt(), heldBy.isEmpty() ? 0 : 3);
    if (heldBy == "rate") {
        QCOMPARE(flow.value("rate").toString(), QStringLiteral("2/h"));
        QCOMPARE(flow.value("burst").toInt(), 2);
        QVERIFY(qAbs(flow.value("rate_per_second").toDouble() - 2.0 / 3600) < 1e-9);
    }
}

void TestCliFlow::badLimitsAreRefused_data()
{
    QTest::addColumn<QStringList>("words"); // after "config mail"
    QTest::addColumn<QString>("named");     // in the message

    QTest::newRow("rate 0") << QStringList{"rate", "0"} << "rate '0'";
    QTest::newRow("rate without interval") << QStringList{"rate", "50"} << "rate '50'";
    QTest::newRow("rate bad interval") << QStringList{"rate", "50/x"} << "rate '50/x'";
    QTest::newRow("cap -1") << QStringList{"cap", "-1"} << "cap";
    QTest::newRow("cap 0") << QStringList{"cap", "0"} << "cap of 0";
    QTest::newRow("burst x") << QStringList{"burst", "x"} << "burst";
    // One bad value of several: none is set.
    QTest::newRow("good rate, bad cap") << QStringList{"rate", "9/s", "cap", "0"} << "cap of 0";
}

void TestCliFlow::badLimitsAreRefused()
{
    QFETCH(QStringList, words);
    QFETCH(QString, named);

    QCOMPARE(delayq({"config", "mail", "rate", "50/s", "burst", "100", "cap", "5"}).exitCode, 0);
    const QByteArray before = m_server.cli({"HGETALL", "dq:{mail}:config"});
    const QByteArray auditBefore = m_server.cli({"XLEN", "dq:{mail}:audit"});

    const CliRun r = delayq(QStringList{"config", "mail"} + words);
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains(named.toUtf8()), r.err.constData());
    QCOMPARE(m_server.cli({"HGETALL", "dq:{mail}:config"}), before);
    QCOMPARE(m_server.cli({"XLEN", "dq:{mail}:audit"}), auditBefore);
    QVERIFY(delayq({"config", "mail"}).out.contains("rate          50/"));
}

QTEST_GUILESS_MAIN(TestCliFlow)
#include "tst_cliflow.moc"
