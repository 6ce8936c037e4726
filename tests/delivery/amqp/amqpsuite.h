#pragma once

#include "clisuite.h"
#include "rabbitnode.h"
#include "testcertificates.h"

#include <QJsonObject>
#include <QMap>

#include <memory>

// The base of tst_amqpdelivery: a private RabbitMQ node (started once, ~10 s; with a TLS
// listener when openssl can make certificates) beside CliSuite's Redis, a fresh delayq queue,
// exchange and bound queue names per test, and the reads a test checks with.
class AmqpSuite : public CliSuite
{
protected:
    void initSuite() override;
    void initTest() override;
    void cleanupTest() override;

    // Declares m_exchange and a durable queue m_amqpQueue bound to it with routing key "k"
    // (room for maxLength messages with reject-publish when >= 0).
    void makeRoute(int maxLength = -1);
    QString handler(const QString& exchange) const;
    QStringList ids(const QString& state = QStringLiteral("pending"));
    // The first task of a set as `ls --json` shows it.
    QJsonObject firstTask(const QString& state = QStringLiteral("pending"));
    QJsonObject stats();
    // delayq work m_queue --handler amqp://…m_exchange… --until-empty --quiet EXTRA
    std::unique_ptr<QProcess> startWorker(const QStringList& extra = {});
    // What m_amqpQueue holds, taken off it: how many times each message_id arrived.
    QMap<QString, int> arrivals();

    RabbitNode m_node;
    TestCertificates m_certs;
    bool m_tls = false; // the node has a TLS listener (openssl made the certificates)
    int m_round = 0;
    QString m_queue;    // the delayq queue
    QString m_exchange; // and its RabbitMQ route
    QString m_amqpQueue;
    bool m_alarmSet = false;          // a memory alarm to clear after the test, also a failed one
    bool m_maxMessageSizeSet = false; // the broker's max_message_size to put back, likewise
};
