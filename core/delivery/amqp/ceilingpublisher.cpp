#include <delayq/ceilingpublisher.h>

#include "amqp/amqpconnection.h"
#include "amqp/amqpmessage.h"
#include "amqp/amqpurl.h"
#include <delayq/error.h>

#include <algorithm>
#include <vector>

namespace delayq::amqp {

namespace {

void checkReply(AmqpConnection& c, const std::string& doing)
{
    const amqp_rpc_reply_t reply = amqp_get_rpc_reply(c.state());
    if (reply.reply_type != AMQP_RESPONSE_NORMAL)
        throw Error(ErrorCode::Connection,
                    "RabbitMQ refused to " + doing + ": " + replyText(reply));
}

} // namespace

struct CeilingPublisher::State
{
    State(const std::string& spec, std::string q, int w, long long timeout)
        : url(parseAmqpUrl(spec)), queue(std::move(q)), connection(url, timeout), window(w),
          timeoutMs(timeout)
    {}

    const AmqpUrl url;
    const std::string queue;
    AmqpConnection connection;
    const int window;
    const long long timeoutMs;
    uint64_t firstTag = 1;
};

CeilingPublisher::CeilingPublisher(const std::string& spec, std::string queue, int window,
                                   long long timeoutMs)
    : m_state(std::make_unique<State>(spec, std::move(queue), window, timeoutMs))
{
    m_state->connection.confirmSelect();
}

CeilingPublisher::~CeilingPublisher() = default;

long long CeilingPublisher::publish(long long first, long long count,
                                    const std::function<ClaimedTask(long long)>& message)
{
    State& s = *m_state;
    long long nacked = 0;
    for (long long done = 0; done < count;) {
        const long long n = std::min<long long>(s.window, count - done);
        for (long long i = 0; i < n; ++i) {
            const int status = publishTask(s.connection, s.url, s.queue, message(first + done + i));
            if (status != AMQP_STATUS_OK)
                throw Error(ErrorCode::Connection, std::string("publishing to RabbitMQ failed: ") +
                                                       amqp_error_string2(status));
        }
        std::vector<bool> answeredTags(static_cast<size_t>(n), false);
        long long answered = 0;
        const auto mark = [&](uint64_t tag, bool multiple, bool acked) {
            if (tag < s.firstTag || tag >= s.firstTag + static_cast<uint64_t>(n))
                return;
            for (uint64_t t = multiple ? s.firstTag : tag; t <= tag; ++t) {
                if (answeredTags[t - s.firstTag])
                    continue;
                answeredTags[t - s.firstTag] = true;
                ++answered;
                nacked += acked ? 0 : 1;
            }
        };
        while (answered < n) {
            amqp_frame_t frame;
            timeval timeout{static_cast<time_t>(s.timeoutMs / 1000), 0};
            const int status =
                amqp_simple_wait_frame_noblock(s.connection.state(), &frame, &timeout);
            if (status != AMQP_STATUS_OK)
                throw Error(ErrorCode::Connection,
                            std::string("no confirm from RabbitMQ: ") + amqp_error_string2(status));
            if (frame.frame_type != AMQP_FRAME_METHOD)
                continue; // a return's content: the route is ours, so there is none
            const amqp_method_t& m = frame.payload.method;
            if (m.id == AMQP_BASIC_ACK_METHOD) {
                const auto* ack = static_cast<const amqp_basic_ack_t*>(m.decoded);
                mark(ack->delivery_tag, ack->multiple != 0, true);
            } else if (m.id == AMQP_BASIC_NACK_METHOD) {
                const auto* nack = static_cast<const amqp_basic_nack_t*>(m.decoded);
                mark(nack->delivery_tag, nack->multiple != 0, false);
            } else if (m.id == AMQP_CHANNEL_CLOSE_METHOD || m.id == AMQP_CONNECTION_CLOSE_METHOD) {
                throw Error(ErrorCode::Connection,
                            "RabbitMQ closed the channel during the ceiling run");
            }
        }
        s.firstTag += static_cast<uint64_t>(n);
        done += n;
        amqp_maybe_release_buffers(s.connection.state());
    }
    return nacked;
}

void CeilingPublisher::checkUrl(const std::string& spec)
{
    parseAmqpUrl(spec);
}

void CeilingPublisher::changeQueue(const std::string& spec, const std::string& name,
                                   QueueChange change, long long timeoutMs)
{
    AmqpConnection c(parseAmqpUrl(spec), timeoutMs);
    const amqp_bytes_t bytes = amqp_cstring_bytes(name.c_str());
    std::string doing;
    if (change == QueueChange::Declare) {
        // Durable, as a queue that keeps persistent messages is, so a confirm means "on disk";
        // gone an hour after its last use if the bench dies before its cleanup.
        amqp_table_entry_t expires;
        expires.key = amqp_cstring_bytes("x-expires");
        expires.value.kind = AMQP_FIELD_KIND_I32;
        expires.value.value.i32 = 3600000;
        amqp_queue_declare(c.state(), AmqpConnection::kChannel, bytes, 0, 1, 0, 0,
                           amqp_table_t{1, &expires});
        doing = "declare";
    } else if (change == QueueChange::Purge) {
        amqp_queue_purge(c.state(), AmqpConnection::kChannel, bytes);
        doing = "purge";
    } else {
        amqp_queue_delete(c.state(), AmqpConnection::kChannel, bytes, 0, 0);
        doing = "delete";
    }
    checkReply(c, doing + " the bench's queue " + name);
    c.closeCleanly();
}

} // namespace delayq::amqp
