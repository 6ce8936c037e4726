// TestAmqpDelivery's failure cases: returns, a deleted exchange, nacks, refusals before
// claiming, bad URLs, TLS checks.
#include "tst_amqpdelivery.h"

#include "brokerclient.h"

#include <QJsonArray>
#include <QSet>
#include <QtTest>

void TestAmqpDelivery::unroutableTasksDie()
{
    BrokerClient broker(m_node.port());
    QVERIFY(broker.declareExchange(m_exchange)); // and no queue bound to it
    QCOMPARE(
        delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"), QStringLiteral("--count"),
                QStringLiteral("3"), QStringLiteral("--max-attempts"), QStringLiteral("2"),
                QStringLiteral("--backoff"), QStringLiteral("100ms")})
            .exitCode,
        0);
    // A 256-byte id's return is matched by its shortened message_id (amqpmessage.h).
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"), QStringLiteral("--id"),
                     QString(256, QLatin1Char('r')), QStringLiteral("--max-attempts"),
                     QStringLiteral("2"), QStringLiteral("--backoff"), QStringLiteral("100ms")})
                 .exitCode,
             0);
    auto worker = startWorker();
    QVERIFY(CliRunner::finished(*worker));
    const QJsonObject dead = json(delayq({QStringLiteral("--json"), QStringLiteral("ls"), m_queue,
                                          QStringLiteral("--state"), QStringLiteral("dead")}))
                                 .object();
    const QJsonArray tasks = dead.value(QStringLiteral("tasks")).toArray();
    QCOMPARE(tasks.size(), 4);
    for (const auto& t : tasks) {
        QCOMPARE(t.toObject().value(QStringLiteral("attempts")).toInt(), 2); // retried once
        QCOMPARE(t.toObject().value(QStringLiteral("last_error")).toString(),
                 QStringLiteral("unroutable: the exchange %1 has no binding for routing key k "
                                "(NO_ROUTE 312)")
                     .arg(m_exchange));
    }
}

void TestAmqpDelivery::deletedExchangeFailsWithTheBrokersReason()
{
    makeRoute();
    const int n = 2000; // enough that the worker is mid-stream when the exchange goes
    QCOMPARE(
        delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"), QStringLiteral("--count"),
                QString::number(n), QStringLiteral("--max-attempts"), QStringLiteral("2"),
                QStringLiteral("--backoff"), QStringLiteral("100ms")})
            .exitCode,
        0);
    auto worker = startWorker({QStringLiteral("--batch"), QStringLiteral("20"),
                               QStringLiteral("--max-batch"), QStringLiteral("20")});
    QTRY_VERIFY_WITH_TIMEOUT(BrokerClient(m_node.port()).messageCount(m_amqpQueue) >= 100, 20000);
    QVERIFY(BrokerClient(m_node.port()).deleteExchange(m_exchange));
    QVERIFY(CliRunner::finished(*worker));
    // The broker closes the channel on the first publish to the missing exchange (404): that
    // task and every one still unanswered fail with its words; the next connection too.
    const QStringList dead = ids(QStringLiteral("dead"));
    QVERIFY(!dead.isEmpty());
    const QJsonArray tasks = json(delayq({QStringLiteral("--json"), QStringLiteral("ls"), m_queue,
                                          QStringLiteral("--state"), QStringLiteral("dead"),
                                          QStringLiteral("--limit"), QStringLiteral("10000")}))
                                 .object()
                                 .value(QStringLiteral("tasks"))
                                 .toArray();
    for (const auto& t : tasks)
        QCOMPARE(t.toObject().value(QStringLiteral("last_error")).toString(),
                 QStringLiteral("the broker closed the channel: NOT_FOUND - no exchange '%1' in "
                                "vhost '/' (404)")
                     .arg(m_exchange));
    // Each task arrived or is dead, none lost. A dead one may have arrived too: a publish the
    // broker routed just before the exchange went, whose confirm the channel's close cut off,
    // is a failure to delayq (unconfirmed) though a consumer got it: at least once.
    const QMap<QString, int> seen = arrivals();
    QSet<QString> all(dead.begin(), dead.end());
    int deadAndArrived = 0;
    for (auto it = seen.begin(); it != seen.end(); ++it) {
        deadAndArrived += all.contains(it.key()) ? 1 : 0;
        all.insert(it.key());
    }
    qInfo("deleted exchange: %d arrived, %d dead, %d of those dead arrived before the close",
          int(seen.size()), int(dead.size()), deadAndArrived);
    QCOMPARE(all.size(), n);
}

void TestAmqpDelivery::nackedTaskFails()
{
    makeRoute(1); // room for one message; the broker nacks the next (reject-publish)
    QCOMPARE(
        delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"), QStringLiteral("--count"),
                QStringLiteral("2"), QStringLiteral("--max-attempts"), QStringLiteral("1")})
            .exitCode,
        0);
    auto worker = startWorker();
    QVERIFY(CliRunner::finished(*worker));
    const QStringList dead = ids(QStringLiteral("dead"));
    QCOMPARE(dead.size(), 1);
    const QJsonObject task = firstTask(QStringLiteral("dead"));
    QCOMPARE(task.value(QStringLiteral("last_error")).toString(),
             QStringLiteral("the broker nacked the message"));
    const QMap<QString, int> seen = arrivals();
    QCOMPARE(seen.size(), 1);
    QVERIFY(!seen.contains(dead.first()));
    QCOMPARE(stats().value(QStringLiteral("counters"))[QStringLiteral("acked")].toInt(), 1);
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
    QTest::newRow("unknown dead_exchange")
        << QStringLiteral("amqp://guest:guest@127.0.0.1:%1/?exchange=%2&dead_exchange=nosuch")
        << QStringLiteral("exchange nosuch does not exist in vhost / (dead_exchange= in the URL)");
    QTest::newRow("nothing listens")
        << QStringLiteral("amqp://guest:guest@127.0.0.1:1/?exchange=%2&routing_key=k")
        << QStringLiteral("cannot connect to RabbitMQ at 127.0.0.1:1: connect: Connection refused");
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
    const QJsonObject task = firstTask();
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
    QTest::newRow("max_message_size over RabbitMQ's 512 MiB")
        << QStringLiteral("amqp://u:secret@h/?exchange=e&max_message_size=536870913")
        << QStringLiteral("max_message_size must be a whole number from 1 to 536870912");
    QTest::newRow("cert without key")
        << QStringLiteral("amqps://u:secret@h/?exchange=e&cert=/c.pem") << QStringLiteral("key");
    // The message property keys and dead_exchange= (issue 53): each refusal names its key.
    QTest::newRow("priority over 255")
        << QStringLiteral("amqp://u:secret@h/?exchange=e&priority=256")
        << QStringLiteral("priority= must be a whole number from 0 to 255");
    QTest::newRow("negative expiration")
        << QStringLiteral("amqp://u:secret@h/?exchange=e&expiration=-1")
        << QStringLiteral("expiration= must be a whole number from 0 to 2147483647");
    QTest::newRow("empty content_type")
        << QStringLiteral("amqp://u:secret@h/?exchange=e&content_type=")
        << QStringLiteral("content_type= is empty");
    QTest::newRow("type over a short string")
        << QStringLiteral("amqp://u:secret@h/?exchange=e&type=") + QString(256, u't')
        << QStringLiteral("type= is longer than 255 bytes");
    QTest::newRow("delayq's own header")
        << QStringLiteral("amqp://u:secret@h/?exchange=e&header.X-Delayq-Attempt=9")
        << QStringLiteral("header.X-Delayq-Attempt= names one of delayq's own headers");
    QTest::newRow("a header twice")
        << QStringLiteral("amqp://u:secret@h/?exchange=e&header.a=1&task_header.a=id")
        << QStringLiteral("the header a is set twice");
    QTest::newRow("unknown task field")
        << QStringLiteral("amqp://u:secret@h/?exchange=e&task_header.a=payload")
        << QStringLiteral("task_header.a= must be id, attempt, queue or due");
    QTest::newRow("no header name") << QStringLiteral("amqp://u:secret@h/?exchange=e&header.=1")
                                    << QStringLiteral("header= needs a header name");
    QTest::newRow("delayq_headers not a switch")
        << QStringLiteral("amqp://u:secret@h/?exchange=e&delayq_headers=off")
        << QStringLiteral("delayq_headers= must be 1 or 0");
    QTest::newRow("dead_routing_key alone")
        << QStringLiteral("amqp://u:secret@h/?exchange=e&dead_routing_key=k")
        << QStringLiteral("dead_routing_key= needs dead_exchange=");
}

void TestAmqpDelivery::refusesBadUrls()
{
    QFETCH(QString, target);
    QFETCH(QString, message);
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("x")}).exitCode, 0);
    const CliRun run = delayq({QStringLiteral("work"), m_queue, QStringLiteral("--handler"), target,
                               QStringLiteral("--until-empty")});
    expectUsageError(run, message);
    QVERIFY2(run.err.contains("invalid RabbitMQ URL"), run.err.constData());
    QVERIFY2(!run.err.contains("secret"), run.err.constData());
    QCOMPARE(stats().value(QStringLiteral("pending")).toInt(), 1);
}

void TestAmqpDelivery::checksTheBrokersCertificate_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("query"); // @CA@, @CADIR@, @UNKNOWN@: the files
    QTest::addColumn<bool>("delivers");
    const QString local = QStringLiteral("localhost");
    const QString ip = QStringLiteral("127.0.0.1");
    QTest::newRow("ca=") << local << QStringLiteral("ca=@CA@") << true;
    QTest::newRow("ca_dir=") << local << QStringLiteral("ca_dir=@CADIR@") << true;
    QTest::newRow("an IP address") << ip << QStringLiteral("ca=@CA@") << true;
    QTest::newRow("another CA") << local << QStringLiteral("ca=@UNKNOWN@") << false;
    QTest::newRow("another name (sni=)")
        << local << QStringLiteral("ca=@CA@&sni=other.example") << false;
    QTest::newRow("the IP checked as localhost (sni=)")
        << ip << QStringLiteral("ca=@CA@&sni=localhost") << true;
    QTest::newRow("insecure=1") << local << QStringLiteral("ca=@UNKNOWN@&insecure=1") << true;
}

void TestAmqpDelivery::checksTheBrokersCertificate()
{
    QFETCH(QString, host);
    QFETCH(QString, query);
    QFETCH(bool, delivers);
    if (!m_tls)
        QSKIP(qPrintable(m_certs.errorString()));
    makeRoute();
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("x")}).exitCode, 0);
    query.replace(QLatin1String("@CADIR@"), m_certs.caDir())
        .replace(QLatin1String("@UNKNOWN@"), m_certs.cert(QStringLiteral("unknownCa")))
        .replace(QLatin1String("@CA@"), m_certs.cert(QStringLiteral("ca")));
    const QString url = QStringLiteral("amqps://guest:guest@%1:%2/?exchange=%3&routing_key=k&%4")
                            .arg(host)
                            .arg(m_node.tlsPort())
                            .arg(m_exchange, query);
    const CliRun run = delayq({QStringLiteral("work"), m_queue, QStringLiteral("--handler"), url,
                               QStringLiteral("--until-empty"), QStringLiteral("--quiet")});
    if (delivers) {
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(arrivals().size(), 1);
    } else {
        expectRefusal(run, 3, QStringLiteral("cannot connect to RabbitMQ at localhost:"));
        QCOMPARE(stats().value(QStringLiteral("pending")).toInt(), 1);
    }
}
