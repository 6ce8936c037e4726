#include "tst_amqpdelivery.h"

#include "brokerclient.h"

#include <QJsonArray>
#include <QSet>
#include <QtTest>

#include <csignal>

void TestAmqpDelivery::deliversEachTaskWithItsProperties_data()
{
    QTest::addColumn<QByteArray>("payload");
    QTest::addColumn<QString>("contentType");
    QTest::newRow("json") << QByteArray(R"({"order":42,"items":["a","b"]})")
                          << QStringLiteral("application/json");
    QTest::newRow("bytes") << QByteArray("not json \x01\xff", 11)
                           << QStringLiteral("application/octet-stream");
}

void TestAmqpDelivery::deliversEachTaskWithItsProperties()
{
    QFETCH(QByteArray, payload);
    QFETCH(QString, contentType);
    makeRoute();
    const int n = 300;
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("-"),
                     QStringLiteral("--count"), QString::number(n)},
                    payload)
                 .exitCode,
             0);
    const QStringList pushed = ids();
    QCOMPARE(pushed.size(), n);
    QMap<QString, qlonglong> due;
    for (const auto& t : json(delayq({QStringLiteral("--json"), QStringLiteral("ls"), m_queue,
                                      QStringLiteral("--limit"), QStringLiteral("10000")}))
                             .object()
                             .value(QStringLiteral("tasks"))
                             .toArray())
        due[t.toObject().value(QStringLiteral("id")).toString()] =
            t.toObject().value(QStringLiteral("due")).toInteger();

    auto worker = startWorker();
    QVERIFY(CliRunner::finished(*worker));
    const QByteArray err = worker->readAllStandardError();
    QVERIFY2(err.contains("delivering to amqp://guest:***@127.0.0.1:"), err.constData());
    QVERIFY2(!err.contains(":guest@"), err.constData()); // the password is never printed

    BrokerClient broker(m_node.port());
    const auto messages = broker.takeAll(m_amqpQueue);
    QCOMPARE(messages.size(), n); // once each: nothing failed, nothing was retried
    QSet<QString> seen;
    for (const auto& m : messages) {
        QVERIFY2(due.contains(m.messageId), qPrintable(m.messageId));
        seen.insert(m.messageId);
        QCOMPARE(m.body, payload);
        QCOMPARE(m.contentType, contentType);
        QCOMPARE(m.deliveryMode, 2);
        QCOMPARE(m.headers.value(QStringLiteral("x-delayq-queue")).toString(), m_queue);
        QCOMPARE(m.headers.value(QStringLiteral("x-delayq-task-id")).toString(), m.messageId);
        QCOMPARE(m.headers.value(QStringLiteral("x-delayq-attempt")).toLongLong(), 1);
        QCOMPARE(m.headers.value(QStringLiteral("x-delayq-due")).toLongLong(), due[m.messageId]);
    }
    QCOMPARE(seen.size(), n);
    const QJsonObject s = stats();
    QCOMPARE(s.value(QStringLiteral("pending")).toInt(), 0);
    QCOMPARE(s.value(QStringLiteral("active")).toInt(), 0);
    QCOMPARE(s.value(QStringLiteral("counters"))[QStringLiteral("acked")].toInt(), n);
}

void TestAmqpDelivery::survivesWorkerKills()
{
    makeRoute();
    const int n = 2000;
    QCOMPARE(
        delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"), QStringLiteral("--count"),
                QString::number(n), QStringLiteral("--max-attempts"), QStringLiteral("50")})
            .exitCode,
        0);
    const QStringList pushed = ids();
    // Small claims, so each kill finds publishes in flight and tasks in hand; two threads, each
    // with its own connection and channel.
    const QStringList small{QStringLiteral("--lease"),       QStringLiteral("1s"),
                            QStringLiteral("--batch"),       QStringLiteral("20"),
                            QStringLiteral("--max-batch"),   QStringLiteral("20"),
                            QStringLiteral("--concurrency"), QStringLiteral("2")};
    int kills = 0;
    for (int i = 0; i < 5; ++i) {
        auto worker = startWorker(small);
        QVERIFY(worker->waitForStarted());
        // A kill mid-stream is the point here: once this run has published another 100 (a
        // fixed wait let a fast machine drain all 2,000 before the first kill).
        const int before = BrokerClient(m_node.port()).messageCount(m_amqpQueue);
        (void)QTest::qWaitFor( // the kill below comes either way
            [&] {
                return worker->state() != QProcess::Running ||
                       BrokerClient(m_node.port()).messageCount(m_amqpQueue) >= before + 100;
            },
            10000);
        if (worker->state() != QProcess::Running)
            break; // done before its kill
        ::kill(static_cast<pid_t>(worker->processId()), SIGKILL);
        worker->waitForFinished();
        ++kills;
    }
    auto last = startWorker(small);
    QVERIFY(CliRunner::finished(*last));
    const QMap<QString, int> seen = arrivals();
    int duplicates = 0;
    for (const QString& id : pushed) {
        QVERIFY2(seen.value(id) >= 1, qPrintable(QStringLiteral("task %1 never arrived").arg(id)));
        duplicates += seen.value(id) - 1;
    }
    QCOMPARE(seen.size(), n); // counting by message_id: exactly once each, nothing else
    qInfo("%d tasks, %d SIGKILLs of the worker, %d duplicate deliveries", n, kills, duplicates);
    QVERIFY2(kills > 0, "the worker finished before the first kill: nothing was tested");
    QCOMPARE(stats().value(QStringLiteral("counters"))[QStringLiteral("acked")].toInt(), n);
}

void TestAmqpDelivery::survivesBrokerRestart()
{
    makeRoute();
    const int n = 2000;
    QCOMPARE(
        delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"), QStringLiteral("--count"),
                QString::number(n), QStringLiteral("--max-attempts"), QStringLiteral("50"),
                QStringLiteral("--backoff"), QStringLiteral("200ms")})
            .exitCode,
        0);
    const QStringList pushed = ids();
    auto worker = startWorker({QStringLiteral("--batch"), QStringLiteral("20"),
                               QStringLiteral("--max-batch"), QStringLiteral("20")});
    QTRY_VERIFY_WITH_TIMEOUT(BrokerClient(m_node.port()).messageCount(m_amqpQueue) >= 200, 20000);
    // SIGKILL: what the broker confirmed was on disk (persistent messages, durable queue);
    // what it had not confirmed fails in the worker and is published again.
    m_node.crash();
    QVERIFY2(m_node.start(), qPrintable(m_node.errorString()));
    QVERIFY(CliRunner::finished(*worker));
    const QByteArray err = worker->readAllStandardError();
    QVERIFY2(err.contains("lost the connection to RabbitMQ"), err.constData());
    QVERIFY2(err.contains("reconnected to RabbitMQ"), err.constData());
    qInfo("%s", err.constData());
    const QMap<QString, int> seen = arrivals();
    int duplicates = 0;
    for (const QString& id : pushed) {
        QVERIFY2(seen.value(id) >= 1, qPrintable(QStringLiteral("task %1 was lost").arg(id)));
        duplicates += seen.value(id) - 1;
    }
    QCOMPARE(seen.size(), n);
    qInfo("%d tasks through a broker restart, %d duplicate deliveries", n, duplicates);
}

void TestAmqpDelivery::silentBrokerTimesOut()
{
    makeRoute();
    const int n = 5000; // enough that the worker is mid-stream when the broker freezes
    QCOMPARE(
        delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"), QStringLiteral("--count"),
                QString::number(n), QStringLiteral("--max-attempts"), QStringLiteral("50"),
                QStringLiteral("--backoff"), QStringLiteral("100ms")})
            .exitCode,
        0);
    // The lease is the answer timeout: a frozen broker leaves publishes unconfirmed that long.
    auto worker =
        startWorker({QStringLiteral("--lease"), QStringLiteral("2s"), QStringLiteral("--batch"),
                     QStringLiteral("10"), QStringLiteral("--max-batch"), QStringLiteral("10")});
    QTRY_VERIFY_WITH_TIMEOUT(BrokerClient(m_node.port()).messageCount(m_amqpQueue) >= 20, 20000);
    m_node.freeze();
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += worker->readAllStandardError())
                                 .contains("no confirm from the broker within 2000 ms"),
                             20000);
    m_node.thaw();
    QVERIFY(CliRunner::finished(*worker));
    err += worker->readAllStandardError();
    QVERIFY2(err.contains("reconnected to RabbitMQ"), err.constData());
    const QMap<QString, int> seen = arrivals();
    QCOMPARE(seen.size(), n);
}

void TestAmqpDelivery::memoryAlarmHoldsClaims()
{
    makeRoute();
    const int n = 100;
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"),
                     QStringLiteral("--count"), QString::number(n)})
                 .exitCode,
             0);
    m_alarmSet = true;
    int code = -1;
    m_node.ctl({QStringLiteral("set_vm_memory_high_watermark"), QStringLiteral("0.00001")}, &code);
    QCOMPARE(code, 0);
    auto worker =
        startWorker({QStringLiteral("--batch"), QStringLiteral("10"), QStringLiteral("--max-batch"),
                     QStringLiteral("10"), QStringLiteral("--name"), QStringLiteral("alarmed")});
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT(
        (err += worker->readAllStandardError()).contains("blocked the connection"), 20000);
    QVERIFY2(err.contains("claims are held until it unblocks"), err.constData());
    // The operator who looks at the blocked connections sees whose each one is.
    const QByteArray connections = m_node.ctl(
        {QStringLiteral("list_connections"), QStringLiteral("client_properties")}, &code);
    QVERIFY2(connections.contains("delayq alarmed#0"), connections.constData());
    // Claims are held: one claim of 10 in flight at most, the rest still pending in Redis. An
    // absence is only seen by waiting.
    QTest::qWait(1000);
    QVERIFY2(stats().value(QStringLiteral("pending")).toInt() >= n - 10,
             qPrintable(QString::number(stats().value(QStringLiteral("pending")).toInt())));
    QCOMPARE(BrokerClient(m_node.port()).messageCount(m_amqpQueue), 0);
    m_node.ctl({QStringLiteral("set_vm_memory_high_watermark"), QStringLiteral("0.4")}, &code);
    QCOMPARE(code, 0);
    m_alarmSet = false;
    QVERIFY(CliRunner::finished(*worker));
    err += worker->readAllStandardError();
    QVERIFY2(err.contains("RabbitMQ unblocked the connection"), err.constData());
    QCOMPARE(arrivals().size(), n);
}

QTEST_GUILESS_MAIN(TestAmqpDelivery)
