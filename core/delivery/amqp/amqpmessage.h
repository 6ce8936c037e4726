#pragma once

#include "amqpconnection.h"
#include "amqpurl.h"
#include <delayq/task.h>

#include <string>

namespace delayq::amqp {

// Publishes the message a task becomes (docs/targets/amqp.md, "What a consumer receives") on
// the connection's channel: mandatory, persistent, message_id = the task id, the content type
// from the payload and the x-delayq-* headers. Returns amqp_basic_publish's status. One
// definition for the target and for the bench's ceiling publisher, so both send the same bytes.
int publishTask(AmqpConnection& connection, const AmqpUrl& url, const std::string& queue,
                const ClaimedTask& task);

} // namespace delayq::amqp
