#include "clisuite.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

// delayq show --history (docs/cli.md, "show"): a task's events, written by real `delayq work`
// processes and the CLI's own reschedule, read back in order while it is in the queue and
// after it was acked; and carried by export and import.
class TestCliHistory : public CliSuite
{
    Q_OBJECT

private:
    QStringList kinds(const QJsonArray& events)
    {
        QStringList out;
        for (const auto& e : events)
            out << e.toObject().value("kind").toString();
        return out;
    }

private slots:
    void aTaskFailedTwiceRescheduledAndAcked()
    {
        QCOMPARE(delayq({"config", "mail", "history", "20"}).exitCode, 0);
        QCOMPARE(delayq({"config", "mail", "backoff", "100ms,1h"}).exitCode, 0);
        QCOMPARE(delayq({"push", "mail", "hello", "--id", "t1"}).exitCode, 0);
        const CliRun failing =
            delayq({"work", "mail", "--name", "flaky", "--quiet", "--handler",
                    "exec:echo upstream said no >&2; exit 3", "--max-tasks", "2"});
        QCOMPARE(failing.exitCode, 0);
        // Its second retry (an hour on) is brought to now by hand.
        QCOMPARE(delayq({"reschedule", "mail", "t1", "--now"}).exitCode, 0);
        const CliRun pending = delayq({"show", "mail", "t1", "--history"});
        QCOMPARE(pending.exitCode, 0);
        QVERIFY2(pending.out.contains("history       6 events, oldest first\n"), pending.out);
        QCOMPARE(
            delayq({"work", "mail", "--name", "steady", "--quiet", "--max-tasks", "1"}).exitCode,
            0);

        const CliRun r = delayq({"show", "mail", "t1", "--history"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("task t1 has left queue mail; its kept history:\n"), r.out);
        QVERIFY2(QRegularExpression("pushed +by \\S+@\\S+ \\(delayq\\), due .*\n.*"
                                    "claimed +by flaky#0, attempt 1, was due .*\n.*"
                                    "failed +by flaky#0, exec: exit 3: upstream said no, retry "
                                    "at .*\n.*claimed +by flaky#0, attempt 2.*\n.*failed .*\n.*"
                                    "rescheduled +by \\S+ \\(delayq\\), due .*\n.*"
                                    "claimed +by steady#0, attempt 3.*\n.*acked +by steady#0\n$")
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 r.out);
        const QJsonObject j = json(delayq({"show", "mail", "t1", "--history", "--json"})).object();
        QVERIFY(j.value("task").isNull());
        QCOMPARE(j.value("finished").toBool(), true);
        QCOMPARE(kinds(j.value("history").toArray()),
                 QStringList({"pushed", "claimed", "failed", "claimed", "failed", "rescheduled",
                              "claimed", "acked"}));
    }

    void offSaysHowToTurnItOn()
    {
        QCOMPARE(delayq({"push", "mail", "hello", "--id", "t1", "--in", "1h"}).exitCode, 0);
        const CliRun r = delayq({"show", "mail", "t1", "--history"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("history       none recorded (the queue's history setting is off"),
                 r.out);
        expectRefusal(delayq({"show", "mail", "nope", "--history"}), 1, "task nope not found");
        expectRefusal(delayq({"config", "mail", "history", "101"}), 2,
                      "history must be a whole number from 0 to 100");
    }

    void exportAndImportCarryIt()
    {
        QCOMPARE(delayq({"config", "mail", "history", "5"}).exitCode, 0);
        QCOMPARE(delayq({"push", "mail", "hello", "--id", "t1", "--in", "1h"}).exitCode, 0);
        const CliRun exported = delayq({"export", "mail"});
        QCOMPARE(exported.exitCode, 0);
        QVERIFY2(exported.out.contains("\"history\":[{\"at\":"), exported.out);
        QCOMPARE(delayq({"import", "copy"}, exported.out).exitCode, 0);
        const QJsonObject j = json(delayq({"show", "copy", "t1", "--history", "--json"})).object();
        QCOMPARE(kinds(j.value("history").toArray()), QStringList({"pushed"}));
    }
};

QTEST_GUILESS_MAIN(TestCliHistory)
#include "tst_clihistory.moc"
