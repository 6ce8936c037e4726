#include "clisuite.h"
#include <delayq/version.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <unistd.h>

// delayq audit, and the entries the CLI's own commands write (docs/cli.md, "audit").
class TestCliAudit : public CliSuite
{
    Q_OBJECT

private slots:
    void commandsWriteEntriesThatAuditShows()
    {
        QCOMPARE(delayq({"push", "mail", "a", "--id", "t1", "--in", "1h"}).exitCode, 0);
        QCOMPARE(delayq({"push", "mail", "b", "--id", "t2", "--in", "1h"}).exitCode, 0);
        QCOMPARE(delayq({"reschedule", "mail", "t2", "--in", "2h"}).exitCode, 0);
        QCOMPARE(delayq({"cancel", "mail", "t1"}).exitCode, 0);
        QCOMPARE(delayq({"pause", "mail"}).exitCode, 0);
        QCOMPARE(delayq({"resume", "mail"}).exitCode, 0);
        QCOMPARE(delayq({"config", "mail", "max_attempts", "3"}).exitCode, 0);
        // Refused or changing nothing: no entry.
        QCOMPARE(delayq({"cancel", "mail", "nope"}).exitCode, 1);
        QCOMPARE(delayq({"config", "mail", "max_attempts", "zero"}).exitCode, 2);
        QCOMPARE(delayq({"--read-only", "pause", "mail"}).exitCode, 1);
        QCOMPARE(delayq({"resume", "mail"}).exitCode, 0); // already running

        CliRun r = delayq({"--read-only", "audit", "mail", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray entries = json(r).object().value("entries").toArray();
        QStringList actions;
        for (const auto& e : entries)
            actions << e.toObject().value("action").toString();
        QCOMPARE(actions, QStringList({"config", "resume", "pause", "cancel", "reschedule", "push",
                                       "push"}));
        const QJsonObject cancel = entries.at(3).toObject();
        QCOMPARE(cancel.value("count").toInt(), 1);
        QCOMPARE(cancel.value("ids").toArray(), QJsonArray({"t1"}));
        QCOMPARE(cancel.value("user").toString(), QStringLiteral("default"));
        QCOMPARE(cancel.value("tool").toString(), QStringLiteral("delayq"));
        QCOMPARE(cancel.value("version").toString(), QStringLiteral(DELAYQ_VERSION));
        char host[256] = {};
        QCOMPARE(gethostname(host, sizeof host - 1), 0);
        QCOMPARE(cancel.value("host").toString(), QString::fromLocal8Bit(host));
        QVERIFY(!cancel.value("os_user").toString().isEmpty());
        QVERIFY(cancel.value("time").toDouble() > 1.7e12);
        QCOMPARE(entries.at(0).toObject().value("detail").toString(),
                 QStringLiteral("max_attempts=3"));

        r = delayq({"audit", "mail", "--limit", "2"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("ACTION"), r.out.constData());
        QVERIFY(r.out.contains("max_attempts=3"));
        QVERIFY(r.out.contains("resume"));
        QVERIFY(!r.out.contains("pause"));
        QVERIFY(r.out.contains("2 entries, newest first"));

        r = delayq({"audit", "mail", "--since", "1h", "--json"});
        QCOMPARE(json(r).object().value("entries").toArray().size(), 7);
    }

    // An import is a change made by someone: one entry with the ids it wrote, none the second
    // time (nothing new).
    void importWritesAnEntry()
    {
        QCOMPARE(delayq({"push", "src", "a", "--id", "i1", "--in", "1h"}).exitCode, 0);
        const CliRun exported = delayq({"export", "src"});
        QCOMPARE(exported.exitCode, 0);
        QCOMPARE(delayq({"import", "dst"}, exported.out).exitCode, 0);
        QCOMPARE(delayq({"import", "dst"}, exported.out).exitCode, 0);
        const QJsonArray entries =
            json(delayq({"audit", "dst", "--json"})).object().value("entries").toArray();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.at(0).toObject().value("action").toString(), QStringLiteral("import"));
        QCOMPARE(entries.at(0).toObject().value("ids").toArray(), QJsonArray({"i1"}));
    }

    // A worker run by the CLI writes nothing: only the push is there.
    void workersWriteNone()
    {
        QCOMPARE(delayq({"push", "jobs", "x", "--count", "5"}).exitCode, 0);
        QCOMPARE(
            delayq({"work", "jobs", "--handler", "exec:true", "--until-empty", "--quiet"}).exitCode,
            0);
        const QJsonArray entries =
            json(delayq({"audit", "jobs", "--json"})).object().value("entries").toArray();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.at(0).toObject().value("action").toString(), QStringLiteral("push"));
        QCOMPARE(entries.at(0).toObject().value("count").toInt(), 5);
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no queue") << QStringList{"audit"} << "missing argument";
        QTest::newRow("limit 0") << QStringList{"audit", "mail", "--limit", "0"} << "--limit";
        QTest::newRow("since not a duration")
            << QStringList{"audit", "mail", "--since", "yesterday"} << "--since";
        QTest::newRow("bad queue name") << QStringList{"audit", "a b"} << "queue name";
    }
    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        expectUsageError(delayq(args), message);
    }

    void emptyTrail()
    {
        const CliRun r = delayq({"audit", "nothing"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("no audit entries for nothing\n"));
    }
};

QTEST_GUILESS_MAIN(TestCliAudit)
#include "tst_cliaudit.moc"
