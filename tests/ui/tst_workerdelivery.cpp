#include "webhookendpoint.h"
#include "widgets/fielderror.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include "worker/deliverytargetfield.h"
#include "worker/workerdock.h"
#include <delayq/connection.h>
#include <delayq/deliveries.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace delayq::ui;

// The embedded worker delivering to a target instead of its simulated handler, against a real
// redis-server and real consumer processes: what is typed is validated next to the field, the
// target is checked before anything is claimed, and its answers reach the log and counters.
class TestWorkerDelivery : public WindowSuite
{
    Q_OBJECT

public:
    TestWorkerDelivery() : WindowSuite(QStringLiteral("tst_workerdelivery")) {}

private slots:
    // What is not a target, or is a malformed one, is refused as it is typed, with the
    // reason under the field, and Start stays off; the simulated handlers still start.
    void invalidTargetDisablesStart_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("message"); // empty: deliveryFor's own text
        const QString notATarget =
            QStringLiteral("not a target: use amqp://, http(s):// or pipe:CMD");
        QTest::newRow("nothing typed") << ""
                                       << "";
        QTest::newRow("ftp URL") << "ftp://host/orders" << notATarget;
        QTest::newRow("a Redis URL") << "redis://127.0.0.1:6379" << notATarget;
        QTest::newRow("a bare word") << "orders" << notATarget;
        QTest::newRow("amqp, an unknown key") << "amqp://127.0.0.1/?no_such_key=1"
                                              << "";
        QTest::newRow("pipe, no command") << "pipe:"
                                          << "";
    }
    void invalidTargetDisablesStart()
    {
        QFETCH(QString, typed);
        QFETCH(QString, message);
        WorkerDock* dock = openDock();
        chooseTarget(dock, typed);
        QString expected = message;
        if (expected.isEmpty() && !typed.isEmpty()) {
            try {
                delayq::deliveryFor(typed.toStdString(), {});
                QFAIL("deliveryFor took the malformed target");
            } catch (const delayq::Error& e) {
                expected = QString::fromUtf8(e.what());
            }
        }
        FieldError* error = dock->deliveryField()->error();
        QCOMPARE(error->text(), expected);
        QCOMPARE(error->isVisibleTo(dock), !expected.isEmpty());
        QVERIFY(!dock->startButton()->isEnabled());
        dock->startButton()->click();
        QVERIFY(!dock->isRunning());
        QVERIFY(!dock->isChecking());

        // The target is not used by the simulated handler: that one starts.
        dock->behaviourBox()->setCurrentIndex(dock->behaviourBox()->findData(WorkerDock::Ack));
        QVERIFY(!dock->deliveryField()->isEnabled());
        QVERIFY(dock->startButton()->isEnabled());
    }

    // A consumer process that acks: the pushed tasks are delivered to it, acked in Redis, and
    // the log and the counters say so.
    void pipeConsumerAcks()
    {
        if (const QString why = missing(QStringLiteral("pipe:true")); !why.isEmpty())
            QSKIP(qPrintable(why));
        m_fixture.pushTasks(QStringLiteral("jobs"), {"t1", "t2", "t3", "t4", "t5"});
        WorkerDock* dock = openDock();
        const QString spec =
            consumer(QStringLiteral("ack"), QStringLiteral("{\"id\": t[\"id\"], \"ack\": True}"));
        chooseTarget(dock, spec);
        QCOMPARE(dock->deliveryField()->error()->text(), QString());
        QVERIFY(dock->startButton()->isEnabled());
        dock->startButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(dock->isRunning(), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(dock->acked(), 5LL, 20000);
        const QString log = dock->log()->toPlainText();
        QVERIFY2(log.contains(QStringLiteral("delivering to ") + spec), qPrintable(log));
        for (const char* id : {"t1", "t2", "t3", "t4", "t5"})
            QTRY_VERIFY2(dock->log()->toPlainText().contains(
                             QStringLiteral("acked %1 (attempt 1").arg(QLatin1String(id))),
                         qPrintable(dock->log()->toPlainText()));
        QTRY_VERIFY(dock->countersLabel()->text().contains(QStringLiteral("acked 5")));
        QCOMPARE(stat("acked"), 5);
        QCOMPARE(m_server.cli({"ZCARD", "dq:{jobs}:pending"}).trimmed(), QByteArray("0"));
        stop(dock);
    }

    // A consumer that fails its task: the log line of the retry carries the consumer's own
    // error text, and the counters count the failure.
    void consumerFailureShowsItsError()
    {
        if (const QString why = missing(QStringLiteral("pipe:true")); !why.isEmpty())
            QSKIP(qPrintable(why));
        m_fixture.pushTasks(QStringLiteral("jobs"), {"f1"});
        WorkerDock* dock = openDock();
        chooseTarget(dock,
                     consumer(QStringLiteral("fail"),
                              QStringLiteral("{\"id\": t[\"id\"], \"fail\": \"card declined\"}")));
        dock->startButton()->click();
        QTRY_VERIFY2_WITH_TIMEOUT(
            dock->log()->toPlainText().contains(QStringLiteral("retried f1 (attempt 1")),
            qPrintable(dock->log()->toPlainText()), 20000);
        const QString line = lineWith(dock, QStringLiteral("retried f1 (attempt 1"));
        QVERIFY2(line.endsWith(QStringLiteral(": card declined")), qPrintable(line));
        QTRY_VERIFY(dock->countersLabel()->text().contains(QStringLiteral("failed 1")));
        QCOMPARE(dock->acked(), 0LL);
        stop(dock);
    }

    // A webhook's answers, as the endpoint gave them, in the log line of each task and in the
    // counters: a 2xx acks, a 503 retries with its status and body, a 410 is dead at once.
    void webhookAnswersShowInLog_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("said"); // in the log line's error text
        QTest::addColumn<QString>("counter");
        QTest::newRow("204") << "/hook"
                             << "acked"
                             << ""
                             << "acked 1";
        QTest::newRow("503 with a body") << "/status/503?body=busy%20right%20now"
                                         << "retried"
                                         << "503"
                                         << "failed 1";
        QTest::newRow("410 Gone") << "/status/410"
                                  << "dead"
                                  << "410"
                                  << "dead 1";
    }
    void webhookAnswersShowInLog()
    {
        QFETCH(QString, path);
        QFETCH(QString, outcome);
        QFETCH(QString, said);
        QFETCH(QString, counter);
        if (const QString why = missing(QStringLiteral("http://127.0.0.1/")); !why.isEmpty())
            QSKIP(qPrintable(why));
        WebhookEndpoint endpoint({});
        QVERIFY2(endpoint.start(), qPrintable(endpoint.errorString()));
        m_fixture.pushTasks(QStringLiteral("jobs"), {"w1"});
        WorkerDock* dock = openDock();
        chooseTarget(dock, endpoint.url(path));
        dock->startButton()->click();
        const QString line = outcome + QStringLiteral(" w1 (attempt 1");
        QTRY_VERIFY2_WITH_TIMEOUT(dock->log()->toPlainText().contains(line),
                                  qPrintable(dock->log()->toPlainText()), 20000);
        const QString shown = lineWith(dock, line);
        if (said.isEmpty())
            QVERIFY2(shown.endsWith(QStringLiteral(" late)")), qPrintable(shown));
        else
            QVERIFY2(shown.section(QStringLiteral(" late): "), 1).contains(said),
                     qPrintable(shown));
        if (outcome == QLatin1String("retried"))
            QVERIFY2(shown.contains(QStringLiteral("busy right now")), qPrintable(shown));
        QTRY_VERIFY2(dock->countersLabel()->text().contains(counter),
                     qPrintable(dock->countersLabel()->text()));
        QCOMPARE(endpoint.requests().size(), 1);
        stop(dock);
    }

    // A consumer that exits after its first answer: the task it left fails with the reason,
    // the target's notice that it restarted the consumer reaches the log, and the retry is
    // acked by the new one.
    void consumerRestartIsLogged()
    {
        if (const QString why = missing(QStringLiteral("pipe:true")); !why.isEmpty())
            QSKIP(qPrintable(why));
        {
            delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
            delayq::Queue(conn, "jobs").setConfig("backoff", "100ms");
        }
        m_fixture.pushTasks(QStringLiteral("jobs"), {"r1", "r2"});
        WorkerDock* dock = openDock();
        const QString path = m_dir.filePath(QStringLiteral("once.py"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("import json, sys\n"
                   "t = json.loads(sys.stdin.readline())\n"
                   "print(json.dumps({\"id\": t[\"id\"], \"ack\": True}), flush=True)\n"
                   "sys.exit(3)\n");
        file.close();
        chooseTarget(dock, QStringLiteral("pipe:python3 -u ") + path);
        // One thread: the retry goes to the consumer that was restarted, not to a first one.
        dock->concurrencySpin()->setValue(1);
        dock->startButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(dock->acked(), 2LL, 20000);
        QTRY_VERIFY2(dock->log()->toPlainText().contains(QStringLiteral("acked r2 (attempt 2")),
                     qPrintable(dock->log()->toPlainText()));
        const QString log = dock->log()->toPlainText();
        const QString retried = lineWith(dock, QStringLiteral("retried r2 (attempt 1"));
        QVERIFY2(retried.endsWith(QStringLiteral(": the consumer exited with status 3")),
                 qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("pipe consumer restarted")), qPrintable(log));
        stop(dock);
    }

    // A target that cannot be checked (a command that does not start, nothing listening):
    // the cause is shown, no worker runs and nothing is claimed. A password in the URL
    // appears nowhere.
    void uncheckableTargetClaimsNothing_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("cause"); // how the log line goes on after "cannot start: "
        const QString away = QStringLiteral("%1 refused or did not answer: ");
        // The check runs the command through sh -n: one that does not parse cannot start.
        QTest::newRow("pipe, a command sh cannot parse")
            << "pipe:python3 consumer.py ("
            << "the pipe command is not valid /bin/sh: ";
        QTest::newRow("http, nothing listens")
            << "http://127.0.0.1:1/hook" << away.arg(QStringLiteral("http://127.0.0.1:1/hook"));
        QTest::newRow("amqp, nothing listens, with a password")
            << "amqp://guest:s3cret@127.0.0.1:1/?exchange=orders&routing_key=k"
            << away.arg(QString::fromStdString(delayq::printableSpec(
                   "amqp://guest:s3cret@127.0.0.1:1/?exchange=orders&routing_key=k")));
    }
    void uncheckableTargetClaimsNothing()
    {
        QFETCH(QString, spec);
        QFETCH(QString, cause);
        if (const QString why = missing(spec); !why.isEmpty())
            QSKIP(qPrintable(why));
        m_fixture.pushTasks(QStringLiteral("jobs"), {"kept"});
        WorkerDock* dock = openDock();
        chooseTarget(dock, spec);
        QVERIFY(dock->startButton()->isEnabled());
        dock->startButton()->click();
        QVERIFY(dock->isChecking());
        QVERIFY(!dock->startButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!dock->isChecking(), 30000);
        QVERIFY(!dock->isRunning());
        const QString line = lineWith(dock, QStringLiteral("cannot start: "));
        const QString said = line.section(QStringLiteral("cannot start: "), 1);
        QVERIFY2(said.startsWith(cause), qPrintable(line));
        // The cause itself, not only that it failed.
        QVERIFY2(said.size() > cause.size() + 5, qPrintable(line));
        QCOMPARE(dock->deliveryField()->error()->text(), said);
        const QString everything = dock->log()->toPlainText() + dock->windowTitle() +
                                   dock->deliveryField()->error()->text();
        QVERIFY2(!everything.contains(QStringLiteral("s3cret")), qPrintable(everything));
        QCOMPARE(m_server.cli({"ZCARD", "dq:{jobs}:pending"}).trimmed(), QByteArray("1"));
        QCOMPARE(stat("claimed"), 0);
        // The operator may try again.
        QVERIFY(dock->startButton()->isEnabled());
        QVERIFY(dock->deliveryField()->edit()->isEnabled());
    }

private:
    WorkerDock* openDock()
    {
        m_fixture.openQueue(QStringLiteral("jobs"));
        return m_fixture.window()->workerDock();
    }

    // "Deliver to a target", then the spec typed key by key as the operator does.
    static void chooseTarget(WorkerDock* dock, const QString& spec)
    {
        dock->behaviourBox()->setCurrentIndex(dock->behaviourBox()->findData(WorkerDock::Deliver));
        QVERIFY(dock->deliveryField()->isEnabled());
        QLineEdit* edit = dock->deliveryField()->edit();
        edit->clear();
        QTest::keyClicks(edit, spec);
        QCOMPARE(edit->text(), spec);
    }

    // Why the target is not there to test (its branch not merged yet), or empty.
    static QString missing(const QString& spec)
    {
        try {
            delayq::deliveryFor(spec.toStdString(), {});
            return {};
        } catch (const delayq::Error& e) {
            return QStringLiteral("%1 is not built here: %2")
                .arg(spec, QString::fromUtf8(e.what()));
        }
    }

    // pipe: running a Python consumer that answers each task line with `answer` (an
    // expression of the task `t`).
    QString consumer(const QString& name, const QString& answer)
    {
        const QString path = m_dir.filePath(name + QStringLiteral(".py"));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        file.write(QStringLiteral("import json, sys\n"
                                  "for line in sys.stdin:\n"
                                  "    t = json.loads(line)\n"
                                  "    print(json.dumps(%1), flush=True)\n")
                       .arg(answer)
                       .toUtf8());
        return QStringLiteral("pipe:python3 -u ") + path;
    }

    int stat(const char* counter) const
    {
        return m_server.cli({"HGET", "dq:{jobs}:stats", counter}).trimmed().toInt();
    }

    static QString lineWith(WorkerDock* dock, const QString& text)
    {
        for (const QString& line : dock->log()->toPlainText().split(QLatin1Char('\n')))
            if (line.contains(text))
                return line;
        return {};
    }

    static void stop(WorkerDock* dock)
    {
        QSignalSpy stopped(dock, &WorkerDock::runningChanged);
        dock->stopWorker();
        QVERIFY(stopped.wait(10000));
    }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestWorkerDelivery)
#include "tst_workerdelivery.moc"
