#include "clisuite.h"
#include "exporterprocess.h"
#include <delayq/version.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <csignal>

// delayq workers against real `delayq work` processes (docs/cli.md, "workers"): listed with
// their figures, turned gone by a SIGKILL, left out once dropped, gone at once after a
// clean stop; and the queues with tasks due and no live consumer, flagged with exit 1.
class TestCliWorkers : public CliSuite
{
    Q_OBJECT

private slots:
    void workersAreListedWithTheirFigures()
    {
        for (int i = 0; i < 40; ++i)
            QCOMPARE(delayq({"push", "mail", "x", "--id", QStringLiteral("t%1").arg(i)}).exitCode,
                     0);
        const auto acker = m_cli.start({"work", "mail", "--name", "acker", "--heartbeat", "200ms",
                                        "--concurrency", "2", "--quiet", "--max-tasks", "20"});
        QVERIFY(acker->waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(acker->state(), QProcess::NotRunning, 20000);
        const auto slow =
            m_cli.start({"work", "mail", "--name", "slow", "--heartbeat", "200ms", "--handler",
                         "sleep:60000", "--batch", "3", "--max-batch", "3", "--quiet"});
        QVERIFY(slow->waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(worker("slow").value("held").toInt() == 3, 10000);

        const QJsonObject w = worker("slow");
        QCOMPARE(w.value("live").toBool(), true);
        QCOMPARE(w.value("pid").toInteger(), slow->processId());
        QCOMPARE(w.value("handler").toString(), QStringLiteral("sleep"));
        QCOMPARE(w.value("threads").toInt(), 1);
        QCOMPARE(w.value("version").toString(), QStringLiteral(DELAYQ_VERSION));
        QCOMPARE(w.value("acked").toInt(), 0);
        QCOMPARE(w.value("stalled").toBool(), false);
        QVERIFY(!w.value("host").toString().isEmpty());
        // The one that stopped after 20 tasks left the registry as it ended.
        QVERIFY(worker("acker").isEmpty());

        const CliRun r = delayq({"workers", "mail"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(QRegularExpression("\nmail +slow +live +\\S+ +" +
                                    QString::number(slow->processId()) + " +sleep +1 ")
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 r.out.constData());
        ::kill(static_cast<pid_t>(slow->processId()), SIGKILL);
        QVERIFY(slow->waitForFinished(5000));
    }

    // Killed, the worker is gone within three beats and the queue with due tasks is flagged;
    // twenty beats later it is no longer listed.
    void aKilledWorkerTurnsGoneAndItsQueueIsFlagged()
    {
        for (int i = 0; i < 5; ++i)
            QCOMPARE(delayq({"push", "mail", "x"}).exitCode, 0);
        const auto p =
            m_cli.start({"work", "mail", "--name", "doomed", "--heartbeat", "200ms", "--handler",
                         "sleep:60000", "--batch", "2", "--max-batch", "2", "--quiet"});
        QVERIFY(p->waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(worker("doomed").value("held").toInt(), 2, 10000);
        QCOMPARE(delayq({"workers", "mail"}).exitCode, 0);
        ::kill(static_cast<pid_t>(p->processId()), SIGKILL);
        QVERIFY(p->waitForFinished(5000));

        QTRY_VERIFY_WITH_TIMEOUT(!worker("doomed").value("live").toBool(true), 3000);
        const CliRun r = delayq({"workers", "mail"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("doomed  gone"), r.out.constData());
        QVERIFY2(QRegularExpression("\nmail: no consumer: 3 due, oldest \\S+ late\n$")
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 r.out.constData());
        const QJsonObject q = json(delayq({"workers", "mail", "--json"}))
                                  .object()
                                  .value("queues")
                                  .toArray()
                                  .at(0)
                                  .toObject();
        QCOMPARE(q.value("consumer_state").toString(), QStringLiteral("no_consumer"));
        QCOMPARE(q.value("consumers").toInt(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(worker("doomed").isEmpty(), 10000);
    }

    // No worker ever: flagged when tasks are due, not for later tasks or a paused queue.
    void queuesWithoutConsumers_data()
    {
        QTest::addColumn<QStringList>("push");
        QTest::addColumn<bool>("paused");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("due") << QStringList{"--in", "0s"} << false << 1;
        QTest::newRow("due later") << QStringList{"--in", "1h"} << false << 0;
        QTest::newRow("due, paused") << QStringList{"--in", "0s"} << true << 0;
    }
    void queuesWithoutConsumers()
    {
        QFETCH(QStringList, push);
        QFETCH(bool, paused);
        QFETCH(int, exitCode);
        QCOMPARE(delayq(QStringList{"push", "mail", "x"} + push).exitCode, 0);
        if (paused)
            QCOMPARE(delayq({"pause", "mail"}).exitCode, 0);
        const CliRun r = delayq({"--read-only", "workers"});
        QCOMPARE(r.exitCode, exitCode);
        QCOMPARE(r.out.contains("mail: no consumer: 1 due"), exitCode == 1);
    }

    void theExporterCountsLiveWorkers()
    {
        QCOMPARE(delayq({"push", "mail", "x", "--in", "1h"}).exitCode, 0);
        QCOMPARE(delayq({"push", "idle", "x", "--in", "1h"}).exitCode, 0);
        const auto p = m_cli.start({"work", "mail", "--heartbeat", "200ms", "--quiet"});
        QVERIFY(p->waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(!worker("").isEmpty(), 10000);
        ExporterProcess exporter(m_cli);
        QVERIFY(exporter.start());
        const auto m = exporter.metrics();
        QCOMPARE(m.value("delayq_workers{queue=\"mail\"}", -1), 1.0);
        QCOMPARE(m.value("delayq_workers{queue=\"idle\"}", -1), 0.0);
        const double age = m.value("delayq_worker_heartbeat_age_seconds{queue=\"mail\"}", -1);
        QVERIFY2(age >= 0 && age < 1, qPrintable(QString::number(age)));
        QVERIFY(!m.contains("delayq_worker_heartbeat_age_seconds{queue=\"idle\"}"));
        ::kill(static_cast<pid_t>(p->processId()), SIGINT);
        QVERIFY(p->waitForFinished(10000));
    }

    void badInputIsRefused()
    {
        expectUsageError(delayq({"work", "mail", "--heartbeat", "50ms"}),
                         "--heartbeat must be 100ms to 20m");
        expectUsageError(delayq({"work", "mail", "--name", QString(201, 'n')}),
                         "--name must be at most 200 bytes");
        expectUsageError(delayq({"workers", "a", "b"}), "");
        expectRefusal(delayq({"workers", "bad name"}), 2, "queue name");
    }

private:
    // The worker of "mail" with that name ("": the first) as `delayq workers --json` lists
    // it; empty when it is not listed.
    QJsonObject worker(const QString& name) const
    {
        const CliRun r = delayq({"workers", "mail", "--json"});
        for (const QJsonValue& w : json(r).object().value("workers").toArray())
            if (name.isEmpty() || w.toObject().value("name").toString() == name)
                return w.toObject();
        return {};
    }
};

QTEST_GUILESS_MAIN(TestCliWorkers)
#include "tst_cliworkers.moc"
