#include "brokerclient.h"
#include "clisuite.h"
#include "rabbitnode.h"

#include <QJsonArray>
#include <QSet>
#include <QtTest>

#include <csignal>

// delayq work --handler amqp://… against a private RabbitMQ node (started once, ~10 s) and a
// private Redis: what a consumer receives, at least once through worker kills and a broker
// crash and restart, returns, nacks, the memory alarm, and the refusals before anything is claimed.
class TestAmqpDelivery : public CliSuite
{
    Q_OBJECT

protected:
    void initSuite() override;
    void initTest() override;
    void cleanupTest() override;

private slots:
    void deliversEachTaskWithItsProperties_data();
    void deliversEachTaskWithItsProperties();
    void survivesWorkerKills();
    void survivesBrokerRestart();
    void unroutableTasksDie();
    void nackedTaskFails();
    void memoryAlarmHoldsClaims();
    void refusesBeforeClaiming_data();
    void refusesBeforeClaiming();
    void refusesBadUrls_data();
    void refusesBadUrls();

private:
    // A fresh exchange and a durable queue bound to it with routing key "k", per test.
    void makeRoute(int maxLength = 0);
    QString handler(const QString& exchange) const;
    QStringList ids(const QString& state = QStringLiteral("pending"));
    QJsonObject stats();
    std::unique_ptr<QProcess> startWorker(const QStringList& extra = {});
    // Messages by message_id: how many times each arrived.
    QMap<QString, int> arrivals();

    RabbitNode m_node;
    int m_round = 0;
    QString m_queue;    // the delayq queue
    QString m_exchange; // and its RabbitMQ route
    QString m_amqpQueue;
    bool m_alarmSet = false;
};

void TestAmqpDelivery::initSuite()
{
    const QString missing = RabbitNode::missingTools();
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
    QVERIFY2(m_node.start(), qPrintable(m_node.errorString()));
}

void TestAmqpDelivery::initTest()
{
    ++m_round;
    m_queue = QStringLiteral("jobs%1").arg(m_round);
    m_exchange = QStringLiteral("ex%1").arg(m_round);
    m_amqpQueue = QStringLiteral("inbox%1").arg(m_round);
    QVERIFY2(m_node.isRunning() || m_node.start(), qPrintable(m_node.errorString()));
}

void TestAmqpDelivery::cleanupTest()
{
    if (m_alarmSet) // a failed alarm test must not leave every later publish blocked
        m_node.ctl({QStringLiteral("set_vm_memory_high_watermark"), QStringLiteral("0.4")});
    m_alarmSet = false;
}

void TestAmqpDelivery::makeRoute(int maxLength)
{
    BrokerClient broker(m_node.port());
    QVERIFY2(broker.isOpen(), qPrintable(broker.lastError()));
    QVERIFY2(broker.declareExchange(m_exchange), qPrintable(broker.lastError()));
    QVERIFY2(broker.declareBoundQueue(m_amqpQueue, m_exchange, QStringLiteral("k"), maxLength),
             qPrintable(broker.lastError()));
}

QString TestAmqpDelivery::handler(const QString& exchange) const
{
    return QString::fromStdString(
        m_node.url("exchange=" + exchange.toStdString() + "&routing_key=k"));
}

QStringList TestAmqpDelivery::ids(const QString& state)
{
    const CliRun run = delayq({QStringLiteral("--json"), QStringLiteral("ls"), m_queue,
                               QStringLiteral("--state"), state, QStringLiteral("--limit"),
                               QStringLiteral("10000")});
    QStringList list;
    for (const auto& t : json(run).object().value(QStringLiteral("tasks")).toArray())
        list << t.toObject().value(QStringLiteral("id")).toString();
    return list;
}

QJsonObject TestAmqpDelivery::stats()
{
    return json(delayq({QStringLiteral("--json"), QStringLiteral("stats"), m_queue})).object();
}

std::unique_ptr<QProcess> TestAmqpDelivery::startWorker(const QStringList& extra)
{
    return m_cli.start(QStringList{QStringLiteral("work"), m_queue, QStringLiteral("--handler"),
                                   handler(m_exchange), QStringLiteral("--until-empty"),
                                   QStringLiteral("--quiet")} +
                       extra);
}

QMap<QString, int> TestAmqpDelivery::arrivals()
{
    BrokerClient broker(m_node.port());
    QMap<QString, int> seen;
    for (const auto& m : broker.takeAll(m_amqpQueue))
        ++seen[m.messageId];
    return seen;
}

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
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"),
                     QStringLiteral("--count"), QString::number(n), QStringLiteral("--max-attempts"),
                     QStringLiteral("50")})
                 .exitCode,
             0);
    const QStringList pushed = ids();
    // Small claims, so each kill finds publishes in flight and tasks in hand.
    const QStringList small{QStringLiteral("--lease"), QStringLiteral("1s"),
                            QStringLiteral("--batch"), QStringLiteral("20"),
                            QStringLiteral("--max-batch"), QStringLiteral("20")};
    int kills = 0;
    for (int i = 0; i < 5; ++i) {
        auto worker = startWorker(small);
        QVERIFY(worker->waitForStarted());
        QTest::qWait(300); // a kill at an arbitrary moment mid-stream is the point here
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
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"),
                     QStringLiteral("--count"), QString::number(n), QStringLiteral("--max-attempts"),
                     QStringLiteral("50"), QStringLiteral("--backoff"), QStringLiteral("200ms")})
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

void TestAmqpDelivery::unroutableTasksDie()
{
    BrokerClient broker(m_node.port());
    QVERIFY(broker.declareExchange(m_exchange)); // and no queue bound to it
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"),
                     QStringLiteral("--count"), QStringLiteral("3"),
                     QStringLiteral("--max-attempts"), QStringLiteral("2"),
                     QStringLiteral("--backoff"), QStringLiteral("100ms")})
                 .exitCode,
             0);
    auto worker = startWorker();
    QVERIFY(CliRunner::finished(*worker));
    const QJsonObject dead =
        json(delayq({QStringLiteral("--json"), QStringLiteral("ls"), m_queue,
                     QStringLiteral("--state"), QStringLiteral("dead")}))
            .object();
    const QJsonArray tasks = dead.value(QStringLiteral("tasks")).toArray();
    QCOMPARE(tasks.size(), 3);
    for (const auto& t : tasks) {
        QCOMPARE(t.toObject().value(QStringLiteral("attempts")).toInt(), 2); // retried once
        QCOMPARE(t.toObject().value(QStringLiteral("last_error")).toString(),
                 QStringLiteral("unroutable: the exchange %1 has no binding for routing key k "
                                "(NO_ROUTE 312)")
                     .arg(m_exchange));
    }
}

void TestAmqpDelivery::nackedTaskFails()
{
    makeRoute(1); // room for one message; the broker nacks the next (reject-publish)
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"),
                     QStringLiteral("--count"), QStringLiteral("2"),
                     QStringLiteral("--max-attempts"), QStringLiteral("1")})
                 .exitCode,
             0);
    auto worker = startWorker();
    QVERIFY(CliRunner::finished(*worker));
    const QStringList dead = ids(QStringLiteral("dead"));
    QCOMPARE(dead.size(), 1);
    const QJsonObject task =
        json(delayq({QStringLiteral("--json"), QStringLiteral("ls"), m_queue,
                     QStringLiteral("--state"), QStringLiteral("dead")}))
            .object()
            .value(QStringLiteral("tasks"))
            .toArray()
            .first()
            .toObject();
    QCOMPARE(task.value(QStringLiteral("last_error")).toString(),
             QStringLiteral("the broker nacked the message"));
    const QMap<QString, int> seen = arrivals();
    QCOMPARE(seen.size(), 1);
    QVERIFY(!seen.contains(dead.first()));
    QCOMPARE(stats().value(QStringLiteral("counters"))[QStringLiteral("acked")].toInt(), 1);
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
    auto worker = startWorker({QStringLiteral("--batch"), QStringLiteral("10"),
                               QStringLiteral("--max-batch"), QStringLiteral("10")});
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += worker->readAllStandardError()).contains("blocked the connection"),
                             20000);
    QVERIFY2(err.contains("claims are held until it unblocks"), err.constData());
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

void TestAmqpDelivery::refusesBeforeClaiming_data()
{
    QTest::addColumn<QString>("target"); // with %1 for the port and %2 for the exchange
    QTest::addColumn<QString>("message");
    QTest::newRow("wrong password")
        << QStringLiteral("amqp://guest:wrong@127.0.0.1:%1/?exchange=%2&routing_key=k")
        << QStringLiteral("RabbitMQ refused user guest: wrong user or password");
    QTest::newRow("unknown user")
        << QStringLiteral("amqp://nobody:pw@127.0.0.1:%1/?exchange=%2&routing_key=k")
        << QStringLiteral("RabbitMQ refused user nobody: wrong user or password");
    QTest::newRow("unknown vhost")
        << QStringLiteral("amqp://guest:guest@127.0.0.1:%1/nosuch?exchange=%2&routing_key=k")
        << QStringLiteral("does not let user guest open vhost nosuch");
    QTest::newRow("unknown exchange")
        << QStringLiteral("amqp://guest:guest@127.0.0.1:%1/?exchange=nosuch&routing_key=k")
        << QStringLiteral("exchange nosuch does not exist in vhost /");
    QTest::newRow("nothing listens")
        << QStringLiteral("amqp://guest:guest@127.0.0.1:1/?exchange=%2&routing_key=k")
        << QStringLiteral("cannot connect to RabbitMQ at 127.0.0.1:1");
}

void TestAmqpDelivery::refusesBeforeClaiming()
{
    QFETCH(QString, target);
    QFETCH(QString, message);
    makeRoute();
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("x")}).exitCode, 0);
    const QString url = QString(target)
                            .replace(QLatin1String("%1"), QString::number(m_node.port()))
                            .replace(QLatin1String("%2"), m_exchange);
    const CliRun run = delayq({QStringLiteral("work"), m_queue, QStringLiteral("--handler"), url,
                               QStringLiteral("--until-empty")});
    expectRefusal(run, 3, message);
    QVERIFY2(!run.err.contains(":wrong@") && !run.err.contains(":pw@"), run.err.constData());
    const QJsonObject s = stats();
    QCOMPARE(s.value(QStringLiteral("pending")).toInt(), 1);
    QCOMPARE(s.value(QStringLiteral("counters"))[QStringLiteral("claimed")].toInt(), 0);
    const QJsonObject task = json(delayq({QStringLiteral("--json"), QStringLiteral("ls"), m_queue}))
                                 .object()
                                 .value(QStringLiteral("tasks"))
                                 .toArray()
                                 .first()
                                 .toObject();
    QCOMPARE(task.value(QStringLiteral("attempts")).toInt(), 0);
}

void TestAmqpDelivery::refusesBadUrls_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("message");
    QTest::newRow("no exchange") << QStringLiteral("amqp://u:secret@h/?routing_key=k")
                                 << QStringLiteral("exchange= is missing");
    QTest::newRow("unknown key") << QStringLiteral("amqp://u:secret@h/?exchange=e&rk=k")
                                 << QStringLiteral("unknown parameter rk in the query");
    QTest::newRow("TLS key on amqp") << QStringLiteral("amqp://u:secret@h/?exchange=e&ca=/x")
                                     << QStringLiteral("ca= needs an amqps:// URL");
    QTest::newRow("bad port") << QStringLiteral("amqp://u:secret@h:0/?exchange=e")
                              << QStringLiteral("must be a whole number from 1 to 65535");
    QTest::newRow("bad escape") << QStringLiteral("amqp://u:secret@h/%zz?exchange=e")
                                << QStringLiteral("bad %-escape in the vhost");
    QTest::newRow("two hosts") << QStringLiteral("amqp://u:secret@h1,h2/?exchange=e")
                               << QStringLiteral("it names more than one host");
    QTest::newRow("cert without key")
        << QStringLiteral("amqps://u:secret@h/?exchange=e&cert=/c.pem")
        << QStringLiteral("key");
}

void TestAmqpDelivery::refusesBadUrls()
{
    QFETCH(QString, target);
    QFETCH(QString, message);
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("x")}).exitCode, 0);
    const CliRun run = delayq({QStringLiteral("work"), m_queue, QStringLiteral("--handler"),
                               target, QStringLiteral("--until-empty")});
    expectUsageError(run, message);
    QVERIFY2(run.err.contains("invalid RabbitMQ URL"), run.err.constData());
    QVERIFY2(!run.err.contains("secret"), run.err.constData());
    QCOMPARE(stats().value(QStringLiteral("pending")).toInt(), 1);
}

QTEST_GUILESS_MAIN(TestAmqpDelivery)
#include "tst_amqpdelivery.moc"
