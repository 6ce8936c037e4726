// TestAmqpDelivery's limits: ids and plain members longer than a message_id holds, and a
// payload the broker refuses, each beside ordinary tasks of the same claim.
#include "tst_amqpdelivery.h"

#include "brokerclient.h"

#include <delayq/deliveries.h>

#include <QCryptographicHash>
#include <QJsonArray>
#include <QtTest>

namespace {

// What docs/targets/amqp.md promises for an id over 255 bytes: its first bytes (at most 180,
// not cutting a UTF-8 character) + "~sha256:" + the SHA-256 of the whole id in hex.
QString expectedMessageId(const QByteArray& id, int prefix)
{
    return QString::fromUtf8(id.left(prefix) + "~sha256:" +
                             QCryptographicHash::hash(id, QCryptographicHash::Sha256).toHex());
}

// "orders-" + 124 × "é" + "x": 256 bytes, the longest id a queue takes, whose 180th byte is
// the second of an "é", so the prefix stops at 179 bytes.
QByteArray longestId()
{
    QByteArray id = "orders-";
    for (int i = 0; i < 124; ++i)
        id += "\xc3\xa9";
    return id + "x";
}

} // namespace

// A claim of ordinary ids and a 256-byte one: the long one no longer breaks the connection
// for the rest. Every task arrives on each attempt with a message_id of at most 255 bytes that
// is the same on the retry, its whole id in x-delayq-task-id. The first attempt is nacked by
// a second bound queue that takes nothing (x-max-length 0, reject-publish) while the inbox
// still gets each message; the retry goes out once that queue is deleted.
void TestAmqpDelivery::longIdKeepsItsMessageIdAcrossRetries()
{
    makeRoute();
    const QString gate = m_amqpQueue + QStringLiteral("-gate");
    {
        BrokerClient broker(m_node.port());
        QVERIFY2(broker.declareBoundQueue(gate, m_exchange, QStringLiteral("k"), 0),
                 qPrintable(broker.lastError()));
    }
    const QByteArray longId = longestId();
    QCOMPARE(longId.size(), 256);
    const QStringList retried{QStringLiteral("--max-attempts"), QStringLiteral("3"),
                              QStringLiteral("--backoff"), QStringLiteral("1h")};
    QCOMPARE(delayq(QStringList{QStringLiteral("push"), m_queue, QStringLiteral("x"),
                                QStringLiteral("--count"), QStringLiteral("4")} +
                    retried)
                 .exitCode,
             0);
    QCOMPARE(delayq(QStringList{QStringLiteral("push"), m_queue, QStringLiteral("long"),
                                QStringLiteral("--id"), QString::fromUtf8(longId)} +
                    retried)
                 .exitCode,
             0);
    const QStringList all = ids();
    QCOMPARE(all.size(), 5);

    auto first = startWorker({QStringLiteral("--max-tasks"), QStringLiteral("5")});
    QVERIFY(CliRunner::finished(*first));
    QVERIFY2(!first->readAllStandardError().contains("lost the connection"),
             "one task broke the connection");
    const QJsonArray pending = json(delayq({QStringLiteral("--json"), QStringLiteral("ls"), m_queue,
                                            QStringLiteral("--state"), QStringLiteral("pending")}))
                                   .object()
                                   .value(QStringLiteral("tasks"))
                                   .toArray();
    QCOMPARE(pending.size(), 5);
    for (const auto& t : pending) // each one nacked alone, none failed with the connection
        QCOMPARE(t.toObject().value(QStringLiteral("last_error")).toString(),
                 QStringLiteral("the broker nacked the message"));

    QVERIFY(BrokerClient(m_node.port()).deleteQueue(gate));
    QCOMPARE(delayq(QStringList{QStringLiteral("reschedule"), m_queue} + all +
                    QStringList{QStringLiteral("--now")})
                 .exitCode,
             0);
    auto second = startWorker();
    QVERIFY(CliRunner::finished(*second));
    QCOMPARE(stats().value(QStringLiteral("counters"))[QStringLiteral("acked")].toInt(), 5);

    // By the whole id: the message_ids and attempts each task arrived with.
    QMap<QString, QStringList> messageIds;
    QMap<QString, QList<qlonglong>> attempts;
    for (const auto& m : BrokerClient(m_node.port()).takeAll(m_amqpQueue)) {
        const QString id = m.headers.value(QStringLiteral("x-delayq-task-id")).toString();
        messageIds[id] << m.messageId;
        attempts[id] << m.headers.value(QStringLiteral("x-delayq-attempt")).toLongLong();
    }
    QCOMPARE(messageIds.keys(), [&] {
        QStringList sorted = all;
        sorted.sort();
        return sorted;
    }());
    for (auto it = messageIds.begin(); it != messageIds.end(); ++it) {
        const QString& id = it.key();
        std::sort(attempts[id].begin(), attempts[id].end());
        QCOMPARE(attempts[id], (QList<qlonglong>{1, 2}));
        const QString expected =
            id.toUtf8() == longId ? expectedMessageId(longId, 179) : id; // a short id is itself
        QCOMPARE(it.value(), (QStringList{expected, expected}));
        QVERIFY(it.value().first().toUtf8().size() <= 255);
    }
}

// delayq work --plain KEY --forward-to amqp://…: a member of 1000 bytes among short ones is
// forwarded like them (bounded message_id, the whole member in x-delayq-task-id and in the
// body), and every member is removed.
void TestAmqpDelivery::longPlainMemberIsForwarded()
{
    makeRoute();
    const QByteArray longMember =
        QByteArray("{\"order\":7,\"note\":\"") + QByteArray(1000 - 21, 'n') + QByteArray("\"}");
    QCOMPARE(longMember.size(), 1000);
    const QStringList members{QStringLiteral("a"), QStringLiteral("b"),
                              QString::fromUtf8(longMember), QStringLiteral("c")};
    QCOMPARE(
        delayq(QStringList{QStringLiteral("push"), QStringLiteral("--plain"), m_queue} + members)
            .exitCode,
        0);
    auto worker = m_cli.start({QStringLiteral("work"), QStringLiteral("--plain"), m_queue,
                               QStringLiteral("--forward-to"), handler(m_exchange),
                               QStringLiteral("--lease"), QStringLiteral("2s"),
                               QStringLiteral("--until-empty"), QStringLiteral("--quiet")});
    QVERIFY(CliRunner::finished(*worker));
    QCOMPARE(m_server.cli({"EXISTS", m_queue}).trimmed(), QByteArray("0"));

    QMap<QString, int> seen;
    for (const auto& m : BrokerClient(m_node.port()).takeAll(m_amqpQueue)) {
        const QString member = m.headers.value(QStringLiteral("x-delayq-task-id")).toString();
        ++seen[member];
        QCOMPARE(m.body, member.toUtf8());
        QCOMPARE(m.messageId,
                 member.toUtf8() == longMember ? expectedMessageId(longMember, 180) : member);
    }
    QCOMPARE(seen.size(), 4);
    for (const auto& member : members)
        QCOMPARE(seen.value(member), 1);
}

// A payload over the broker's max_message_size (set small on the node, and said in the URL)
// fails alone before anything of it is sent, with a reason naming the limit; the other tasks
// of its claim are published and acked, and the connection stays up. Without the check the
// broker closes the channel on it (PRECONDITION_FAILED), failing every unconfirmed publish.
void TestAmqpDelivery::oversizedPayloadFailsAlone()
{
    makeRoute();
    int code = -1;
    m_maxMessageSizeSet = true;
    m_node.ctl({QStringLiteral("eval"),
                QStringLiteral("application:set_env(rabbit, max_message_size, 4096).")},
               &code);
    QCOMPARE(code, 0);
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("small"),
                     QStringLiteral("--count"), QStringLiteral("4")})
                 .exitCode,
             0);
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("-"), QStringLiteral("--id"),
                     QStringLiteral("big"), QStringLiteral("--max-attempts"), QStringLiteral("1")},
                    QByteArray(5000, 'b'))
                 .exitCode,
             0);
    QCOMPARE(delayq({QStringLiteral("push"), m_queue, QStringLiteral("small"),
                     QStringLiteral("--count"), QStringLiteral("4")})
                 .exitCode,
             0);
    const QString target = QString::fromStdString(m_node.url(
        "exchange=" + m_exchange.toStdString() + "&routing_key=k&max_message_size=4096"));
    auto worker = m_cli.start({QStringLiteral("work"), m_queue, QStringLiteral("--handler"), target,
                               QStringLiteral("--until-empty")});
    QVERIFY(CliRunner::finished(*worker));
    const QByteArray err = worker->readAllStandardError();
    QVERIFY2(!err.contains("lost the connection"), err.constData());

    QCOMPARE(ids(QStringLiteral("dead")), QStringList{QStringLiteral("big")});
    const QJsonObject dead = firstTask(QStringLiteral("dead"));
    QCOMPARE(dead.value(QStringLiteral("last_error")).toString(),
             QStringLiteral("the payload of 5000 bytes is over the broker's max_message_size of "
                            "4096 bytes (max_message_size= in the URL)"));
    QCOMPARE(stats().value(QStringLiteral("counters"))[QStringLiteral("acked")].toInt(), 8);
    const QMap<QString, int> seen = arrivals();
    QCOMPARE(seen.size(), 8);
    for (auto it = seen.begin(); it != seen.end(); ++it)
        QCOMPARE(it.value(), 1); // none published twice: nothing was failed with the channel
}

// One claim handed to the target in-process: the task in the middle cannot be sent (an id
// whose x-delayq-task-id header does not fit in a frame, a payload over max_message_size). It
// fails alone with the limit named, its neighbours are acked, and the next claim goes out on
// the same connection (no "lost the connection" notice).
void TestAmqpDelivery::unsendableTaskFailsAloneInItsClaim_data()
{
    QTest::addColumn<QByteArray>("id");
    QTest::addColumn<QByteArray>("payload");
    QTest::addColumn<QString>("query");   // more URL keys
    QTest::addColumn<int>("brokerLimit"); // the node's max_message_size; 0: its default
    QTest::addColumn<QString>("reason");
    QTest::newRow("id over one frame")
        << QByteArray(200000, 'i') << QByteArray("{}") << QString() << 0
        << QStringLiteral("the id of 200000 bytes does not fit in the message's x-delayq-task-id "
                          "header: the properties must fit in one frame of 131072 bytes (the "
                          "frame_max agreed with the broker)");
    QTest::newRow("id under one frame, its properties over it") // encoded to tell
        << QByteArray(130900, 'i') << QByteArray("{}") << QString() << 0
        << QStringLiteral("the id of 130900 bytes does not fit in the message's x-delayq-task-id "
                          "header: the properties must fit in one frame of 131072 bytes (the "
                          "frame_max agreed with the broker)");
    QTest::newRow("payload over max_message_size")
        << QByteArray("big") << QByteArray(5000, 'b') << QStringLiteral("&max_message_size=4096")
        << 4096
        << QStringLiteral("the payload of 5000 bytes is over the broker's max_message_size of "
                          "4096 bytes (max_message_size= in the URL)");
}

void TestAmqpDelivery::unsendableTaskFailsAloneInItsClaim()
{
    QFETCH(QByteArray, id);
    QFETCH(QByteArray, payload);
    QFETCH(QString, query);
    QFETCH(int, brokerLimit);
    QFETCH(QString, reason);
    makeRoute();
    if (brokerLimit > 0) {
        m_maxMessageSizeSet = true;
        int code = -1;
        m_node.ctl(
            {QStringLiteral("eval"),
             QStringLiteral("application:set_env(rabbit, max_message_size, %1).").arg(brokerLimit)},
            &code);
        QCOMPARE(code, 0);
    }
    QStringList notices;
    delayq::DeliveryOptions options;
    options.queue = m_queue.toStdString();
    options.answerTimeoutMs = 10000;
    options.notice = [&](const std::string& line) { notices << QString::fromStdString(line); };
    const std::string url = (handler(m_exchange) + query).toStdString();
    auto delivery = delayq::deliveryFor(url, options)(0);
    const auto task = [](const QByteArray& id, const QByteArray& payload) {
        delayq::ClaimedTask t;
        t.id = id.toStdString();
        t.payload = payload.toStdString();
        t.attempts = 1;
        t.maxAttempts = 5;
        return t;
    };
    const auto results = delivery->deliver(
        {task("before", "{\"n\":1}"), task(id, payload), task("after", "{\"n\":2}")});
    QCOMPARE(results.size(), size_t(3));
    QCOMPARE(int(results[0].kind), int(delayq::HandlerResult::Kind::Ack));
    QCOMPARE(int(results[1].kind), int(delayq::HandlerResult::Kind::Fail));
    QCOMPARE(QString::fromStdString(results[1].error), reason);
    QCOMPARE(int(results[2].kind), int(delayq::HandlerResult::Kind::Ack));
    const auto next = delivery->deliver({task("next", "{}")});
    QCOMPARE(int(next.at(0).kind), int(delayq::HandlerResult::Kind::Ack));
    QVERIFY2(notices.isEmpty(), qPrintable(notices.join(QLatin1Char('\n'))));
    const QMap<QString, int> seen = arrivals();
    QCOMPARE(seen, (QMap<QString, int>{{QStringLiteral("before"), 1},
                                       {QStringLiteral("after"), 1},
                                       {QStringLiteral("next"), 1}}));
}
