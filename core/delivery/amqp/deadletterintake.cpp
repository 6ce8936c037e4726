#include "deadletterintake.h"

#include "amqpconnection.h"
#include "retryenvelope.h"
#include <delayq/error.h>
#include <delayq/queue.h>

#include <chrono>
#include <vector>

namespace delayq::amqp {

namespace {

constexpr long long kIntakeWaitMs = 200; // how often an idle consumer looks at `stop`
constexpr size_t kIntakeBatch = 500;     // dead letters pushed in one pipeline at most

long long wallNowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

DeadLetterIntake::DeadLetterIntake(const RetrySpec& spec, Queue& queue,
                                   std::function<void(const std::string&)> notice,
                                   std::atomic<long long>* taken)
    : m_spec(spec), m_queue(queue), m_notice(std::move(notice)), m_taken(taken)
{}

void DeadLetterIntake::open(AmqpConnection& c)
{
    const amqp_bytes_t name{m_spec.queue.size(), const_cast<char*>(m_spec.queue.data())};
    // passive unless declare=1: a mistyped name is an error, not a new empty queue.
    amqp_queue_declare(c.state(), AmqpConnection::kChannel, name, m_spec.declare ? 0 : 1, 1, 0, 0,
                       amqp_empty_table);
    amqp_rpc_reply_t reply = amqp_get_rpc_reply(c.state());
    if (reply.reply_type != AMQP_RESPONSE_NORMAL) {
        int code = 0;
        const std::string why = replyText(reply, &code);
        if (code == AMQP_NOT_FOUND)
            throw Error(ErrorCode::NotFound, "the dead-letter queue " + m_spec.queue +
                                                 " does not exist in vhost " + m_spec.broker.vhost +
                                                 " (declare=1 in the URL declares it)");
        throw Error(ErrorCode::Connection,
                    "RabbitMQ did not let us use queue " + m_spec.queue + ": " + why);
    }
    amqp_basic_qos(c.state(), AmqpConnection::kChannel, 0, static_cast<uint16_t>(m_spec.prefetch),
                   0);
    reply = amqp_get_rpc_reply(c.state());
    if (reply.reply_type == AMQP_RESPONSE_NORMAL) {
        amqp_basic_consume(c.state(), AmqpConnection::kChannel, name, amqp_empty_bytes, 0, 0, 0,
                           amqp_empty_table);
        reply = amqp_get_rpc_reply(c.state());
    }
    if (reply.reply_type != AMQP_RESPONSE_NORMAL)
        throw Error(ErrorCode::Connection, "RabbitMQ did not let us consume queue " + m_spec.queue +
                                               ": " + replyText(reply));
}

std::string DeadLetterIntake::run(AmqpConnection& c, const std::atomic<bool>& stop)
{
    while (!stop) {
        // A batch: what has arrived, waiting kIntakeWaitMs for the first only.
        std::vector<uint64_t> tags;
        std::vector<PushRequest> requests;
        while (requests.size() < kIntakeBatch) {
            amqp_maybe_release_buffers(c.state());
            amqp_envelope_t message;
            timeval wait{0, requests.empty() ? static_cast<suseconds_t>(kIntakeWaitMs * 1000) : 0};
            const amqp_rpc_reply_t reply = amqp_consume_message(c.state(), &message, &wait, 0);
            if (reply.reply_type == AMQP_RESPONSE_NORMAL) {
                RetryEnvelope e = RetryEnvelope::fromMessage(message);
                PushRequest request;
                request.id = e.taskId();
                if (e.deaths >= m_spec.maxAttempts) {
                    // Due now, to die when the republisher claims it (RetryEnvelope::giveUpDue).
                    e.giveUpDue = wallNowMs();
                    request.dueAtMs = e.giveUpDue;
                } else {
                    request.delayMs = retryDelayMs(m_spec.backoff, e.deaths);
                }
                request.payload = e.toPayload();
                tags.push_back(message.delivery_tag);
                requests.push_back(std::move(request));
                amqp_destroy_envelope(&message);
                continue;
            }
            if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION &&
                reply.library_error == AMQP_STATUS_TIMEOUT)
                break;
            if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION &&
                reply.library_error == AMQP_STATUS_UNEXPECTED_STATE) {
                // A frame that is no delivery: a close ends the connection, others are skipped.
                amqp_frame_t frame;
                if (amqp_simple_wait_frame(c.state(), &frame) != AMQP_STATUS_OK)
                    return "the connection to RabbitMQ broke";
                if (frame.frame_type == AMQP_FRAME_METHOD &&
                    frame.payload.method.id == AMQP_CONNECTION_CLOSE_METHOD) {
                    c.acknowledgeClose();
                    return "the broker closed the connection";
                }
                if (frame.frame_type == AMQP_FRAME_METHOD &&
                    frame.payload.method.id == AMQP_CHANNEL_CLOSE_METHOD)
                    return "the broker closed the channel";
                continue;
            }
            return "the connection to RabbitMQ broke: " + replyText(reply);
        }
        if (requests.empty())
            continue;
        std::vector<PushResult> results;
        try {
            // nx: a duplicate dead letter (the same message_id and death count) finds its task.
            results = m_queue.pushBatch(requests);
        } catch (const Error& e) {
            // Nothing acked: the messages go back to the queue with the connection.
            return std::string("could not push to Redis: ") + e.what();
        }
        for (size_t i = 0; i < results.size(); ++i) {
            if (results[i].status == PushResult::Status::TooLarge) {
                // It cannot be a task: rejected, it goes where the dead-letter queue's own
                // dead-letter settings send it (nowhere when it has none).
                if (m_notice)
                    m_notice("the dead letter " + requests[i].id +
                             " is over the queue's max_payload: rejected from " + m_spec.queue);
                amqp_basic_reject(c.state(), AmqpConnection::kChannel, tags[i], 0);
                continue;
            }
            amqp_basic_ack(c.state(), AmqpConnection::kChannel, tags[i], 0);
            if (m_taken)
                ++*m_taken;
        }
    }
    return "";
}

} // namespace delayq::amqp
