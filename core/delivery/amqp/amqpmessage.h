#pragma once

#include "amqpconnection.h"
#include "amqpurl.h"
#include <delayq/task.h>

#include <string>

namespace delayq::amqp {

// The message_id of a task's message (docs/targets/amqp.md, "Long ids"). An AMQP short string
// holds at most 255 bytes, while a task id may have 256 and a plain member any length: an id
// of up to 255 bytes is its own message_id; a longer one becomes its first bytes (at most 180,
// cut before a UTF-8 continuation byte) + "~sha256:" + the 64 lower-case hex digits of the
// SHA-256 of the whole id. At most 252 bytes, the same for the same id on every attempt, so
// that consumers still drop duplicates by it; the whole id is in x-delayq-task-id.
std::string messageIdFor(const std::string& taskId);

// The 64 lower-case hex digits of the SHA-256 of data (OpenSSL).
std::string sha256Hex(const std::string& data);

// Why the task's message cannot be published on this connection, "" when it can: a payload
// over the URL's max_message_size (the broker would close the channel, taking every
// unconfirmed publish of the claim with it), or properties that do not fit in one frame of the
// frame_max agreed with the broker (rabbitmq-c sends basic.publish before it encodes the
// content header, so a header it cannot encode leaves the channel mid-message and breaks the
// connection). Checked before anything of the task is sent, so that it fails alone.
// deadError: as for publishTask.
std::string unpublishable(AmqpConnection& connection, const AmqpUrl& url, const std::string& queue,
                          const ClaimedTask& task, const std::string* deadError = nullptr);

// Publishes the message a task becomes (docs/targets/amqp.md, "What a consumer receives") on
// the connection's channel: mandatory, persistent, message_id = messageIdFor(the task id), the
// content type from the payload (or content_type=), the x-delayq-* headers and the URL's
// message properties. Returns amqp_basic_publish's status. One definition for the target and
// for the bench's ceiling publisher, so both send the same bytes. Call unpublishable() first
// for tasks that may not fit. With deadError, the message of a task that died, to the URL's
// dead_exchange and dead_routing_key (else its routing_key), with x-delayq-error = *deadError
// (cut to 4096 bytes).
int publishTask(AmqpConnection& connection, const AmqpUrl& url, const std::string& queue,
                const ClaimedTask& task, const std::string* deadError = nullptr);

} // namespace delayq::amqp
