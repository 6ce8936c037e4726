#include "amqpmessage.h"

#include <amqp_framing.h>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>

#include <vector>

namespace delayq::amqp {

namespace {

constexpr size_t kShortStringMax = 255; // AMQP 0-9-1 shortstr: a one-byte length
constexpr size_t kIdPrefixMax = 180;
// A content header frame: 7 bytes of frame header, class id, weight and body size (12), the
// properties, and the frame-end byte. rabbitmq-c encodes it into a buffer of frame_max bytes.
constexpr size_t kHeaderFrameOverhead = 7 + 12 + 1;
// The properties besides the id and the queue: flags, content type, delivery mode, a
// message_id of at most 255 bytes, the header names and their lengths and integers.
constexpr size_t kOtherPropertiesMax = 512;

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

// The error of a dead task's message, cut as nack.lua cuts what it keeps: at most 4096 bytes,
// never in the middle of a UTF-8 character.
std::string errorHeaderText(const std::string& error)
{
    constexpr size_t kMax = 4096;
    if (error.size() <= kMax)
        return error;
    size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(error[cut]) & 0xC0) == 0x80)
        --cut;
    return error.substr(0, cut);
}

// A task's properties (docs/targets/amqp.md, "What a consumer receives"), pointing into the
// task, the URL and this object, so it must outlive the publish or the encode that uses them.
// deadError: the message of a dead task for the dead-letter exchange, with x-delayq-error.
struct Properties
{
    Properties(const AmqpUrl& url, const std::string& queue, const ClaimedTask& task,
               const std::string* deadError)
        : messageId(messageIdFor(task.id))
    {
        const MessageSettings& m = url.message;
        headers.reserve(m.headers.size() + 5);
        if (m.delayqHeaders) {
            headers.push_back(textEntry("x-delayq-queue", queue));
            headers.push_back(intEntry("x-delayq-attempt", task.attempts));
            headers.push_back(intEntry("x-delayq-due", task.due));
            headers.push_back(textEntry("x-delayq-task-id", task.id));
        }
        if (deadError) {
            error = errorHeaderText(*deadError);
            headers.push_back(textEntry("x-delayq-error", error));
        }
        for (const auto& h : m.headers) {
            if (!h.fromTask) {
                headers.push_back(textEntry(h.name.c_str(), h.value));
                continue;
            }
            switch (h.field) {
            case MessageSettings::TaskField::Id:
                headers.push_back(textEntry(h.name.c_str(), task.id));
                break;
            case MessageSettings::TaskField::Attempt:
                headers.push_back(intEntry(h.name.c_str(), task.attempts));
                break;
            case MessageSettings::TaskField::Queue:
                headers.push_back(textEntry(h.name.c_str(), queue));
                break;
            case MessageSettings::TaskField::Due:
                headers.push_back(intEntry(h.name.c_str(), task.due));
                break;
            }
        }
        props._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG |
                       AMQP_BASIC_MESSAGE_ID_FLAG;
        if (m.contentType)
            props.content_type = bytesOf(*m.contentType);
        else
            props.content_type = amqp_cstring_bytes(nlohmann::json::accept(task.payload)
                                                        ? "application/json"
                                                        : "application/octet-stream");
        props.delivery_mode = AMQP_DELIVERY_PERSISTENT;
        props.message_id = bytesOf(messageId);
        if (!headers.empty()) {
            props._flags |= AMQP_BASIC_HEADERS_FLAG;
            props.headers = amqp_table_t{static_cast<int>(headers.size()), headers.data()};
        }
        if (!m.type.empty()) {
            props._flags |= AMQP_BASIC_TYPE_FLAG;
            props.type = bytesOf(m.type);
        }
        if (m.priority) {
            props._flags |= AMQP_BASIC_PRIORITY_FLAG;
            props.priority = static_cast<uint8_t>(*m.priority);
        }
        if (m.expiration) {
            props._flags |= AMQP_BASIC_EXPIRATION_FLAG;
            props.expiration = bytesOf(*m.expiration);
        }
    }
    Properties(const Properties&) = delete;
    Properties& operator=(const Properties&) = delete;

    std::string messageId;
    std::string error;
    std::vector<amqp_table_entry_t> headers;
    amqp_basic_properties_t props{};
};

} // namespace

std::string sha256Hex(const std::string& data)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr);
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 15];
    }
    return out;
}

std::string messageIdFor(const std::string& taskId)
{
    if (taskId.size() <= kShortStringMax)
        return taskId;
    size_t cut = kIdPrefixMax;
    while (cut > 0 && (static_cast<unsigned char>(taskId[cut]) & 0xC0) == 0x80)
        --cut; // taskId[cut] would start the cut-off part in the middle of a character
    return taskId.substr(0, cut) + "~sha256:" + sha256Hex(taskId);
}

std::string unpublishable(AmqpConnection& connection, const AmqpUrl& url, const std::string& queue,
                          const ClaimedTask& task, const std::string* deadError)
{
    if (static_cast<long long>(task.payload.size()) > url.maxMessageSize)
        return "the payload of " + std::to_string(task.payload.size()) +
               " bytes is over the broker's max_message_size of " +
               std::to_string(url.maxMessageSize) + " bytes (max_message_size= in the URL)";
    const int frameMax = amqp_get_frame_max(connection.state());
    const size_t room = frameMax > static_cast<int>(kHeaderFrameOverhead)
                            ? static_cast<size_t>(frameMax) - kHeaderFrameOverhead
                            : 0;
    // The id is in the x-delayq-task-id header whole, the queue in x-delayq-queue; the rest
    // of delayq's properties take under 400 bytes, the URL's add their share (a task header
    // of the id or the queue holds it once more), a dead task's error at most 4096 bytes.
    // Only a message near the frame is encoded to tell (not every one), and an id over the
    // room needs no buffer of its size.
    const MessageSettings& m = url.message;
    const size_t bound = task.id.size() * (1 + m.idHeaders) + queue.size() * (1 + m.queueHeaders) +
                         kOtherPropertiesMax + m.staticSize + (deadError ? 4096 + 20 : 0);
    if (bound <= room)
        return {};
    if (task.id.size() < room) {
        Properties p(url, queue, task, deadError);
        thread_local std::vector<char> scratch;
        scratch.resize(room);
        if (amqp_encode_properties(AMQP_BASIC_CLASS, &p.props,
                                   amqp_bytes_t{scratch.size(), scratch.data()}) >= 0)
            return {};
    }
    return "the id of " + std::to_string(task.id.size()) +
           " bytes does not fit in the message's x-delayq-task-id header: the properties must "
           "fit in one frame of " +
           std::to_string(frameMax) + " bytes (the frame_max agreed with the broker)";
}

int publishTask(AmqpConnection& connection, const AmqpUrl& url, const std::string& queue,
                const ClaimedTask& task, const std::string* deadError)
{
    Properties p(url, queue, task, deadError);
    const std::string& exchange = deadError ? *url.deadExchange : url.exchange;
    const std::string& routingKey =
        deadError && url.deadRoutingKey ? *url.deadRoutingKey : url.routingKey;
    return amqp_basic_publish(connection.state(), AmqpConnection::kChannel, bytesOf(exchange),
                              bytesOf(routingKey), 1, 0, &p.props, bytesOf(task.payload));
}

} // namespace delayq::amqp
