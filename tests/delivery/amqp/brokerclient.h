#pragma once

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QVariant>

#include <amqp.h>

// The test's own RabbitMQ client (rabbitmq-c, not the code under test): sets up exchanges and
// queues, and reads what arrived with basic.get, as a consumer would see it.
class BrokerClient
{
public:
    // One message as basic.get returned it.
    struct Message
    {
        QString messageId;
        QString contentType;
        int deliveryMode = 0;
        QString type;                    // empty: not set
        int priority = -1;               // -1: not set
        QString expiration;              // empty: not set
        QMap<QString, QVariant> headers; // strings and integers
        QByteArray body;
    };

    // Connects as guest to 127.0.0.1:port, vhost "/". isOpen() says whether it did.
    explicit BrokerClient(int port);
    ~BrokerClient();
    bool isOpen() const { return m_open; }
    QString lastError() const { return m_error; }

    bool declareExchange(const QString& name);
    bool deleteExchange(const QString& name);
    // A durable queue bound to exchange with routingKey; maxLength >= 0 adds x-max-length and
    // x-overflow=reject-publish (the broker nacks what does not fit; 0: every message, which
    // other queues bound alike still get).
    bool declareBoundQueue(const QString& queue, const QString& exchange, const QString& routingKey,
                           int maxLength = -1);
    bool deleteQueue(const QString& queue);
    // How many messages the queue holds (-1 on an error).
    int messageCount(const QString& queue);
    // Every message in the queue, taken off it (basic.get with no_ack).
    QList<Message> takeAll(const QString& queue);

private:
    bool ok(const char* doing);
    bool readMessage(Message& message);

    amqp_connection_state_t m_state = nullptr;
    bool m_open = false;
    QString m_error;
};
