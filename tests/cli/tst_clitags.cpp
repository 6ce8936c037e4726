#include "clisuite.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// delayq show, ls --json and show --json on a task's fair-order tags (push --priority,
// --group; issue 51): said when set, 0 and "" in --json when not.
class TestCliTags : public CliSuite
{
    Q_OBJECT

private slots:
    void showsTags_data();
    void showsTags();
    void refusedInDueOrder_data();
    void refusedInDueOrder();
};

void TestCliTags::showsTags_data()
{
    QTest::addColumn<QStringList>("flags"); // push's
    QTest::addColumn<QString>("line");      // show's, "" = none
    QTest::addColumn<int>("priority");
    QTest::addColumn<QString>("group");

    QTest::newRow("both") << QStringList{"--priority", "5", "--group", "tenant-42"}
                          << "fair order    priority 5, group tenant-42\n"
                          << 5 << "tenant-42";
    QTest::newRow("group") << QStringList{"--group", "g"} << "fair order    priority 0, group g\n"
                           << 0 << "g";
    QTest::newRow("priority") << QStringList{"--priority", "-3"} << "fair order    priority -3\n"
                              << -3 << "";
    QTest::newRow("none") << QStringList{} << "" << 0 << "";
}

void TestCliTags::showsTags()
{
    QFETCH(QStringList, flags);
    QFETCH(QString, line);
    QFETCH(int, priority);
    QFETCH(QString, group);

    QCOMPARE(delayq({"config", "mail", "order", "fair", "group_cap", "1"}).exitCode, 0);
    const CliRun pushed = delayq(QStringList{"push", "mail", "p", "--id", "t"} + flags);
    QVERIFY2(pushed.exitCode == 0, pushed.err.constData());

    const QString shown = QString::fromUtf8(delayq({"show", "mail", "t"}).out);
    if (line.isEmpty())
        QVERIFY2(!shown.contains(QLatin1String("fair order")), qPrintable(shown));
    else
        QVERIFY2(shown.contains(line), qPrintable(shown));

    const QJsonObject task =
        QJsonDocument::fromJson(delayq({"--json", "show", "mail", "t"}).out)["task"].toObject();
    QCOMPARE(task["priority"].toInt(-99), priority);
    QCOMPARE(task["group"].toString(QStringLiteral("missing")), group);
    const QJsonArray listed =
        QJsonDocument::fromJson(delayq({"--json", "ls", "mail"}).out)["tasks"].toArray();
    QCOMPARE(listed.size(), 1);
    QCOMPARE(listed[0]["priority"].toInt(-99), priority);
    QCOMPARE(listed[0]["group"].toString(QStringLiteral("missing")), group);
}

// docs/cli.md: --group and --priority are refused unless the queue's order is fair: bad
// usage (exit 2), the message naming the order, and nothing pushed.
void TestCliTags::refusedInDueOrder_data()
{
    QTest::addColumn<QStringList>("flags");  // push's
    QTest::addColumn<QStringList>("config"); // after "config mail"; empty: none (due order)

    QTest::newRow("group") << QStringList{"--group", "tenant-42"} << QStringList{};
    QTest::newRow("priority") << QStringList{"--priority", "5"} << QStringList{};
    QTest::newRow("both") << QStringList{"--priority", "-1", "--group", "g"} << QStringList{};
    QTest::newRow("copies") << QStringList{"--group", "g", "--count", "3"} << QStringList{};
    QTest::newRow("order set back to due")
        << QStringList{"--group", "g"} << QStringList{"order", "due"};
    // A group cap alone is no fair order.
    QTest::newRow("group cap, due order")
        << QStringList{"--group", "g"} << QStringList{"group_cap", "1"};
}

void TestCliTags::refusedInDueOrder()
{
    QFETCH(QStringList, flags);
    QFETCH(QStringList, config);

    if (!config.isEmpty())
        QCOMPARE(delayq(QStringList{"config", "mail"} + config).exitCode, 0);
    const CliRun r = delayq(QStringList{"push", "mail", "p"} + flags);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("due order only") && r.err.contains("order \"fair\""),
             r.err.constData());
    QCOMPARE(r.out, QByteArray());
    const QJsonObject stats =
        QJsonDocument::fromJson(delayq({"--json", "stats", "mail"}).out).object();
    QCOMPARE(stats["pending"].toInt(-1), 0);
    QCOMPARE(stats["counters"].toObject()["pushed"].toInt(-1), 0);
    // The same push without the tags goes in.
    QStringList plain = flags;
    for (const QString& flag : {QStringLiteral("--group"), QStringLiteral("--priority")})
        if (const qsizetype at = plain.indexOf(flag); at >= 0)
            plain.remove(at, 2);
    QCOMPARE(delayq(QStringList{"push", "mail", "p"} + plain).exitCode, 0);
}

QTEST_GUILESS_MAIN(TestCliTags)
#include "tst_clitags.moc"
