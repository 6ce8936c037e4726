#include "clisuite.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

// delayq restore and delayq bin (docs/cli.md; the recycle bin: docs/design/bin.md).
class TestCliBin : public CliSuite
{
    Q_OBJECT

private slots:
    void cancelThenRestoreByAuditEntry()
    {
        for (const char* id : {"t1", "t2", "t3"})
            QCOMPARE(delayq({"push", "mail", QString("payload of ") + id, "--id", id, "--in", "1h"})
                         .exitCode,
                     0);
        CliRun r = delayq({"cancel", "mail", "t1", "t2"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("delayq restore mail --action "), r.err.constData());

        r = delayq({"bin", "mail", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray actions = json(r).object().value("actions").toArray();
        QCOMPARE(actions.size(), 1);
        const QJsonObject action = actions.at(0).toObject();
        QCOMPARE(action.value("kind").toString(), QStringLiteral("cancel"));
        QCOMPARE(action.value("tasks").toInt(), 2);
        const QString entry = action.value("audit_entry").toString();
        QVERIFY(!entry.isEmpty());

        // The audit entry names the action too.
        r = delayq({"audit", "mail", "--json"});
        const QJsonArray entries = json(r).object().value("entries").toArray();
        bool found = false;
        for (const auto& e : entries)
            if (e.toObject().value("id").toString() == entry) {
                QCOMPARE(e.toObject().value("bin").toString(), action.value("action").toString());
                found = true;
            }
        QVERIFY(found);

        // t1 is taken again: refused and named, t2 restored all the same.
        QCOMPARE(delayq({"push", "mail", "new", "--id", "t1"}).exitCode, 0);
        r = delayq({"restore", "mail", "--action", entry});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("refused (a task with this id is in the queue again) t1"),
                 r.out.constData());
        QVERIFY(r.out.contains("restored t2"));
        r = delayq({"show", "mail", "t2", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).object().value("task").toObject().value("payload").toString(),
                 QStringLiteral("payload of t2"));

        r = delayq({"bin", "mail", "--ids"});
        QVERIFY2(r.out.contains("t1") && !r.out.contains("t2"), r.out.constData());
    }

    void purgeThenRestoreAllDueNow()
    {
        QCOMPARE(delayq({"push", "mail", "a", "--id", "p1", "--in", "1h"}).exitCode, 0);
        CliRun r = delayq({"purge", "mail", "--yes"});
        QCOMPARE(r.exitCode, 0);
        r = delayq({"restore", "mail", "--all", "--due", "now", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).object().value("restored").toInt(), 1);
        // stats counts due tasks by its own estimate of the server's clock, which may lag it by
        // half a slow round trip at connect (up to 25 ms): a task due "now" counts within that.
        const auto dueNow = [&] {
            r = delayq({"stats", "mail", "--json"});
            return json(r).object().value("due_now").toInt(-1);
        };
        QTRY_COMPARE_WITH_TIMEOUT(dueNow(), 1, 10000);
    }

    // bin_bytes takes sizes as dead_max_bytes does (the same parser): 64MB, 1GB, whole bytes.
    void binBytesTakesUnits()
    {
        QCOMPARE(delayq({"config", "mail", "bin_bytes", "64MB"}).exitCode, 0);
        QCOMPARE(delayq({"config", "mail", "bin_bytes"}).out, QByteArray("67108864\n"));
        QCOMPARE(delayq({"config", "mail", "bin_bytes", "1gb", "bin_max", "500"}).exitCode, 0);
        QCOMPARE(delayq({"config", "mail", "bin_bytes"}).out, QByteArray("1073741824\n"));
        QCOMPARE(delayq({"config", "mail", "bin_bytes", "2048"}).exitCode, 0);
        QCOMPARE(delayq({"config", "mail", "bin_bytes"}).out, QByteArray("2048\n"));
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("words");
        QTest::newRow("nothing to restore named")
            << QStringList{"restore", "mail"} << 2 << "--action";
        QTest::newRow("ids and --all")
            << QStringList{"restore", "mail", "x", "--all"} << 2 << "one of them";
        QTest::newRow("no such audit entry")
            << QStringList{"restore", "mail", "--action", "1-0"} << 1 << "no audit entry";
        QTest::newRow("no such action")
            << QStringList{"restore", "mail", "--action", "abc"} << 1 << "holds nothing";
        QTest::newRow("bad due") << QStringList{"restore", "mail", "--all", "--due", "soon"} << 2
                                 << "--due";
        QTest::newRow("bin_max negative")
            << QStringList{"config", "mail", "bin_max", "-1"} << 2 << "bin_max";
        QTest::newRow("bin_bytes 12x")
            << QStringList{"config", "mail", "bin_bytes", "12x"} << 2 << "bin_bytes";
        QTest::newRow("bin_bytes over 4GB")
            << QStringList{"config", "mail", "bin_bytes", "5GB"} << 2 << "64MB or 1GB";
    }
    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, words);
        const CliRun r = delayq(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(words.toUtf8()), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliBin)
#include "tst_clibin.moc"
