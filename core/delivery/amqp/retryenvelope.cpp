#include "retryenvelope.h"

#include "amqpmessage.h"

#include <taskline.h>

#include <deque>
#include <vector>

namespace delayq::amqp {

namespace {

using nlohmann::json;

// The x-delayq-deaths header: the deaths counted so far, carried by the republished message,
// because a broker need not count on an x-death header a client publishes (RabbitMQ 4.0 and
// later, and 3.13.0-3.13.2, do not: rabbitmq-server PR 11339).
constexpr const char* kRetryDeathsHeader = "x-delayq-deaths";

// Text as JSON keeps: UTF-8 as it is, other bytes replaced (header values only; the body has
// body_base64).
std::string jsonText(amqp_bytes_t bytes)
{
    const std::string s = text(bytes);
    return TaskLine::isUtf8(s) ? s : json(s).dump(-1, ' ', false, json::error_handler_t::replace);
}

json fieldToJson(const amqp_field_value_t& v);

json tableToJson(const amqp_table_t& table)
{
    json object = json::object();
    for (int i = 0; i < table.num_entries; ++i)
        object[jsonText(table.entries[i].key)] = fieldToJson(table.entries[i].value);
    return object;
}

json fieldToJson(const amqp_field_value_t& v)
{
    switch (v.kind) {
    case AMQP_FIELD_KIND_BOOLEAN:
        return v.value.boolean != 0;
    case AMQP_FIELD_KIND_I8:
        return v.value.i8;
    case AMQP_FIELD_KIND_U8:
        return v.value.u8;
    case AMQP_FIELD_KIND_I16:
        return v.value.i16;
    case AMQP_FIELD_KIND_U16:
        return v.value.u16;
    case AMQP_FIELD_KIND_I32:
        return v.value.i32;
    case AMQP_FIELD_KIND_U32:
        return v.value.u32;
    case AMQP_FIELD_KIND_I64:
        return v.value.i64;
    case AMQP_FIELD_KIND_U64:
    case AMQP_FIELD_KIND_TIMESTAMP:
        return v.value.u64;
    case AMQP_FIELD_KIND_F32:
        return v.value.f32;
    case AMQP_FIELD_KIND_F64:
        return v.value.f64;
    case AMQP_FIELD_KIND_DECIMAL: {
        double d = v.value.decimal.value;
        for (int i = 0; i < v.value.decimal.decimals; ++i)
            d /= 10;
        return d;
    }
    case AMQP_FIELD_KIND_UTF8:
    case AMQP_FIELD_KIND_BYTES:
        return jsonText(v.value.bytes);
    case AMQP_FIELD_KIND_ARRAY: {
        json array = json::array();
        for (int i = 0; i < v.value.array.num_entries; ++i)
            array.push_back(fieldToJson(v.value.array.entries[i]));
        return array;
    }
    case AMQP_FIELD_KIND_TABLE:
        return tableToJson(v.value.table);
    default:
        return nullptr;
    }
}

// The headers' JSON back as an AMQP table: strings as long strings (what Spring reads
// __TypeId__ from), whole numbers as signed 64-bit, others as double, objects as tables.
// Everything it points to lives here, until the publish is sent.
class TableBuilder
{
public:
    amqp_table_t table(const json& object)
    {
        auto& entries = m_entries.emplace_back();
        for (const auto& [key, value] : object.items()) {
            amqp_table_entry_t entry;
            entry.key = bytes(key);
            entry.value = field(value);
            entries.push_back(entry);
        }
        return {static_cast<int>(entries.size()), entries.data()};
    }
    amqp_bytes_t bytes(const std::string& s)
    {
        const std::string& kept = m_strings.emplace_back(s);
        return {kept.size(), const_cast<char*>(kept.data())};
    }

private:
    amqp_field_value_t field(const json& v)
    {
        amqp_field_value_t f;
        if (v.is_boolean()) {
            f.kind = AMQP_FIELD_KIND_BOOLEAN;
            f.value.boolean = v.get<bool>() ? 1 : 0;
        } else if (v.is_number_integer()) {
            f.kind = AMQP_FIELD_KIND_I64;
            f.value.i64 = v.get<int64_t>();
        } else if (v.is_number()) {
            f.kind = AMQP_FIELD_KIND_F64;
            f.value.f64 = v.get<double>();
        } else if (v.is_string()) {
            f.kind = AMQP_FIELD_KIND_UTF8;
            f.value.bytes = bytes(v.get<std::string>());
        } else if (v.is_array()) {
            auto& values = m_values.emplace_back();
            for (const auto& item : v)
                values.push_back(field(item));
            f.kind = AMQP_FIELD_KIND_ARRAY;
            f.value.array = {static_cast<int>(values.size()), values.data()};
        } else if (v.is_object()) {
            f.kind = AMQP_FIELD_KIND_TABLE;
            f.value.table = table(v);
        } else {
            f.kind = AMQP_FIELD_KIND_VOID;
        }
        return f;
    }

    // deques: what was handed out keeps its address while more is added.
    std::deque<std::string> m_strings;
    std::deque<std::vector<amqp_table_entry_t>> m_entries;
    std::deque<std::vector<amqp_field_value_t>> m_values;
};

bool isBrokerDeathHeader(const std::string& name)
{
    return name == "x-death" || name.rfind("x-first-death-", 0) == 0 ||
           name.rfind("x-last-death-", 0) == 0 || name == kRetryDeathsHeader;
}

long long integerOf(const json& v)
{
    return v.is_number_integer() ? v.get<long long>() : 0;
}

std::string stringOf(const json& object, const char* key)
{
    const auto found = object.find(key);
    return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

std::string routeText(const std::string& exchange, const std::string& routingKey)
{
    return (exchange.empty() ? std::string("the default exchange")
                             : "exchange '" + exchange + "'") +
           ", routing key '" + routingKey + "'";
}

} // namespace

RetryEnvelope RetryEnvelope::fromMessage(const amqp_envelope_t& message)
{
    RetryEnvelope e;
    const amqp_basic_properties_t& p = message.message.properties;
    json& props = e.properties;
    // The short string properties a consumer may rely on. user_id is left out (the broker
    // refuses one that is not the publishing user), expiration too (dead-lettering drops it).
    const struct
    {
        amqp_flags_t flag;
        const char* name;
        const amqp_bytes_t& value;
    } texts[] = {{AMQP_BASIC_CONTENT_TYPE_FLAG, "content_type", p.content_type},
                 {AMQP_BASIC_CONTENT_ENCODING_FLAG, "content_encoding", p.content_encoding},
                 {AMQP_BASIC_CORRELATION_ID_FLAG, "correlation_id", p.correlation_id},
                 {AMQP_BASIC_REPLY_TO_FLAG, "reply_to", p.reply_to},
                 {AMQP_BASIC_MESSAGE_ID_FLAG, "message_id", p.message_id},
                 {AMQP_BASIC_TYPE_FLAG, "type", p.type},
                 {AMQP_BASIC_APP_ID_FLAG, "app_id", p.app_id}};
    for (const auto& t : texts)
        if (p._flags & t.flag)
            props[t.name] = jsonText(t.value);
    if (p._flags & AMQP_BASIC_DELIVERY_MODE_FLAG)
        props["delivery_mode"] = p.delivery_mode;
    if (p._flags & AMQP_BASIC_PRIORITY_FLAG)
        props["priority"] = p.priority;
    if (p._flags & AMQP_BASIC_TIMESTAMP_FLAG)
        props["timestamp"] = p.timestamp;

    // Where it came from: the newest x-death entry (RabbitMQ puts it first); without one (a
    // message published to the dead-letter queue by hand) the route it arrived with.
    e.exchange = text(message.exchange);
    e.routingKey = text(message.routing_key);
    e.reason = "unknown (no x-death header)";
    long long deaths = 1;
    json headers = json::object();
    if (p._flags & AMQP_BASIC_HEADERS_FLAG) {
        const json all = tableToJson(p.headers);
        for (const auto& [name, value] : all.items())
            if (!isBrokerDeathHeader(name))
                headers[name] = value;
        if (const auto d = all.find(kRetryDeathsHeader); d != all.end())
            deaths = integerOf(*d) + 1;
        if (const auto x = all.find("x-death");
            x != all.end() && x->is_array() && !x->empty() && x->front().is_object()) {
            const json& newest = x->front();
            e.exchange = stringOf(newest, "exchange");
            e.queue = stringOf(newest, "queue");
            e.reason = stringOf(newest, "reason");
            const auto keys = newest.find("routing-keys");
            e.routingKey = keys != newest.end() && keys->is_array() && !keys->empty() &&
                                   keys->front().is_string()
                               ? keys->front().get<std::string>()
                               : "";
            if (const auto count = newest.find("count"); count != newest.end())
                deaths = std::max(deaths, integerOf(*count));
        }
    }
    if (!headers.empty())
        props["headers"] = headers;
    e.deaths = static_cast<int>(std::clamp(deaths, 1LL, 1000000000LL));
    e.body = text(message.message.body);
    return e;
}

std::string RetryEnvelope::toPayload() const
{
    json j = {{"exchange", exchange}, {"routing_key", routingKey}, {"queue", queue},
              {"reason", reason},     {"deaths", deaths},          {"properties", properties}};
    if (giveUpDue)
        j["give_up_due"] = *giveUpDue;
    if (TaskLine::isUtf8(body))
        j["body"] = body;
    else
        j["body_base64"] = TaskLine::base64(body);
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<RetryEnvelope> RetryEnvelope::fromPayload(const std::string& payload,
                                                        std::string* why)
{
    const json j = json::parse(payload, nullptr, false);
    if (!j.is_object() || !j.contains("exchange") || !j["exchange"].is_string() ||
        !j.contains("routing_key") || !j["routing_key"].is_string() || !j.contains("deaths") ||
        !j["deaths"].is_number_integer()) {
        *why = "the payload is not a retry loop's message (a JSON object with exchange, "
               "routing_key, deaths, properties and body)";
        return std::nullopt;
    }
    RetryEnvelope e;
    e.exchange = j["exchange"].get<std::string>();
    e.routingKey = j["routing_key"].get<std::string>();
    e.queue = stringOf(j, "queue");
    e.reason = stringOf(j, "reason");
    e.deaths = static_cast<int>(std::clamp(j["deaths"].get<long long>(), 1LL, 1000000000LL));
    if (j.contains("give_up_due") && j["give_up_due"].is_number_integer())
        e.giveUpDue = j["give_up_due"].get<long long>();
    if (j.contains("properties") && j["properties"].is_object())
        e.properties = j["properties"];
    if (j.contains("body") && j["body"].is_string()) {
        e.body = j["body"].get<std::string>();
    } else if (j.contains("body_base64") && j["body_base64"].is_string()) {
        const auto bytes = TaskLine::fromBase64(j["body_base64"].get<std::string>());
        if (!bytes) {
            *why = "the payload's body_base64 is not base64";
            return std::nullopt;
        }
        e.body = *bytes;
    } else {
        *why = "the payload has neither body nor body_base64";
        return std::nullopt;
    }
    return e;
}

std::string RetryEnvelope::taskId() const
{
    const std::string head = "dlq:" + std::to_string(deaths) + ":";
    const std::string id = stringOf(properties, "message_id");
    if (id.empty())
        return head + "body-sha256:" + sha256Hex(exchange + '\0' + routingKey + '\0' + body);
    const bool printable = id.size() <= 200 && std::all_of(id.begin(), id.end(), [](char c) {
                               return static_cast<unsigned char>(c) >= 0x20 && c != 0x7f;
                           });
    return head + (printable ? id : "sha256:" + sha256Hex(id));
}

std::string RetryEnvelope::messageId(const std::string& taskId) const
{
    const std::string id = stringOf(properties, "message_id");
    return id.empty() ? taskId : id;
}

int RetryEnvelope::publish(AmqpConnection& connection, const std::string& taskId) const
{
    TableBuilder built;
    amqp_basic_properties_t p{};
    p._flags = AMQP_BASIC_MESSAGE_ID_FLAG | AMQP_BASIC_HEADERS_FLAG;
    p.message_id = built.bytes(messageId(taskId));
    const struct
    {
        amqp_flags_t flag;
        const char* name;
        amqp_bytes_t& field;
    } texts[] = {{AMQP_BASIC_CONTENT_TYPE_FLAG, "content_type", p.content_type},
                 {AMQP_BASIC_CONTENT_ENCODING_FLAG, "content_encoding", p.content_encoding},
                 {AMQP_BASIC_CORRELATION_ID_FLAG, "correlation_id", p.correlation_id},
                 {AMQP_BASIC_REPLY_TO_FLAG, "reply_to", p.reply_to},
                 {AMQP_BASIC_TYPE_FLAG, "type", p.type},
                 {AMQP_BASIC_APP_ID_FLAG, "app_id", p.app_id}};
    for (const auto& t : texts) {
        const std::string value = stringOf(properties, t.name);
        if (properties.contains(t.name)) {
            p._flags |= t.flag;
            t.field = built.bytes(value);
        }
    }
    // Persistent unless the original said otherwise: the retry outlives a broker restart.
    p._flags |= AMQP_BASIC_DELIVERY_MODE_FLAG;
    p.delivery_mode = properties.contains("delivery_mode")
                          ? static_cast<uint8_t>(integerOf(properties["delivery_mode"]))
                          : 2;
    if (properties.contains("priority")) {
        p._flags |= AMQP_BASIC_PRIORITY_FLAG;
        p.priority = static_cast<uint8_t>(integerOf(properties["priority"]));
    }
    if (properties.contains("timestamp")) {
        p._flags |= AMQP_BASIC_TIMESTAMP_FLAG;
        p.timestamp = static_cast<uint64_t>(integerOf(properties["timestamp"]));
    }
    json headers = properties.contains("headers") && properties["headers"].is_object()
                       ? properties["headers"]
                       : json::object();
    headers[kRetryDeathsHeader] = deaths;
    p.headers = built.table(headers);
    return amqp_basic_publish(connection.state(), AmqpConnection::kChannel, built.bytes(exchange),
                              built.bytes(routingKey), 1, 0, &p, built.bytes(body));
}

std::string RetryEnvelope::giveUpError() const
{
    return "gave up after " + std::to_string(deaths) + " attempt" + (deaths == 1 ? "" : "s") +
           ": RabbitMQ dead-lettered it from queue '" + queue + "' (reason: " + reason +
           "); original route: " + routeText(exchange, routingKey);
}

} // namespace delayq::amqp
