#include "brokerevents.h"

namespace delayq::amqp {

namespace {

std::string closeText(const std::string& what, amqp_bytes_t replyText, int code)
{
    return "the broker closed the " + what + ": " + text(replyText) + " (" + std::to_string(code) +
           ")";
}

} // namespace

bool BrokerEvents::next(AmqpConnection& connection, amqp_frame_t& frame, long long timeoutMs)
{
    timeval tv{static_cast<time_t>(timeoutMs / 1000),
               static_cast<suseconds_t>(timeoutMs % 1000 * 1000)};
    const int status = amqp_simple_wait_frame_noblock(connection.state(), &frame, &tv);
    if (status == AMQP_STATUS_OK)
        return true;
    if (status != AMQP_STATUS_TIMEOUT)
        lost = std::string("the connection to RabbitMQ broke: ") + amqp_error_string2(status);
    return false;
}

bool BrokerEvents::handle(const amqp_frame_t& frame, AmqpConnection& connection)
{
    if (frame.frame_type != AMQP_FRAME_METHOD)
        return false;
    switch (frame.payload.method.id) {
    case AMQP_CONNECTION_BLOCKED_METHOD: {
        const auto* m = static_cast<const amqp_connection_blocked_t*>(frame.payload.method.decoded);
        blocked = true;
        if (notice)
            notice("RabbitMQ blocked the connection (" + text(m->reason) +
                   "): claims are held until it unblocks");
        return true;
    }
    case AMQP_CONNECTION_UNBLOCKED_METHOD:
        blocked = false;
        if (notice)
            notice("RabbitMQ unblocked the connection: claiming again");
        return true;
    case AMQP_CONNECTION_CLOSE_METHOD: {
        const auto* m = static_cast<const amqp_connection_close_t*>(frame.payload.method.decoded);
        lost = closeText("connection", m->reply_text, m->reply_code);
        connection.acknowledgeClose();
        return true;
    }
    case AMQP_CHANNEL_CLOSE_METHOD: {
        const auto* m = static_cast<const amqp_channel_close_t*>(frame.payload.method.decoded);
        lost = closeText("channel", m->reply_text, m->reply_code);
        return true;
    }
    default:
        return false;
    }
}

} // namespace delayq::amqp
