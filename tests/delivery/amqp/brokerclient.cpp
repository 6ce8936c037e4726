#include "brokerclient.h"

#include <amqp_tcp_socket.h>

namespace {

constexpr amqp_channel_t kChannel = 1;

amqp_bytes_t bytes(const QByteArray& b)
{
    return amqp_bytes_t{static_cast<size_t>(b.size()), const_cast<char*>(b.constData())};
}

QByteArray qbytes(amqp_bytes_t b)
{
    return QByteArray(static_cast<const char*>(b.bytes), static_cast<qsizetype>(b.len));
}

QVariant fieldValue(const amqp_field_value_t& v)
{
    switch (v.kind) {
    case AMQP_FIELD_KIND_UTF8:
    case AMQP_FIELD_KIND_BYTES:
        return QString::fromUtf8(qbytes(v.value.bytes));
    case AMQP_FIELD_KIND_I64:
        return QVariant::fromValue<qlonglong>(v.value.i64);
    case AMQP_FIELD_KIND_I32:
        return QVariant::fromValue<qlonglong>(v.value.i32);
    default:
        return QStringLiteral("<kind %1>").arg(QChar(v.kind));
    }
}

} // namespace

BrokerClient::BrokerClient(int port) : m_state(amqp_new_connection())
{
    amqp_socket_t* socket = amqp_tcp_socket_new(m_state);
    if (amqp_socket_open(socket, "127.0.0.1", port) != AMQP_STATUS_OK) {
        m_error = QStringLiteral("cannot connect to the test node");
        return;
    }
    const amqp_rpc_reply_t login = amqp_login(m_state, "/", 0, AMQP_DEFAULT_FRAME_SIZE, 0,
                                              AMQP_SASL_METHOD_PLAIN, "guest", "guest");
    if (login.reply_type != AMQP_RESPONSE_NORMAL) {
        m_error = QStringLiteral("cannot log in to the test node");
        return;
    }
    amqp_channel_open(m_state, kChannel);
    m_open = ok("open a channel");
}

BrokerClient::~BrokerClient()
{
    if (m_open) {
        amqp_channel_close(m_state, kChannel, AMQP_REPLY_SUCCESS);
        amqp_connection_close(m_state, AMQP_REPLY_SUCCESS);
    }
    amqp_destroy_connection(m_state);
}

bool BrokerClient::ok(const char* doing)
{
    const amqp_rpc_reply_t reply = amqp_get_rpc_reply(m_state);
    if (reply.reply_type == AMQP_RESPONSE_NORMAL)
        return true;
    m_error = QStringLiteral("the test's client could not %1").arg(QLatin1String(doing));
    m_open = false; // a refused declare closes the channel: this client is done
    return false;
}

bool BrokerClient::declareExchange(const QString& name)
{
    amqp_exchange_declare(m_state, kChannel, bytes(name.toUtf8()), amqp_cstring_bytes("direct"), 0,
                          1, 0, 0, amqp_empty_table);
    return ok("declare an exchange");
}

bool BrokerClient::deleteExchange(const QString& name)
{
    amqp_exchange_delete(m_state, kChannel, bytes(name.toUtf8()), 0);
    return ok("delete an exchange");
}

bool BrokerClient::declareBoundQueue(const QString& queue, const QString& exchange,
                                     const QString& routingKey, int maxLength)
{
    amqp_table_entry_t args[2];
    args[0].key = amqp_cstring_bytes("x-max-length");
    args[0].value.kind = AMQP_FIELD_KIND_I32;
    args[0].value.value.i32 = maxLength;
    args[1].key = amqp_cstring_bytes("x-overflow");
    args[1].value.kind = AMQP_FIELD_KIND_UTF8;
    args[1].value.value.bytes = amqp_cstring_bytes("reject-publish");
    const amqp_table_t table{maxLength >= 0 ? 2 : 0, args};
    amqp_queue_declare(m_state, kChannel, bytes(queue.toUtf8()), 0, 1, 0, 0, table);
    if (!ok("declare a queue"))
        return false;
    amqp_queue_bind(m_state, kChannel, bytes(queue.toUtf8()), bytes(exchange.toUtf8()),
                    bytes(routingKey.toUtf8()), amqp_empty_table);
    return ok("bind a queue");
}

bool BrokerClient::deleteQueue(const QString& queue)
{
    amqp_queue_delete(m_state, kChannel, bytes(queue.toUtf8()), 0, 0);
    return ok("delete a queue");
}

int BrokerClient::messageCount(const QString& queue)
{
    const auto* r =
        amqp_queue_declare(m_state, kChannel, bytes(queue.toUtf8()), 1, 0, 0, 0, amqp_empty_table);
    if (!ok("look at a queue") || !r)
        return -1;
    return static_cast<int>(r->message_count);
}

QList<BrokerClient::Message> BrokerClient::takeAll(const QString& queue)
{
    QList<Message> messages;
    for (;;) {
        const amqp_rpc_reply_t reply = amqp_basic_get(m_state, kChannel, bytes(queue.toUtf8()), 1);
        if (reply.reply_type != AMQP_RESPONSE_NORMAL || reply.reply.id != AMQP_BASIC_GET_OK_METHOD)
            break; // get-empty, or an error
        Message m;
        if (!readMessage(m))
            break;
        messages << m;
        amqp_maybe_release_buffers(m_state);
    }
    return messages;
}

bool BrokerClient::readMessage(Message& message)
{
    amqp_message_t raw;
    if (amqp_read_message(m_state, kChannel, &raw, 0).reply_type != AMQP_RESPONSE_NORMAL)
        return false;
    const amqp_basic_properties_t& p = raw.properties;
    if (p._flags & AMQP_BASIC_MESSAGE_ID_FLAG)
        message.messageId = QString::fromUtf8(qbytes(p.message_id));
    if (p._flags & AMQP_BASIC_CONTENT_TYPE_FLAG)
        message.contentType = QString::fromUtf8(qbytes(p.content_type));
    if (p._flags & AMQP_BASIC_DELIVERY_MODE_FLAG)
        message.deliveryMode = p.delivery_mode;
    if (p._flags & AMQP_BASIC_TYPE_FLAG)
        message.type = QString::fromUtf8(qbytes(p.type));
    if (p._flags & AMQP_BASIC_PRIORITY_FLAG)
        message.priority = p.priority;
    if (p._flags & AMQP_BASIC_EXPIRATION_FLAG)
        message.expiration = QString::fromUtf8(qbytes(p.expiration));
    if (p._flags & AMQP_BASIC_HEADERS_FLAG)
        for (int i = 0; i < p.headers.num_entries; ++i)
            message.headers.insert(QString::fromUtf8(qbytes(p.headers.entries[i].key)),
                                   fieldValue(p.headers.entries[i].value));
    message.body = qbytes(raw.body);
    amqp_destroy_message(&raw);
    return true;
}
