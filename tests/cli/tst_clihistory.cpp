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

    // An exec handler's stderr is any bytes: JSON keeps them all in last_error_base64 and the
    // failed event's text_base64 (last_error and text alone have U+FFFD there); text output
    // shows them as \xff escapes, never raw.
    void errorBytesThatAreNotUtf8()
    {
        const QByteArray error("exec: exit 3: no \xff\xfe way");
        QCOMPARE(delayq({"config", "mail", "history", "10"}).exitCode, 0);
        QCOMPARE(delayq({"push", "mail", "hello", "--id", "t1"}).exitCode, 0);
        QCOMPARE(delayq({"work", "mail", "--name", "flaky", "--quiet", "--handler",
                         "exec:printf 'no \\377\\376 way' >&2; exit 3", "--max-tasks", "1"})
                     .exitCode,
                 0);
        auto bytes = [](const QJsonObject& o, const char* name) {
            return QByteArray::fromBase64(o.value(name).toString().toLatin1());
        };

        const QJsonObject listed = json(delayq({"ls", "mail", "--json"}))
                                       .object()
                                       .value("tasks")
                                       .toArray()
                                       .at(0)
                                       .toObject();
        QCOMPARE(bytes(listed, "last_error_base64"), error);
        QCOMPARE(listed.value("last_error").toString(),
                 QStringLiteral("exec: exit 3: no \uFFFD\uFFFD way"));
        QVERIFY(!listed.contains("worker_base64"));
        QVERIFY(!listed.contains("payload_base64"));

        const QJsonObject shown =
            json(delayq({"show", "mail", "t1", "--history", "--json"})).object();
        QCOMPARE(bytes(shown.value("task").toObject(), "last_error_base64"), error);
        int failed = 0;
        for (const auto& value : shown.value("history").toArray()) {
            const QJsonObject e = value.toObject();
            QVERIFY(!e.contains("who_base64"));
            if (e.value("kind").toString() != "failed") {
                QVERIFY(!e.contains("text_base64"));
                continue;
            }
            ++failed;
            QCOMPARE(e.value("who").toString(), QStringLiteral("flaky#0"));
            QCOMPARE(bytes(e, "text_base64"), error);
        }
        QCOMPARE(failed, 1);

        const CliRun text = delayq({"show", "mail", "t1", "--history"});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(!text.out.contains('\xff') && !text.out.contains('\xfe'), text.out);
        QVERIFY2(text.out.contains("last error    exec: exit 3: no \\xff\\xfe way\n"), text.out);
        QVERIFY2(text.out.contains("by flaky#0, exec: exit 3: no \\xff\\xfe way, retry at"),
                 text.out);
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
