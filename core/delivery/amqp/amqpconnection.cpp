#include "amqpconnection.h"

#include "amqptls.h"
#include "transport/sockettransport.h"
#include <delayq/error.h>

#include <amqp_tcp_socket.h>

#include <sys/time.h>

namespace delayq::amqp {

namespace {

timeval timevalOf(long long ms)
{
    return timeval{static_cast<time_t>(ms / 1000), static_cast<suseconds_t>(ms % 1000 * 1000)};
}

amqp_table_entry_t boolEntry(const char* key, bool value)
{
    amqp_table_entry_t entry;
    entry.key = amqp_cstring_bytes(key);
    entry.value.kind = AMQP_FIELD_KIND_BOOLEAN;
    entry.value.value.boolean = value ? 1 : 0;
    return entry;
}

// rabbitmq-c's nonblocking connect loses the errno: a refused port, an unreachable host and a
// name that does not resolve are all "a socket error occurred". One plain connect of our own
// to the same address says which (it is closed at once); when it gets through, the broker was
// away only for a moment, and rabbitmq-c's words stay.
std::string socketCause(const std::string& host, int port, long long timeoutMs,
                        const std::string& library)
{
    try {
        SocketTransport::connectTcp(
            host, port, std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs));
    } catch (const Error& e) {
        return e.what();
    }
    return library;
}

} // namespace

std::string text(amqp_bytes_t bytes)
{
    return bytes.len == 0 ? std::string()
                          : std::string(static_cast<const char*>(bytes.bytes), bytes.len);
}

std::string replyText(const amqp_rpc_reply_t& reply, int* code)
{
    if (code)
        *code = 0;
    switch (reply.reply_type) {
    case AMQP_RESPONSE_NORMAL:
        return "ok";
    case AMQP_RESPONSE_NONE:
        return "no reply from the broker";
    case AMQP_RESPONSE_LIBRARY_EXCEPTION:
        return amqp_error_string2(reply.library_error);
    case AMQP_RESPONSE_SERVER_EXCEPTION:
        break;
    }
    if (reply.reply.id == AMQP_CONNECTION_CLOSE_METHOD) {
        const auto* close = static_cast<const amqp_connection_close_t*>(reply.reply.decoded);
        if (code)
            *code = close->reply_code;
        return text(close->reply_text);
    }
    if (reply.reply.id == AMQP_CHANNEL_CLOSE_METHOD) {
        const auto* close = static_cast<const amqp_channel_close_t*>(reply.reply.decoded);
        if (code)
            *code = close->reply_code;
        return text(close->reply_text);
    }
    return "an unexpected answer from the broker";
}

AmqpConnection::AmqpConnection(const AmqpUrl& url, long long timeoutMs, const std::string& name)
    : m_state(amqp_new_connection()), m_where(url.host + ":" + std::to_string(url.port))
{
    if (!m_state)
        throw Error(ErrorCode::Connection, "out of memory for a RabbitMQ connection");
    try {
        open(url, timeoutMs, name);
    } catch (...) {
        amqp_destroy_connection(m_state);
        throw;
    }
}

AmqpConnection::~AmqpConnection()
{
    amqp_destroy_connection(m_state);
}

void AmqpConnection::open(const AmqpUrl& url, long long timeoutMs, const std::string& name)
{
    amqp_socket_t* socket =
        url.tls.enabled ? tlsSocket(m_state, url) : amqp_tcp_socket_new(m_state);
    if (!socket)
        throw Error(ErrorCode::Connection, "cannot make a socket for RabbitMQ");
    // Every handshake step and RPC is bounded: a broker that stops answering is an error in
    // timeoutMs, not a worker thread stuck for ever.
    timeval tv = timevalOf(timeoutMs);
    amqp_set_handshake_timeout(m_state, &tv);
    amqp_set_rpc_timeout(m_state, &tv);
    const int status = amqp_socket_open_noblock(socket, url.host.c_str(), url.port, &tv);
    const std::string why =
        status == AMQP_STATUS_SOCKET_ERROR
            ? socketCause(url.host, url.port, timeoutMs, amqp_error_string2(status))
            : amqp_error_string2(status);
    if (status != AMQP_STATUS_OK)
        throw Error(status == AMQP_STATUS_SSL_ERROR ||
                            status == AMQP_STATUS_SSL_HOSTNAME_VERIFY_FAILED ||
                            status == AMQP_STATUS_SSL_PEER_VERIFY_FAILED ||
                            status == AMQP_STATUS_SSL_CONNECTION_FAILED
                        ? ErrorCode::Tls
                        : ErrorCode::Connection,
                    "cannot connect to RabbitMQ at " + m_where + ": " + why);
    login(url, name);
    amqp_channel_open(m_state, kChannel);
    check(amqp_get_rpc_reply(m_state), "open a channel");
    m_channelOpen = true;
}

void AmqpConnection::login(const AmqpUrl& url, const std::string& name)
{
    // Asking for connection.blocked is what makes the broker tell us about its memory and
    // disk alarms instead of just stopping to read; publisher_confirms for confirm.select.
    amqp_table_entry_t capabilities[] = {boolEntry("connection.blocked", true),
                                         boolEntry("publisher_confirms", true),
                                         boolEntry("authentication_failure_close", true)};
    amqp_table_entry_t properties[3];
    properties[0].key = amqp_cstring_bytes("capabilities");
    properties[0].value.kind = AMQP_FIELD_KIND_TABLE;
    properties[0].value.value.table = {3, capabilities};
    properties[1].key = amqp_cstring_bytes("product");
    properties[1].value.kind = AMQP_FIELD_KIND_UTF8;
    properties[1].value.value.bytes = amqp_cstring_bytes("delayq");
    properties[2].key = amqp_cstring_bytes("connection_name");
    properties[2].value.kind = AMQP_FIELD_KIND_UTF8;
    properties[2].value.value.bytes = {name.size(), const_cast<char*>(name.data())};
    const amqp_table_t table{3, properties};
    const amqp_rpc_reply_t reply = amqp_login_with_properties(
        m_state, url.vhost.c_str(), 0, AMQP_DEFAULT_FRAME_SIZE, 0, &table, AMQP_SASL_METHOD_PLAIN,
        url.user.c_str(), url.password.c_str());
    if (reply.reply_type == AMQP_RESPONSE_NORMAL)
        return;
    int code = 0;
    const std::string why = replyText(reply, &code);
    if (code == AMQP_ACCESS_REFUSED)
        throw Error(ErrorCode::Auth,
                    "RabbitMQ refused user " + url.user + ": wrong user or password (" + why + ")");
    if (code == AMQP_NOT_ALLOWED)
        throw Error(ErrorCode::NotFound, "RabbitMQ does not let user " + url.user + " open vhost " +
                                             url.vhost +
                                             ": it does not exist or the user has no "
                                             "permission on it (" +
                                             why + ")");
    throw Error(ErrorCode::Connection, "cannot log in to RabbitMQ at " + m_where + ": " + why);
}

void AmqpConnection::check(amqp_rpc_reply_t reply, const std::string& doing)
{
    if (reply.reply_type != AMQP_RESPONSE_NORMAL)
        throw Error(ErrorCode::Connection,
                    "RabbitMQ at " + m_where + " did not " + doing + ": " + replyText(reply));
}

void AmqpConnection::confirmSelect()
{
    amqp_confirm_select(m_state, kChannel);
    check(amqp_get_rpc_reply(m_state), "put the channel in confirm mode");
}

void AmqpConnection::requireExchange(const std::string& exchange, const std::string& vhost)
{
    amqp_exchange_declare(m_state, kChannel, amqp_cstring_bytes(exchange.c_str()), amqp_empty_bytes,
                          1, 0, 0, 0, amqp_empty_table);
    const amqp_rpc_reply_t reply = amqp_get_rpc_reply(m_state);
    if (reply.reply_type == AMQP_RESPONSE_NORMAL)
        return;
    int code = 0;
    const std::string why = replyText(reply, &code);
    m_channelOpen = false; // the broker closed it
    if (code == AMQP_NOT_FOUND)
        throw Error(ErrorCode::NotFound,
                    "exchange " + exchange + " does not exist in vhost " + vhost);
    throw Error(ErrorCode::Connection,
                "RabbitMQ at " + m_where + " did not check exchange " + exchange + ": " + why);
}

void AmqpConnection::closeCleanly()
{
    if (m_channelOpen)
        amqp_channel_close(m_state, kChannel, AMQP_REPLY_SUCCESS);
    m_channelOpen = false;
    amqp_connection_close(m_state, AMQP_REPLY_SUCCESS);
}

void AmqpConnection::acknowledgeClose()
{
    amqp_connection_close_ok_t ok{0};
    amqp_send_method(m_state, 0, AMQP_CONNECTION_CLOSE_OK_METHOD, &ok);
}

} // namespace delayq::amqp
