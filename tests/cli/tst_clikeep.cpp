#include "clisuite.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// delayq push --dedup and --debounce (docs/design/keep.md): what each answers and exits with,
// and the refusals, which name the cause and change nothing.
class TestCliKeep : public CliSuite
{
    Q_OBJECT

private slots:
    void dedupRefusesFinishedId();
    void debounceMovesAndAnswers();
    void refusals_data();
    void refusals();
};

void TestCliKeep::dedupRefusesFinishedId()
{
    QCOMPARE(delayq({"push", "pay", "x", "--id", "order-42", "--dedup", "1h"}).exitCode, 0);
    const CliRun worked = delayq({"work", "pay", "--handler", "ack", "--until-empty", "--quiet"});
    QVERIFY2(worked.exitCode == 0, worked.err.constData());
    const CliRun again = delayq({"push", "pay", "x", "--id", "order-42"});
    QCOMPARE(again.exitCode, 1); // as for exists
    QVERIFY2(again.out.startsWith("recently_done order-42"), again.out.constData());
    QVERIFY2(again.err.contains("dedup window"), again.err.constData());
    const QJsonObject json =
        QJsonDocument::fromJson(delayq({"--json", "push", "pay", "x", "--id", "order-42"}).out)
            .object();
    QCOMPARE(json["status"].toString(), QStringLiteral("recently_done"));
}

void TestCliKeep::debounceMovesAndAnswers()
{
    const QStringList push = {"push", "remind", "x", "--id", "cust-7", "--debounce", "1h"};
    QCOMPARE(delayq(push + QStringList{"--in", "10m"}).exitCode, 0);
    const CliRun moved = delayq(push + QStringList{"--in", "20m", "--debounce-payload"});
    QCOMPARE(moved.exitCode, 0);
    QVERIFY2(moved.out.startsWith("debounced cust-7"), moved.out.constData());
    QCOMPARE(delayq({"config", "remind"}).exitCode, 0);
}

void TestCliKeep::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("debounce without id") << QStringList{"push", "q", "x", "--debounce", "1h"}
                                         << "--debounce needs --id";
    QTest::newRow("debounce with replace")
        << QStringList{"push", "q", "x", "--id", "a", "--debounce", "1h", "--replace"}
        << "cannot be combined";
    QTest::newRow("payload without debounce")
        << QStringList{"push", "q", "x", "--id", "a", "--debounce-payload"}
        << "--debounce-payload needs --debounce";
    QTest::newRow("dedup under a second")
        << QStringList{"push", "q", "x", "--id", "a", "--dedup", "500ms"} << "at least 1s";
    QTest::newRow("dedup window garbage") << QStringList{"config", "q", "dedup_window", "soon"}
                                          << "soon";
    QTest::newRow("dedup_max of 0") << QStringList{"config", "q", "dedup_max", "0"}
                                    << "dedup_max must be a whole number from 1";
}

void TestCliKeep::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const QByteArray before = m_server.cli({"KEYS", "*"});
    const CliRun r = delayq(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    QCOMPARE(m_server.cli({"KEYS", "*"}), before);
}

QTEST_GUILESS_MAIN(TestCliKeep)
#include "tst_clikeep.moc"
