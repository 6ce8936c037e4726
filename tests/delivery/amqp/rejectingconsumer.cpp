#include "rejectingconsumer.h"

#include <amqp_tcp_socket.h>

namespace {

constexpr amqp_channel_t kRejectingChannel = 1;

amqp_bytes_t rawBytes(const QByteArray& b)
{
    return amqp_bytes_t{static_cast<size_t>(b.size()), const_cast<char*>(b.constData())};
}

// The entry points into value's bytes: value must outlive it (a temporary would be freed at
// the end of the statement that made the entry, before the publish reads it).
amqp_table_entry_t textEntry(const char* key, const QByteArray& value)
{
    amqp_table_entry_t e;
    e.key = amqp_cstring_bytes(key);
    e.value.kind = AMQP_FIELD_KIND_UTF8;
    e.value.value.bytes = rawBytes(value);
    return e;
}
amqp_table_entry_t textEntry(const char* key, QByteArray&& value) = delete;

} // namespace

RejectingConsumer::RejectingConsumer(int port) : m_state(amqp_new_connection())
{
    amqp_socket_t* socket = amqp_tcp_socket_new(m_state);
    if (amqp_socket_open(socket, "127.0.0.1", port) != AMQP_STATUS_OK) {
        m_error = QStringLiteral("cannot connect to the test node");
        return;
    }
    if (amqp_login(m_state, "/", 0, AMQP_DEFAULT_FRAME_SIZE, 0, AMQP_SASL_METHOD_PLAIN, "guest",
                   "guest")
            .reply_type != AMQP_RESPONSE_NORMAL) {
        m_error = QStringLiteral("cannot log in to the test node");
        return;
    }
    amqp_channel_open(m_state, kRejectingChannel);
    m_open = ok("open a channel");
}

RejectingConsumer::~RejectingConsumer()
{
    if (m_open) {
        amqp_channel_close(m_state, kRejectingChannel, AMQP_REPLY_SUCCESS);
        amqp_connection_close(m_state, AMQP_REPLY_SUCCESS);
    }
    amqp_destroy_connection(m_state);
}

bool RejectingConsumer::ok(const char* doing)
{
    const amqp_rpc_reply_t reply = amqp_get_rpc_reply(m_state);
    if (reply.reply_type == AMQP_RESPONSE_NORMAL)
        return true;
    m_error = QStringLiteral("the test's consumer could not %1").arg(QLatin1String(doing));
    m_open = false;
    return false;
}

bool RejectingConsumer::makeLoop(const QString& exchange, const QString& routingKey,
                                 const QString& work, const QString& dlq)
{
    amqp_exchange_declare(m_state, kRejectingChannel, rawBytes(exchange.toUtf8()),
                          amqp_cstring_bytes("direct"), 0, 1, 0, 0, amqp_empty_table);
    if (!ok("declare an exchange"))
        return false;
    amqp_queue_declare(m_state, kRejectingChannel, rawBytes(dlq.toUtf8()), 0, 1, 0, 0,
                       amqp_empty_table);
    if (!ok("declare the dead-letter queue"))
        return false;
    const QByteArray dlqName = dlq.toUtf8();
    const QByteArray defaultExchange;
    amqp_table_entry_t args[] = {textEntry("x-dead-letter-exchange", defaultExchange),
                                 textEntry("x-dead-letter-routing-key", dlqName)};
    amqp_queue_declare(m_state, kRejectingChannel, rawBytes(work.toUtf8()), 0, 1, 0, 0,
                       amqp_table_t{2, args});
    if (!ok("declare the work queue"))
        return false;
    amqp_queue_bind(m_state, kRejectingChannel, rawBytes(work.toUtf8()),
                    rawBytes(exchange.toUtf8()), rawBytes(routingKey.toUtf8()), amqp_empty_table);
    return ok("bind the work queue");
}

bool RejectingConsumer::publish(const QString& exchange, const QString& routingKey,
                                const QString& messageId, const QByteArray& body,
                                const QString& deadFrom, const QString& deadExchange,
                                const QString& deadRoutingKey)
{
    const QByteArray id = messageId.toUtf8(), queue = deadFrom.toUtf8(), ex = deadExchange.toUtf8(),
                     key = deadRoutingKey.toUtf8(), rejected = "rejected";
    amqp_field_value_t keys[1];
    keys[0].kind = AMQP_FIELD_KIND_UTF8;
    keys[0].value.bytes = rawBytes(key);
    amqp_table_entry_t death[5] = {textEntry("queue", queue),
                                   textEntry("reason", rejected),
                                   textEntry("exchange", ex),
                                   {},
                                   {}};
    death[3].key = amqp_cstring_bytes("count");
    death[3].value.kind = AMQP_FIELD_KIND_I64;
    death[3].value.value.i64 = 1;
    death[4].key = amqp_cstring_bytes("routing-keys");
    death[4].value.kind = AMQP_FIELD_KIND_ARRAY;
    death[4].value.value.array = {1, keys};
    amqp_field_value_t deaths[1];
    deaths[0].kind = AMQP_FIELD_KIND_TABLE;
    deaths[0].value.table = {5, death};
    amqp_table_entry_t header;
    header.key = amqp_cstring_bytes("x-death");
    header.value.kind = AMQP_FIELD_KIND_ARRAY;
    header.value.value.array = {1, deaths};

    amqp_basic_properties_t p{};
    p._flags =
        AMQP_BASIC_MESSAGE_ID_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_CONTENT_TYPE_FLAG;
    p.message_id = rawBytes(id);
    p.delivery_mode = 2;
    p.content_type = amqp_cstring_bytes("text/plain");
    if (!deadFrom.isEmpty()) {
        p._flags |= AMQP_BASIC_HEADERS_FLAG;
        p.headers = {1, &header};
    }
    const QByteArray to = exchange.toUtf8(), rk = routingKey.toUtf8();
    return amqp_basic_publish(m_state, kRejectingChannel, rawBytes(to), rawBytes(rk), 0, 0, &p,
                              rawBytes(body)) == AMQP_STATUS_OK;
}

std::optional<RejectingConsumer::Message> RejectingConsumer::take(const QString& queue)
{
    amqp_maybe_release_buffers(m_state);
    const amqp_rpc_reply_t reply =
        amqp_basic_get(m_state, kRejectingChannel, rawBytes(queue.toUtf8()), 0);
    if (reply.reply_type != AMQP_RESPONSE_NORMAL) {
        m_open = false; // the broker went away: the caller makes a new consumer
        return std::nullopt;
    }
    if (reply.reply.id != AMQP_BASIC_GET_OK_METHOD)
        return std::nullopt;
    Message m;
    m.tag = static_cast<const amqp_basic_get_ok_t*>(reply.reply.decoded)->delivery_tag;
    amqp_message_t raw;
    if (amqp_read_message(m_state, kRejectingChannel, &raw, 0).reply_type != AMQP_RESPONSE_NORMAL) {
        m_open = false;
        return std::nullopt;
    }
    const amqp_basic_properties_t& p = raw.properties;
    if (p._flags & AMQP_BASIC_MESSAGE_ID_FLAG)
        m.messageId = QString::fromUtf8(static_cast<const char*>(p.message_id.bytes),
                                        static_cast<qsizetype>(p.message_id.len));
    if (p._flags & AMQP_BASIC_HEADERS_FLAG)
        for (int i = 0; i < p.headers.num_entries; ++i) {
            const amqp_table_entry_t& e = p.headers.entries[i];
            if (QByteArray(static_cast<const char*>(e.key.bytes),
                           static_cast<qsizetype>(e.key.len)) == "x-delayq-deaths" &&
                e.value.kind == AMQP_FIELD_KIND_I64)
                m.deaths = e.value.value.i64;
        }
    m.body =
        QByteArray(static_cast<const char*>(raw.body.bytes), static_cast<qsizetype>(raw.body.len));
    amqp_destroy_message(&raw);
    return m;
}

void RejectingConsumer::ack(uint64_t tag)
{
    amqp_basic_ack(m_state, kRejectingChannel, tag, 0);
}

void RejectingConsumer::reject(uint64_t tag)
{
    amqp_basic_reject(m_state, kRejectingChannel, tag, 0);
}

int RejectingConsumer::messageCount(const QString& queue)
{
    const auto* r = amqp_queue_declare(m_state, kRejectingChannel, rawBytes(queue.toUtf8()), 1, 0,
                                       0, 0, amqp_empty_table);
    if (!ok("look at a queue") || !r)
        return -1;
    return static_cast<int>(r->message_count);
}
