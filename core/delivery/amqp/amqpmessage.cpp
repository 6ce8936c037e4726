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

// A task's properties, pointing into the task and into this object (so it must outlive the
// publish or the encode that uses them).
struct Properties
{
    Properties(const std::string& queue, const ClaimedTask& task)
        : messageId(messageIdFor(task.id)), headers{textEntry("x-delayq-queue", queue),
                                                    intEntry("x-delayq-attempt", task.attempts),
                                                    intEntry("x-delayq-due", task.due),
                                                    textEntry("x-delayq-task-id", task.id)}
    {
        props._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG |
                       AMQP_BASIC_MESSAGE_ID_FLAG | AMQP_BASIC_HEADERS_FLAG;
        props.content_type = amqp_cstring_bytes(
            nlohmann::json::accept(task.payload) ? "application/json" : "application/octet-stream");
        props.delivery_mode = AMQP_DELIVERY_PERSISTENT;
        props.message_id = bytesOf(messageId);
        props.headers = amqp_table_t{4, headers};
    }
    Properties(const Properties&) = delete;
    Properties& operator=(const Properties&) = delete;

    std::string messageId;
    amqp_table_entry_t headers[4];
    amqp_basic_properties_t props{};
};

} // namespace

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
                          const ClaimedTask& task)
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
    // of the properties take under 400 bytes. Only a message near the frame is encoded to
    // tell (not every one), and an id over the room needs no buffer of its size.
    if (task.id.size() + queue.size() + kOtherPropertiesMax <= room)
        return {};
    if (task.id.size() < room) {
        Properties p(queue, task);
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
                const ClaimedTask& task)
{
    Properties p(queue, task);
    return amqp_basic_publish(connection.state(), AmqpConnection::kChannel, bytesOf(url.exchange),
                              bytesOf(url.routingKey), 1, 0, &p.props, bytesOf(task.payload));
}

} // namespace delayq::amqp
