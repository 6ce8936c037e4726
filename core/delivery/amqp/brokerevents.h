#pragma once

#include "amqpconnection.h"

#include <functional>
#include <optional>
#include <string>

namespace delayq::amqp {

// What the broker says about the connection as a whole, read between confirms: the flow
// control of its resource alarms (connection.blocked / unblocked) and the closes that end
// the connection or the channel.
struct BrokerEvents
{
    bool blocked = false;
    std::optional<std::string> lost; // why the connection or channel is gone, once it is
    std::function<void(const std::string&)> notice;

    // True when the frame was one of these (and has been dealt with).
    bool handle(const amqp_frame_t& frame, AmqpConnection& connection);
    // Waits up to timeoutMs (0: only what has arrived) for a frame; false on a timeout. A
    // broken socket sets `lost` and returns false.
    bool next(AmqpConnection& connection, amqp_frame_t& frame, long long timeoutMs);
};

} // namespace delayq::amqp
