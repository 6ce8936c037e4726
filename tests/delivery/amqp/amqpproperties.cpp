// TestAmqpDelivery's message properties set by the URL (content_type=, type=, header.NAME=,
// task_header.NAME=, delayq_headers=, priority=, expiration=) and dead tasks published to
// dead_exchange= (issue 53, points 2 and 3).
#include "tst_amqpdelivery.h"

#include "brokerclient.h"

#include <QJsonArray>
#include <QtTest>

void TestAmqpDelivery::setsTheUrlsMessageProperties_data()
{
    QTest::addColumn<QString>("query");       // after exchange=…&routing_key=k&
    QTest::addColumn<QString>("contentType"); // what arrives
    QTest::addColumn<QString>("type");        // "" when none
    QTest::addColumn<int>("priority");        // -1 when none
    QTest::addColumn<QString>("expiration");  // "" when none
    QTest::addColumn<bool>("delayqHeaders");  // the four x-delayq-* headers
    QTest::addColumn<QVariantMap>("headers"); // others expected; "@ID@" is the task id
    QTest::newRow("defaults") << QString() << QStringLiteral("application/json") << QString() << -1
                              << QString() << true << QVariantMap{};
    // What a Spring listener with Jackson2JsonMessageConverter wants: its type id header.
    QTest::newRow("spring") << QStringLiteral(
                                   "content_type=text/plain&type=order.cancel"
                                   "&header.__TypeId__=com.shop.Order&header.team=a%20b"
                                   "&task_header.orderId=id&task_header.try=attempt&priority=5"
                                   "&expiration=60000")
                            << QStringLiteral("text/plain") << QStringLiteral("order.cancel") << 5
                            << QStringLiteral("60000") << true
                            << QVariantMap{
                                   {QStringLiteral("__TypeId__"), QStringLiteral("com.shop.Order")},
                                   {QStringLiteral("team"), QStringLiteral("a b")},
                                   {QStringLiteral("orderId"), QStringLiteral("@ID@")},
                                   {QStringLiteral("try"), 1LL}};
    QTest::newRow("no delayq headers")
        << QStringLiteral("delayq_headers=0&task_header.q=queue&content_type=application/x-order")
        << QStringLiteral("application/x-order") << QString() << -1 << QString() << false
        << QVariantMap{{QStringLiteral("q"), QStringLiteral("@QUEUE@")}};
}

void TestAmqpDelivery::setsTheUrlsMessageProperties()
{
    QFETCH(QString, query);
    QFETCH(QString, contentType);
    QFETCH(QString, type);
    QFETCH(int, priority);
    QFETCH(QString, expiration);
    QFETCH(bool, delayqHeaders);
    QFETCH(QVariantMap, headers);
    makeRoute();
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral(R"({"order":7})"),
                     QStringLiteral("--count"), QStringLiteral("3")})
                 .exitCode,
             0);
    const QString url = handler(m_exchange) + (query.isEmpty() ? QString() : u'&' + query);
    const CliRun run = delayq({QStringLiteral("work"), m_queue, QStringLiteral("--handler"), url,
                               QStringLiteral("--until-empty"), QStringLiteral("--quiet")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const auto messages = BrokerClient(m_node.port()).takeAll(m_amqpQueue);
    QCOMPARE(messages.size(), 3);
    for (const auto& m : messages) {
        QCOMPARE(m.contentType, contentType);
        QCOMPARE(m.type, type);
        QCOMPARE(m.priority, priority);
        QCOMPARE(m.expiration, expiration);
        QCOMPARE(m.deliveryMode, 2);
        QCOMPARE(m.headers.contains(QStringLiteral("x-delayq-task-id")), delayqHeaders);
        QCOMPARE(m.headers.contains(QStringLiteral("x-delayq-attempt")), delayqHeaders);
        QCOMPARE(m.headers.contains(QStringLiteral("x-delayq-queue")), delayqHeaders);
        QCOMPARE(m.headers.contains(QStringLiteral("x-delayq-due")), delayqHeaders);
        QCOMPARE(m.headers.size(), headers.size() + (delayqHeaders ? 4 : 0));
        for (auto it = headers.begin(); it != headers.end(); ++it) {
            QVariant want = it.value();
            if (want == QStringLiteral("@ID@"))
                want = m.messageId;
            else if (want == QStringLiteral("@QUEUE@"))
                want = m_queue;
            QCOMPARE(m.headers.value(it.key()), want);
        }
    }
}

void TestAmqpDelivery::deadTasksGoToTheDeadLetterExchange_data()
{
    QTest::addColumn<QString>("deadQuery"); // %1: the dead-letter exchange
    QTest::addColumn<bool>("published");
    // No dead_routing_key=: the URL's routing_key ("k"), to which the dead queue is bound.
    QTest::newRow("published") << QStringLiteral("dead_exchange=%1") << true;
    // Unroutable there (mandatory): logged and counted; the tasks are dead in delayq anyway.
    QTest::newRow("unroutable there")
        << QStringLiteral("dead_exchange=%1&dead_routing_key=nowhere") << false;
}

void TestAmqpDelivery::deadTasksGoToTheDeadLetterExchange()
{
    QFETCH(QString, deadQuery);
    QFETCH(bool, published);
    const QString dlx = m_exchange + QStringLiteral("-dead");
    const QString deadQueue = m_amqpQueue + QStringLiteral("-dead");
    {
        BrokerClient broker(m_node.port());
        QVERIFY(broker.declareExchange(m_exchange)); // no queue bound: every publish returns
        QVERIFY(broker.declareExchange(dlx));
        QVERIFY(broker.declareBoundQueue(deadQueue, dlx, QStringLiteral("k")));
    }
    QCOMPARE(
        delayq({QStringLiteral("push"), m_queue, QStringLiteral("x"), QStringLiteral("--count"),
                QStringLiteral("3"), QStringLiteral("--max-attempts"), QStringLiteral("2"),
                QStringLiteral("--backoff"), QStringLiteral("100ms")})
            .exitCode,
        0);
    const QString url = handler(m_exchange) + u'&' + deadQuery.arg(dlx) +
                        QStringLiteral("&header.__TypeId__=com.shop.Order");
    const CliRun run = delayq({QStringLiteral("work"), m_queue, QStringLiteral("--handler"), url,
                               QStringLiteral("--until-empty"), QStringLiteral("--quiet")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QStringList dead = ids(QStringLiteral("dead"));
    QCOMPARE(dead.size(), 3); // dead in delayq whatever happened to the copy
    const QString error =
        QStringLiteral(
            "unroutable: the exchange %1 has no binding for routing key k (NO_ROUTE 312)")
            .arg(m_exchange);
    const auto messages = BrokerClient(m_node.port()).takeAll(deadQueue);
    if (!published) {
        QCOMPARE(messages.size(), 0);
        QVERIFY2(run.err.contains("was not published to the dead-letter exchange " + dlx.toUtf8()),
                 run.err.constData());
        QVERIFY2(run.err.contains("(3 dead tasks not published there so far)"),
                 run.err.constData());
        return;
    }
    QVERIFY2(!run.err.contains("not published"), run.err.constData());
    QCOMPARE(messages.size(), 3);
    for (const auto& m : messages) {
        QVERIFY2(dead.contains(m.messageId), qPrintable(m.messageId));
        QCOMPARE(m.body, QByteArray("x"));
        QCOMPARE(m.headers.value(QStringLiteral("x-delayq-error")).toString(), error);
        QCOMPARE(m.headers.value(QStringLiteral("x-delayq-attempt")).toLongLong(), 2);
        QCOMPARE(m.headers.value(QStringLiteral("__TypeId__")).toString(),
                 QStringLiteral("com.shop.Order")); // the same properties as the task's message
    }
}
