#pragma once

#include <QByteArray>
#include <QString>

#include <amqp.h>

#include <optional>

// The test's stand-in for a Spring listener (rabbitmq-c, not the code under test): sets up a
// work queue whose rejects are dead-lettered to a dead-letter queue, publishes to it, and takes
// messages one at a time to ack or reject (requeue=false) them.
class RejectingConsumer
{
public:
    struct Message
    {
        QString messageId;
        QByteArray body;
        long long deaths = 0; // the x-delayq-deaths header (0: none, a first delivery)
        uint64_t tag = 0;
    };

    explicit RejectingConsumer(int port);
    ~RejectingConsumer();
    bool isOpen() const { return m_open; }
    QString lastError() const { return m_error; }

    // A direct exchange `exchange`, a durable `dlq`, and a durable `work` queue bound with
    // routingKey whose dead letters go to dlq through the default exchange.
    bool makeLoop(const QString& exchange, const QString& routingKey, const QString& work,
                  const QString& dlq);
    // A persistent message; with deadFrom set, it carries an x-death header as if the broker
    // had dead-lettered it once from that queue (reason rejected, first published to
    // deadExchange with deadRoutingKey).
    bool publish(const QString& exchange, const QString& routingKey, const QString& messageId,
                 const QByteArray& body, const QString& deadFrom = {},
                 const QString& deadExchange = {}, const QString& deadRoutingKey = {});
    // basic.get with manual ack; nullopt when the queue is empty, or on an error (then
    // isOpen() is false).
    std::optional<Message> take(const QString& queue);
    void ack(uint64_t tag);
    void reject(uint64_t tag);
    int messageCount(const QString& queue);

private:
    bool ok(const char* doing);

    amqp_connection_state_t m_state = nullptr;
    bool m_open = false;
    QString m_error;
};
