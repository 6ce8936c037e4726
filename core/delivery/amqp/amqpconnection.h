#pragma once

#include "amqpurl.h"

#include <amqp.h>

#include <string>

namespace delayq::amqp {

// One connection to the broker with channel 1 open, through rabbitmq-c (Debian's 0.11). Its
// constructor connects, logs in and opens the channel, or throws Error naming the cause in
// the operator's words (the user refused, the vhost unknown, the broker unreachable).
// Not thread-safe: one per worker thread.
class AmqpConnection
{
public:
    static constexpr amqp_channel_t kChannel = 1;

    // `name` is the connection_name the broker shows for it (rabbitmqctl list_connections,
    // the management UI), so an operator can tell which worker a connection is.
    AmqpConnection(const AmqpUrl& url, long long timeoutMs, const std::string& name = "delayq");
    ~AmqpConnection();
    AmqpConnection(const AmqpConnection&) = delete;
    AmqpConnection& operator=(const AmqpConnection&) = delete;

    amqp_connection_state_t state() const { return m_state; }

    // Puts the channel in confirm mode: every publish from here on gets a basic.ack or a
    // basic.nack, delivery tags counting from 1.
    void confirmSelect();
    // exchange.declare passive=1: Error(NotFound) when the exchange does not exist.
    void requireExchange(const std::string& exchange, const std::string& vhost);
    // channel.close and connection.close, each waited for at most the timeout. Without it the
    // destructor just drops the socket (a broken connection has nobody to say goodbye to).
    void closeCleanly();
    // Answers the broker's connection.close, so that it logs a clean close, not a reset.
    void acknowledgeClose();

    // "host:port", for log lines.
    const std::string& where() const { return m_where; }

private:
    void open(const AmqpUrl& url, long long timeoutMs, const std::string& name);
    void login(const AmqpUrl& url, const std::string& name);
    void check(amqp_rpc_reply_t reply, const std::string& doing);

    amqp_connection_state_t m_state = nullptr;
    std::string m_where;
    bool m_channelOpen = false;
};

// The broker's answer in a reply, for messages: "NOT_FOUND - no exchange 'x' in vhost '/'"
// (the reply code in *code when asked), or rabbitmq-c's own text for a library error.
std::string replyText(const amqp_rpc_reply_t& reply, int* code = nullptr);
// The bytes as a string (they are not NUL-terminated).
std::string text(amqp_bytes_t bytes);

} // namespace delayq::amqp
