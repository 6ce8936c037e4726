#include "amqpsuite.h"

#include "brokerclient.h"

#include <QJsonArray>
#include <QtTest>

void AmqpSuite::initSuite()
{
    const QString missing = RabbitNode::missingTools();
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
    m_tls = m_certs.create();
    if (m_tls)
        m_node.setTls(m_certs.cert(QStringLiteral("server")), m_certs.key(QStringLiteral("server")),
                      m_certs.cert(QStringLiteral("ca")));
    QVERIFY2(m_node.start(), qPrintable(m_node.errorString()));
}

void AmqpSuite::initTest()
{
    ++m_round;
    m_queue = QStringLiteral("jobs%1").arg(m_round);
    m_exchange = QStringLiteral("ex%1").arg(m_round);
    m_amqpQueue = QStringLiteral("inbox%1").arg(m_round);
    QVERIFY2(m_node.isRunning() || m_node.start(), qPrintable(m_node.errorString()));
}

void AmqpSuite::cleanupTest()
{
    m_node.thaw();
    if (m_alarmSet) // a failed alarm test must not leave every later publish blocked
        m_node.ctl({QStringLiteral("set_vm_memory_high_watermark"), QStringLiteral("0.4")});
    m_alarmSet = false;
    if (m_maxMessageSizeSet) // RabbitMQ's default, for the channels of later tests
        m_node.ctl({QStringLiteral("eval"),
                    QStringLiteral("application:set_env(rabbit, max_message_size, 134217728).")});
    m_maxMessageSizeSet = false;
}

void AmqpSuite::makeRoute(int maxLength)
{
    BrokerClient broker(m_node.port());
    QVERIFY2(broker.isOpen(), qPrintable(broker.lastError()));
    QVERIFY2(broker.declareExchange(m_exchange), qPrintable(broker.lastError()));
    QVERIFY2(broker.declareBoundQueue(m_amqpQueue, m_exchange, QStringLiteral("k"), maxLength),
             qPrintable(broker.lastError()));
}

QString AmqpSuite::handler(const QString& exchange) const
{
    return QString::fromStdString(
        m_node.url("exchange=" + exchange.toStdString() + "&routing_key=k"));
}

QStringList AmqpSuite::ids(const QString& state)
{
    const CliRun run =
        delayq({QStringLiteral("--json"), QStringLiteral("ls"), m_queue, QStringLiteral("--state"),
                state, QStringLiteral("--limit"), QStringLiteral("10000")});
    QStringList list;
    for (const auto& t : json(run).object().value(QStringLiteral("tasks")).toArray())
        list << t.toObject().value(QStringLiteral("id")).toString();
    return list;
}

QJsonObject AmqpSuite::firstTask(const QString& state)
{
    const CliRun run = delayq({QStringLiteral("--json"), QStringLiteral("ls"), m_queue,
                               QStringLiteral("--state"), state});
    return json(run).object().value(QStringLiteral("tasks")).toArray().first().toObject();
}

QJsonObject AmqpSuite::stats()
{
    return json(delayq({QStringLiteral("--json"), QStringLiteral("stats"), m_queue})).object();
}

std::unique_ptr<QProcess> AmqpSuite::startWorker(const QStringList& extra)
{
    return m_cli.start(QStringList{QStringLiteral("work"), m_queue, QStringLiteral("--handler"),
                                   handler(m_exchange), QStringLiteral("--until-empty"),
                                   QStringLiteral("--quiet")} +
                       extra);
}

QMap<QString, int> AmqpSuite::arrivals()
{
    BrokerClient broker(m_node.port());
    QMap<QString, int> seen;
    for (const auto& m : broker.takeAll(m_amqpQueue))
        ++seen[m.messageId];
    return seen;
}
