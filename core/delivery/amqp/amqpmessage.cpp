#include "amqpmessage.h"

#include <nlohmann/json.hpp>

namespace delayq::amqp {

namespace {

amqp_bytes_t bytesOf(const std::string& s)
{
    return amqp_bytes_t{s.size(), const_cast<char*>(s.data())};
}

amqp_table_entry_t textEntry(const char* key, const std::string& value)
{
    amqp_table_entry_t entry;
    entry.key = amqp_cstring_bytes(key);
    entry.value.kind = AMQP_FIELD_KIND_UTF8;
    entry.value.value.bytes = bytesOf(value);
    return entry;
}

amqp_table_entry_t intEntry(const char* key, long long value)
{
    amqp_table_entry_t entry;
    entry.key = amqp_cstring_bytes(key);
    entry.value.kind = AMQP_FIELD_KIND_I64;
    entry.value.value.i64 = value;
    return entry;
}

} // namespace

int publishTask(AmqpConnection& connection, const AmqpUrl& url, const std::string& queue,
                const ClaimedTask& task)
{
    amqp_table_entry_t headers[] = {
        textEntry("x-delayq-queue", queue), intEntry("x-delayq-attempt", task.attempts),
        intEntry("x-delayq-due", task.due), textEntry("x-delayq-task-id", task.id)};
    amqp_basic_properties_t props;
    props._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG |
                   AMQP_BASIC_MESSAGE_ID_FLAG | AMQP_BASIC_HEADERS_FLAG;
    props.content_type = amqp_cstring_bytes(
        nlohmann::json::accept(task.payload) ? "application/json" : "application/octet-stream");
    props.delivery_mode = AMQP_DELIVERY_PERSISTENT;
    props.message_id = bytesOf(task.id);
    props.headers = amqp_table_t{4, headers};
    return amqp_basic_publish(connection.state(), AmqpConnection::kChannel, bytesOf(url.exchange),
                              bytesOf(url.routingKey), 1, 0, &props, bytesOf(task.payload));
}

} // namespace delayq::amqp
