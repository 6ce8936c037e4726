#include "clisuite.h"
#include "rabbitnode.h"
#include "rejectingconsumer.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QtTest>

#include <csignal>
#include <memory>

// delayq work Q --retry-from amqp://…?queue=DLQ against a private RabbitMQ node and a private
// Redis (docs/targets/amqp-retry.md): a consumer (this test, standing in for a Spring listener)
// rejects without requeue, the broker dead-letters to DLQ, delayq holds the message for its
// backoff step and publishes it back to its original exchange and routing key; after
// max_attempts it is a dead task naming the broker's reason and the route. A duplicate dead
// letter makes one task; nothing is lost through SIGKILLs of the worker and a broker restart.
class TestAmqpRetry : public CliSuite
{
    Q_OBJECT

private slots:
    void retriesOnItsBackoffThenDies();
    void javaListenersRejectsComeBack();
    void aDuplicateDeadLetterMakesOneTask();
    void nothingLostThroughKillsAndABrokerRestart();
    void refusesBadSpecs_data();
    void refusesBadSpecs();

protected:
    void initSuite() override
    {
        const QString missing = RabbitNode::missingTools();
        if (!missing.isEmpty())
            QSKIP(qPrintable(missing));
        QVERIFY2(m_node.start(), qPrintable(m_node.errorString()));
    }
    void initTest() override
    {
        ++m_round;
        m_queue = QStringLiteral("retries%1").arg(m_round);
        m_exchange = QStringLiteral("orders%1").arg(m_round);
        m_work = QStringLiteral("order.cancel%1").arg(m_round);
        m_dlq = QStringLiteral("order.dlq%1").arg(m_round);
        QVERIFY2(m_node.isRunning() || m_node.start(), qPrintable(m_node.errorString()));
        RejectingConsumer setup(m_node.port());
        QVERIFY2(setup.makeLoop(m_exchange, QStringLiteral("k"), m_work, m_dlq),
                 qPrintable(setup.lastError()));
    }

private:
    std::unique_ptr<QProcess> startWorker(const QString& query, const QStringList& extra = {})
    {
        const std::string url =
            m_node.url("queue=" + m_dlq.toStdString() + "&" + query.toStdString());
        auto worker =
            m_cli.start(QStringList{QStringLiteral("work"), m_queue, QStringLiteral("--retry-from"),
                                    QString::fromStdString(url), QStringLiteral("--quiet")} +
                        extra);
        return worker;
    }
    QJsonArray tasks(const QString& state)
    {
        const CliRun run = delayq({QStringLiteral("--json"), QStringLiteral("ls"), m_queue,
                                   QStringLiteral("--state"), state, QStringLiteral("--limit"),
                                   QStringLiteral("10000")});
        return json(run).object().value(QStringLiteral("tasks")).toArray();
    }
    static void stopWorker(QProcess& worker)
    {
        worker.terminate();
        QVERIFY(worker.waitForFinished(20000));
    }

    RabbitNode m_node;
    int m_round = 0;
    QString m_queue, m_exchange, m_work, m_dlq;
};

void TestAmqpRetry::retriesOnItsBackoffThenDies()
{
    // Three attempts: rejected at the first delivery, after 600 ms and after 1200 ms more.
    const QList<int> backoffMs{600, 1200};
    auto worker = startWorker(QStringLiteral("backoff=600ms,1200ms&max_attempts=3"));
    QVERIFY(worker->waitForStarted());
    RejectingConsumer consumer(m_node.port());
    QVERIFY2(consumer.isOpen(), qPrintable(consumer.lastError()));
    QVERIFY(consumer.publish(m_exchange, QStringLiteral("k"), QStringLiteral("m-1"),
                             "cancel order 42"));
    QElapsedTimer sinceReject;
    for (int attempt = 0; attempt < 3; ++attempt) {
        std::optional<RejectingConsumer::Message> m;
        QVERIFY2(QTest::qWaitFor([&] { return (m = consumer.take(m_work)).has_value(); }, 15000),
                 qPrintable(QStringLiteral("delivery %1 never came").arg(attempt + 1)));
        if (attempt > 0) {
            const qint64 waited = sinceReject.elapsed();
            const int step = backoffMs[attempt - 1];
            qInfo("retry %d came %lld ms after the reject (backoff %d ms)", attempt, waited, step);
            QVERIFY2(waited >= step - 50, qPrintable(QString::number(waited)));
            QVERIFY2(waited < step + 5000, qPrintable(QString::number(waited)));
        }
        QCOMPARE(m->messageId, QStringLiteral("m-1")); // the consumer's own id, kept
        QCOMPARE(m->body, QByteArray("cancel order 42"));
        QCOMPARE(m->deaths, attempt); // x-delayq-deaths: 0 (absent) on the first delivery
        consumer.reject(m->tag);
        sinceReject.start();
    }
    // The third death gives up: a dead task with the broker's reason and the original route.
    QJsonArray dead;
    QVERIFY(
        QTest::qWaitFor([&] { return !(dead = tasks(QStringLiteral("dead"))).isEmpty(); }, 15000));
    const QJsonObject task = dead.first().toObject();
    QCOMPARE(task.value(QStringLiteral("id")).toString(), QStringLiteral("dlq:3:m-1"));
    const QString error = task.value(QStringLiteral("last_error")).toString();
    QVERIFY2(error.contains(QStringLiteral("gave up after 3 attempts")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("reason: rejected")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("queue '%1'").arg(m_work)), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("exchange '%1', routing key 'k'").arg(m_exchange)),
             qPrintable(error));
    QVERIFY2(task.value(QStringLiteral("payload"))
                 .toString()
                 .contains(QStringLiteral("\"body\":\"cancel order 42\"")),
             qPrintable(task.value(QStringLiteral("payload")).toString()));
    QTest::qWait(300);
    QVERIFY(!consumer.take(m_work).has_value()); // not published a fourth time
    QCOMPARE(consumer.messageCount(m_dlq), 0);
    QVERIFY(tasks(QStringLiteral("pending")).isEmpty());
    stopWorker(*worker);
}

void TestAmqpRetry::javaListenersRejectsComeBack()
{
    // examples/java/RetryingListener (Debian's RabbitMQ Java client) rejects each message twice
    // without requeue and acks its third delivery: no retry code of its own.
    if (!QStringLiteral(JAVA_MISSING).isEmpty())
        QSKIP(JAVA_MISSING);
    auto worker = startWorker(QStringLiteral("backoff=200ms,400ms&max_attempts=4"));
    QVERIFY(worker->waitForStarted());
    QProcess listener;
    listener.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    listener.start(QStringLiteral(JAVA),
                   {QStringLiteral("-cp"), QStringLiteral(JAVA_CLASSPATH),
                    QStringLiteral("RetryingListener"), QString::fromStdString(m_node.url("")),
                    m_work, QStringLiteral("2")});
    QVERIFY(listener.waitForStarted());
    const int n = 20;
    RejectingConsumer producer(m_node.port());
    for (int i = 0; i < n; ++i)
        QVERIFY(producer.publish(m_exchange, QStringLiteral("k"), QStringLiteral("j%1").arg(i),
                                 "{\"order\":" + QByteArray::number(i) + "}"));
    QString out;
    auto lines = [&] {
        listener.waitForReadyRead(50);
        out += QString::fromUtf8(listener.readAllStandardOutput());
        return out.split(u'\n', Qt::SkipEmptyParts);
    };
    QVERIFY2(QTest::qWaitFor([&] { return lines().filter(QStringLiteral("acked ")).size() >= n; },
                             30000),
             qPrintable(out));
    for (int i = 0; i < n; ++i) {
        const QString id = QStringLiteral("j%1").arg(i);
        QVERIFY2(lines().contains(QStringLiteral("rejected %1 2").arg(id)), qPrintable(out));
        QVERIFY2(lines().contains(QStringLiteral("acked %1 3").arg(id)), qPrintable(out));
    }
    QCOMPARE(lines().filter(QStringLiteral("acked ")).size(), n); // once each
    listener.closeWriteChannel();
    QVERIFY(listener.waitForFinished(10000));
    QTRY_VERIFY_WITH_TIMEOUT(tasks(QStringLiteral("pending")).isEmpty(), 10000);
    QVERIFY(tasks(QStringLiteral("dead")).isEmpty());
    stopWorker(*worker);
}

void TestAmqpRetry::aDuplicateDeadLetterMakesOneTask()
{
    // The same dead letter twice (as after a broker's redelivery): one task, both acked.
    RejectingConsumer consumer(m_node.port());
    QVERIFY2(consumer.isOpen(), qPrintable(consumer.lastError()));
    for (int i = 0; i < 2; ++i)
        QVERIFY(consumer.publish(QString(), m_dlq, QStringLiteral("dup-1"), "twice", m_work,
                                 m_exchange, QStringLiteral("k")));
    QVERIFY(consumer.publish(QString(), m_dlq, QStringLiteral("other-1"), "once", m_work,
                             m_exchange, QStringLiteral("k")));
    QTRY_COMPARE_WITH_TIMEOUT(consumer.messageCount(m_dlq), 3, 5000);
    auto worker = startWorker(QStringLiteral("backoff=1h"));
    QVERIFY(worker->waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(consumer.messageCount(m_dlq), 0, 15000);
    QStringList ids;
    for (const auto& t : tasks(QStringLiteral("pending")))
        ids << t.toObject().value(QStringLiteral("id")).toString();
    ids.sort();
    QCOMPARE(ids, (QStringList{QStringLiteral("dlq:1:dup-1"), QStringLiteral("dlq:1:other-1")}));
    stopWorker(*worker);
}

void TestAmqpRetry::nothingLostThroughKillsAndABrokerRestart()
{
    // Every message is rejected once and acked on its retry; the worker is SIGKILLed three
    // times and the broker restarted once on the way. Each message_id must be acked at least once.
    QVERIFY(delayq({QStringLiteral("config"), m_queue, QStringLiteral("max_attempts"),
                    QStringLiteral("100")})
                .exitCode == 0);
    const int n = 300;
    {
        RejectingConsumer producer(m_node.port());
        for (int i = 0; i < n; ++i)
            QVERIFY(producer.publish(m_exchange, QStringLiteral("k"), QStringLiteral("m%1").arg(i),
                                     QByteArray::number(i)));
    }
    const QStringList fast{QStringLiteral("--lease"), QStringLiteral("1s")};
    auto worker = startWorker(QStringLiteral("backoff=200ms&max_attempts=5"), fast);
    QVERIFY(worker->waitForStarted());
    auto consumer = std::make_unique<RejectingConsumer>(m_node.port());
    QSet<QString> acked;
    int rejected = 0, duplicates = 0, kills = 0;
    bool restarted = false;
    QElapsedTimer clock;
    clock.start();
    while (acked.size() < n && clock.elapsed() < 90000) {
        if (!consumer->isOpen()) {
            QTest::qWait(200);
            consumer = std::make_unique<RejectingConsumer>(m_node.port());
            continue;
        }
        const auto m = consumer->take(m_work);
        if (!m) {
            QTest::qWait(20);
            continue;
        }
        if (m->deaths == 0) {
            consumer->reject(m->tag);
            ++rejected;
        } else {
            consumer->ack(m->tag);
            duplicates += acked.contains(m->messageId) ? 1 : 0;
            acked.insert(m->messageId);
        }
        if (rejected == 60 * (kills + 1) && kills < 3) {
            ::kill(static_cast<pid_t>(worker->processId()), SIGKILL);
            worker->waitForFinished();
            ++kills;
            worker = startWorker(QStringLiteral("backoff=200ms&max_attempts=5"), fast);
            QVERIFY(worker->waitForStarted());
        }
        if (rejected == 240 && !restarted) {
            restarted = true;
            consumer.reset();
            QVERIFY2(m_node.stopApp(), qPrintable(m_node.errorString()));
            QVERIFY2(m_node.startApp(), qPrintable(m_node.errorString()));
            consumer = std::make_unique<RejectingConsumer>(m_node.port());
        }
    }
    qInfo("%d messages, %d rejected, %d SIGKILLs, broker restarted: %s, %d duplicate acks, "
          "%lld ms",
          n, rejected, kills, restarted ? "yes" : "no", duplicates, clock.elapsed());
    QStringList missing;
    for (int i = 0; i < n; ++i)
        if (!acked.contains(QStringLiteral("m%1").arg(i)))
            missing << QStringLiteral("m%1").arg(i);
    QVERIFY2(missing.isEmpty(), qPrintable(missing.mid(0, 20).join(QLatin1Char(' '))));
    QCOMPARE(kills, 3);
    QVERIFY(restarted);
    QTRY_VERIFY_WITH_TIMEOUT(tasks(QStringLiteral("pending")).isEmpty() &&
                                 tasks(QStringLiteral("active")).isEmpty(),
                             15000);
    QVERIFY(tasks(QStringLiteral("dead")).isEmpty());
    stopWorker(*worker);
}

void TestAmqpRetry::refusesBadSpecs_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("no queue") << QStringLiteral("backoff=1s") << 2
                              << QStringLiteral(
                                     "queue= (the dead-letter queue to consume) is missing");
    QTest::newRow("exchange") << QStringLiteral("queue=q&exchange=x") << 2
                              << QStringLiteral("exchange= does not apply");
    QTest::newRow("bad backoff") << QStringLiteral("queue=q&backoff=soon") << 2
                                 << QStringLiteral("backoff=: invalid backoff");
    QTest::newRow("unknown queue")
        << QStringLiteral("queue=nosuchdlq") << 3
        << QStringLiteral("the dead-letter queue nosuchdlq does not exist");
}

void TestAmqpRetry::refusesBadSpecs()
{
    QFETCH(QString, query);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const CliRun run = delayq({QStringLiteral("work"), m_queue, QStringLiteral("--retry-from"),
                               QString::fromStdString(m_node.url(query.toStdString()))});
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
}

QTEST_GUILESS_MAIN(TestAmqpRetry)
#include "tst_amqpretry.moc"
