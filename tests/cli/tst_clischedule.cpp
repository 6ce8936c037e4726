#include "clisuite.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <QTimeZone>

// delayq schedule (docs/schedules.md): each action, its text and --json output, and the
// refusals, which name their cause and change nothing.
class TestCliSchedule : public CliSuite
{
    Q_OBJECT

private slots:
    void addShowListEditRemove()
    {
        CliRun r = delayq({"schedule", "add", "mail", "digest", "--cron", "0 9 * * 1-5", "--tz",
                           "Europe/Berlin", "{\"kind\":\"digest\"}", "--max-attempts", "3"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("added schedule digest on mail: cron 0 9 * * 1-5 "
                                  "(Europe/Berlin), next fire "),
                 r.out.constData());

        r = delayq({"schedule", "show", "mail", "digest", "--json", "--fires", "3"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject shown = json(r).object();
        const QJsonObject s = shown.value("schedule").toObject();
        QCOMPARE(s.value("cron").toString(), QStringLiteral("0 9 * * 1-5"));
        QCOMPARE(s.value("zone").toString(), QStringLiteral("Europe/Berlin"));
        QCOMPARE(s.value("state").toString(), QStringLiteral("active"));
        QCOMPARE(s.value("max_attempts").toInt(), 3);
        QCOMPARE(s.value("payload").toString(), QStringLiteral("{\"kind\":\"digest\"}"));
        const QJsonArray fires = shown.value("next_fires").toArray();
        QCOMPARE(fires.size(), 3);
        QCOMPARE(fires.at(0).toDouble(), s.value("next_fire").toDouble());
        for (const auto& f : fires) {
            // 09:00 in Berlin is 07:00 or 08:00 UTC, on a weekday.
            const QDateTime berlin =
                QDateTime::fromMSecsSinceEpoch(qint64(f.toDouble()), QTimeZone("Europe/Berlin"));
            QCOMPARE(berlin.time(), QTime(9, 0));
            QVERIFY(berlin.date().dayOfWeek() <= 5);
        }

        r = delayq({"schedule", "show", "mail", "digest"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("next fires"));
        QVERIFY(r.out.contains("task s:digest:"));

        QCOMPARE(delayq({"schedule", "add", "mail", "beat", "--every", "30s", "ping"}).exitCode, 0);
        r = delayq({"schedule", "ls", "mail"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("NAME"));
        QVERIFY(r.out.contains("every 30s"));
        QVERIFY(r.out.indexOf("beat") < r.out.indexOf("digest")); // by name

        r = delayq({"schedule", "edit", "mail", "digest", "--cron", "30 8 * * *", "--payload",
                    "new", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject edited = json(r).object();
        QCOMPARE(edited.value("cron").toString(), QStringLiteral("30 8 * * *"));
        QCOMPARE(edited.value("zone").toString(), QStringLiteral("Europe/Berlin")); // kept
        QCOMPARE(edited.value("max_attempts").toInt(), 3);                          // kept
        QCOMPARE(edited.value("version").toInt(), 2);

        r = delayq({"schedule", "pause", "mail", "digest"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("paused, next fire none"), r.out.constData());
        QCOMPARE(delayq({"schedule", "resume", "mail", "digest"}).exitCode, 0);

        r = delayq({"schedule", "rm", "mail", "digest"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("the tasks it made stay"));
        expectRefusal(delayq({"schedule", "rm", "mail", "digest"}), 1, "no schedule 'digest'");
        expectRefusal(delayq({"schedule", "show", "mail", "digest"}), 1, "no schedule 'digest'");

        r = delayq({"audit", "mail", "--json"});
        QStringList actions;
        for (const auto& e : json(r).object().value("entries").toArray())
            actions << e.toObject().value("action").toString();
        QCOMPARE(actions, (QStringList{"schedule_rm", "schedule_resume", "schedule_pause",
                                       "schedule_edit", "schedule_add", "schedule_add"}));
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("malformed cron")
            << QStringList{"add", "mail", "x", "--cron", "0 9 * *"} << 2 << "expected 5 fields";
        QTest::newRow("hour out of range")
            << QStringList{"add", "mail", "x", "--cron", "0 24 * * *"} << 2
            << "cron field hour: '24' is out of range 0-23";
        QTest::newRow("unknown zone")
            << QStringList{"add", "mail", "x", "--cron", "0 9 * * *", "--tz", "Mars/Base"} << 2
            << "unknown time zone 'Mars/Base'";
        QTest::newRow("every 0") << QStringList{"add", "mail", "x", "--every", "0s"} << 2
                                 << "exactly one of a cron expression and an interval";
        QTest::newRow("neither") << QStringList{"add", "mail", "x"} << 2 << "needs --cron";
        QTest::newRow("both") << QStringList{"add",       "mail",    "x", "--cron",
                                             "* * * * *", "--every", "1m"}
                              << 2 << "--cron";
        QTest::newRow("tz with every")
            << QStringList{"add", "mail", "x", "--every", "1m", "--tz", "UTC"} << 2
            << "--tz applies to a cron schedule";
        QTest::newRow("payload over the limit")
            << QStringList{"add", "mail", "x", "--every", "1m", "0123456789abcdefX"} << 1
            << "over the queue's max_payload of 16";
        QTest::newRow("name taken") << QStringList{"add", "mail", "taken", "--every", "1m"} << 1
                                    << "schedule 'taken' exists already";
        QTest::newRow("bad name") << QStringList{"add", "mail", "a/b", "--every", "1m"} << 2
                                  << "a schedule name may only hold";
        QTest::newRow("unknown action")
            << QStringList{"start", "mail", "x"} << 2 << "unknown schedule action 'start'";
        QTest::newRow("option of another action")
            << QStringList{"ls", "mail", "--fires", "3"} << 2 << "schedule ls takes no --fires";
        QTest::newRow("edit a missing one")
            << QStringList{"edit", "mail", "ghost", "--every", "1m"} << 1 << "no schedule 'ghost'";
        QTest::newRow("jitter longer than the interval")
            << QStringList{"add", "mail", "x", "--every", "1m", "--jitter", "2m"} << 2
            << "the jitter (2m) must not be longer than the interval (1m)";
        QTest::newRow("jitter negative")
            << QStringList{"add", "mail", "x", "--every", "1m", "--jitter", "-1s"} << 2
            << "it is negative";
        QTest::newRow("overlap neither")
            << QStringList{"add", "mail", "x", "--every", "1m", "--overlap", "queue"} << 2
            << "--overlap is allow or skip, not 'queue'";
        QTest::newRow("run now of a missing one")
            << QStringList{"run-now", "mail", "ghost"} << 1 << "no schedule 'ghost'";
        QTest::newRow("run now, request id malformed")
            << QStringList{"run-now", "mail", "taken", "--request-id", "a b"} << 2
            << "a run-now request id must be";
        const auto at = [](qint64 minutes) {
            return QDateTime::currentDateTimeUtc().addSecs(minutes * 60).toString(Qt::ISODate);
        };
        QTest::newRow("backfill window reversed")
            << QStringList{"backfill", "mail", "taken", "--from", at(-10), "--to", at(-20)} << 2
            << "must start before it ends";
        QTest::newRow("backfill window ends after now")
            << QStringList{"backfill", "mail", "taken", "--from", at(-10), "--to", at(10)} << 2
            << "must end by now";
        QTest::newRow("backfill too many fires")
            << QStringList{"backfill", "mail", "every-second", "--from", at(-60), "--to", at(-1)}
            << 2 << "more than 1000 fires of schedule 'every-second' (at most 1000 a backfill)";
        QTest::newRow("backfill without a window")
            << QStringList{"backfill", "mail", "taken", "--from", at(-10)} << 2
            << "needs --from TIME and --to TIME";
    }

    // run-now makes one task per request id; backfill makes the rule's past fires once.
    void runNowAndBackfill()
    {
        QCOMPARE(delayq({"schedule", "add", "mail", "beat", "--every", "1m", "--start",
                         QDateTime::currentDateTimeUtc().addSecs(-3600 + 30).toString(Qt::ISODate),
                         "--jitter", "10s", "--overlap", "skip", "ping"})
                     .exitCode,
                 0);
        CliRun r = delayq({"schedule", "ls", "mail"});
        QVERIFY2(r.out.contains("every 1m, overlap skip, jitter 10s"), r.out.constData());
        r = delayq({"schedule", "show", "mail", "beat"});
        QVERIFY2(r.out.contains("overlap      skip"), r.out.constData());
        QVERIFY2(r.out.contains("jitter       up to 10s"), r.out.constData());
        r = delayq({"schedule", "run-now", "mail", "beat", "--request-id", "r1"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("task s:beat:run:r1"), r.out.constData());
        r = delayq({"schedule", "run-now", "mail", "beat", "--request-id", "r1", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).object().value("made").toBool(), false);
        const QString from = QDateTime::currentDateTimeUtc().addSecs(-600).toString(Qt::ISODate);
        const QString to = QDateTime::currentDateTimeUtc().addSecs(-1).toString(Qt::ISODate);
        r = delayq({"schedule", "backfill", "mail", "beat", "--from", from, "--to", to, "--json"});
        QCOMPARE(r.exitCode, 0);
        QJsonObject done = json(r).object();
        QCOMPARE(done.value("fires").toArray().size(), 10);
        QCOMPARE(done.value("made").toInt(), 10);
        r = delayq({"schedule", "backfill", "mail", "beat", "--from", from, "--to", to});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("0 tasks made, 10 made before"), r.out.constData());
    }

    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QCOMPARE(delayq({"config", "mail", "max_payload", "16"}).exitCode, 0);
        QCOMPARE(delayq({"schedule", "add", "mail", "taken", "--every", "1h"}).exitCode, 0);
        QCOMPARE(delayq({"schedule", "add", "mail", "every-second", "--every", "1s", "--start",
                         QDateTime::currentDateTimeUtc().addSecs(-7200).toString(Qt::ISODate)})
                     .exitCode,
                 0);
        const QByteArray before = delayq({"schedule", "ls", "mail", "--json"}).out;
        const CliRun r = delayq(QStringList{"schedule"} + args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QCOMPARE(delayq({"schedule", "ls", "mail", "--json"}).out, before);
    }

    // A `delayq work` process fires the schedule: the task it makes is acked.
    void workerFires()
    {
        QCOMPARE(delayq({"schedule", "add", "jobs", "beat", "--every", "1s", "ping"}).exitCode, 0);
        const CliRun r = delayq({"work", "jobs", "--max-tasks", "2", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject s = json(delayq({"schedule", "show", "jobs", "beat", "--json"}))
                                  .object()["schedule"]
                                  .toObject();
        QVERIFY(s.value("fired").toInt() >= 2);
        QVERIFY(r.out.contains("s:beat:"));
    }
};

QTEST_GUILESS_MAIN(TestCliSchedule)
#include "tst_clischedule.moc"
