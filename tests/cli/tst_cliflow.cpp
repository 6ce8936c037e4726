#include "clisuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QJsonArray>
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
    void queuesShowTheLimits_data();
    void queuesShowTheLimits();
    void statsListsTheBusiestGroups_data();
    void statsListsTheBusiestGroups();

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

void TestCliFlow::queuesShowTheLimits_data()
{
    QTest::addColumn<QStringList>("config"); // after "config mail"; empty: none
    QTest::addColumn<QString>("cell");       // mail's LIMITS; "" = no such column
    QTest::addColumn<QString>("heldBy");     // --json flow.held_by; "" = null

    // 5 due tasks, one claim of 5; a second queue "idle" with one task and no limits.
    QTest::newRow("no limits") << QStringList{} << ""
                               << "";
    QTest::newRow("rate") << QStringList{"rate", "2/1h"} << "rate 2/h burst 2 (limited: 3 waiting)"
                          << "rate";
    QTest::newRow("rate and burst, cap") << QStringList{"rate", "2/1h", "burst", "4", "cap", "9"}
                                         << "rate 2/h burst 4, cap 9 (limited: 1 waiting)"
                                         << "rate";
    QTest::newRow("cap") << QStringList{"cap", "2"} << "cap 2 (limited: 2 active, 3 waiting)"
                         << "cap";
    QTest::newRow("fair, group limits")
        << QStringList{"order", "fair", "group_cap", "1", "group_rate", "5/s"}
        << "fair, group cap 1, group rate 5/s"
        << "";
    // Said even in due order, where it does not hold yet: a setting is never hidden.
    QTest::newRow("group cap, due order") << QStringList{"group_cap", "3"} << "group cap 3"
                                          << "";
}

void TestCliFlow::queuesShowTheLimits()
{
    QFETCH(QStringList, config);
    QFETCH(QString, cell);
    QFETCH(QString, heldBy);

    if (!config.isEmpty())
        QCOMPARE(delayq(QStringList{"config", "mail"} + config).exitCode, 0);
    for (int i = 0; i < 5; ++i)
        QCOMPARE(delayq({"push", "mail", "p"}).exitCode, 0);
    QCOMPARE(delayq({"push", "idle", "p", "--in", "1h"}).exitCode, 0);
    delayq::Connection connection(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
    delayq::Queue(connection, "mail").claim(5, 60000, "w1");

    const CliRun text = delayq({"queues"});
    QCOMPARE(text.exitCode, 0);
    const QList<QByteArray> lines = text.out.split('\n');
    QCOMPARE(lines[0].contains("LIMITS"), !cell.isEmpty());
    const QByteArray idle = lines.value(1), mail = lines.value(2);
    QVERIFY2(idle.startsWith("idle ") && mail.startsWith("mail "), text.out.constData());
    if (!cell.isEmpty()) {
        QVERIFY2(mail.endsWith("  " + cell.toUtf8()), mail.constData());
        QVERIFY2(idle.endsWith("  -"), idle.constData());
    }

    const CliRun json = delayq({"--json", "queues"});
    QCOMPARE(json.exitCode, 0);
    const QJsonArray queues = QJsonDocument::fromJson(json.out).array();
    QCOMPARE(queues.size(), 2);
    const QJsonObject flow = queues[1].toObject().value("flow").toObject();
    QCOMPARE(queues[1].toObject().value("name").toString(), QStringLiteral("mail"));
    QCOMPARE(flow.value("held_now").toBool(), !heldBy.isEmpty());
    QCOMPARE(flow.value("held_by").toString(), heldBy);
    QCOMPARE(flow.value("held_by").isNull(), heldBy.isEmpty());
    QCOMPARE(flow.value("rate").isNull(), !config.contains("rate"));
    QCOMPARE(flow.value("cap").isNull(), !config.contains("cap"));
    QCOMPARE(flow.value("group_cap").isNull(), !config.contains("group_cap"));
    QCOMPARE(flow.value("group_rate").isNull(), !config.contains("group_rate"));
    QCOMPARE(flow.value("order").toString(),
             config.contains("fair") ? QStringLiteral("fair") : QStringLiteral("due"));
    if (config.contains("rate"))
        QCOMPARE(flow.value("rate").toString(), QStringLiteral("2/h"));
    if (config.contains("group_cap"))
        QCOMPARE(flow.value("group_cap").toInt(),
                 config.at(config.indexOf("group_cap") + 1).toInt());
    const QJsonObject idleFlow = queues[0].toObject().value("flow").toObject();
    QVERIFY(idleFlow.value("rate").isNull() && idleFlow.value("cap").isNull());
    QCOMPARE(idleFlow.value("held_now").toBool(true), false);
}

void TestCliFlow::statsListsTheBusiestGroups_data()
{
    QTest::addColumn<QStringList>("config");  // after "config mail"; empty: none
    QTest::addColumn<QStringList>("pushes");  // a task's group each ("-": none)
    QTest::addColumn<int>("claim");           // tasks claimed (then one claim more)
    QTest::addColumn<QStringList>("lines");   // in the text, each
    QTest::addColumn<QStringList>("busiest"); // --json: "GROUP DUE ACTIVE", in order

    QTest::newRow("due order: no groups")
        << QStringList{} << QStringList{"-", "-"} << 0 << QStringList{} << QStringList{};
    QTest::newRow("fair")
        << QStringList{"order", "fair"} << QStringList{"b", "a", "a", "-", "a", "-", "c"} << 0
        << QStringList{"order           fair\n",
                       "groups          4 in turn with due tasks, 0 at their cap, 0 waiting for "
                       "their rate (4 tracked, at most 100,000)\n",
                       "  GROUP       DUE WAITING  ACTIVE\n",
                       "  a           3            0\n",
                       "  (no group)  2            0\n",
                       "  the busiest 4 of every group\n"}
        << QStringList{"a 3 0", " 2 0", "b 1 0", "c 1 0"};
    QTest::newRow("fair, group cap 1")
        << QStringList{"order", "fair", "group_cap", "1"}
        << QStringList{"a", "a", "a", "b", "b", "c"} << 3
        << QStringList{"order           fair, group cap 1\n",
                       "groups          0 in turn with due tasks, 2 at their cap,",
                       "  GROUP  DUE WAITING  ACTIVE  HELD BY\n",
                       "  a      2            1       its cap\n",
                       "  c      0            1       -\n"}
        << QStringList{"a 2 1", "b 1 1", "c 0 1"};
}

void TestCliFlow::statsListsTheBusiestGroups()
{
    QFETCH(QStringList, config);
    QFETCH(QStringList, pushes);
    QFETCH(int, claim);
    QFETCH(QStringList, lines);
    QFETCH(QStringList, busiest);

    if (!config.isEmpty())
        QCOMPARE(delayq(QStringList{"config", "mail"} + config).exitCode, 0);
    for (const QString& group : pushes)
        QCOMPARE(delayq(group == "-" ? QStringList{"push", "mail", "p"}
                                     : QStringList{"push", "mail", "p", "--group", group})
                     .exitCode,
                 0);
    delayq::Connection connection(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
    delayq::Queue queue(connection, "mail");
    if (claim > 0) {
        queue.claim(claim, 60000, "w1");
        queue.claim(1, 60000, "w1"); // finds the groups at their cap
    }

    const CliRun text = delayq({"stats", "mail"});
    QCOMPARE(text.exitCode, 0);
    for (const QString& line : lines)
        QVERIFY2(text.out.contains(line.toUtf8()), text.out.constData());
    QCOMPARE(text.out.contains("\ngroups "), !busiest.isEmpty());

    const CliRun json = delayq({"--json", "stats", "mail"});
    const QJsonValue groups = QJsonDocument::fromJson(json.out).object().value("groups");
    QCOMPARE(groups.isNull(), busiest.isEmpty());
    QStringList seen;
    for (const QJsonValue& g : groups.toObject().value("busiest").toArray())
        seen << QStringLiteral("%1 %2 %3")
                    .arg(g["group"].toString())
                    .arg(g["due_waiting"].toInt())
                    .arg(g["active"].toInt());
    QCOMPARE(seen, busiest);
}

QTEST_GUILESS_MAIN(TestCliFlow)
#include "tst_cliflow.moc"
