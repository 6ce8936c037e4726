#pragma once

#include "amqpconnection.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace delayq::amqp {

// A dead-lettered message as a delayq task of the retry loop (docs/targets/amqp-retry.md): the
// task's payload is this, as JSON an operator reads in `delayq ls` and the app, and the
// republisher sends back. The body stays the original bytes ("body" when it is UTF-8, else
// "body_base64"); the properties keep what a consumer may rely on (message_id, content_type,
// headers, …) without the broker's own x-death / x-first-death-* / x-last-death-* headers.
struct RetryEnvelope
{
    std::string exchange;   // where it goes back: x-death's exchange
    std::string routingKey; // and its first routing key
    std::string queue;      // the queue whose consumer rejected it (x-death's queue)
    std::string reason;     // x-death's reason: rejected, expired, maxlen, delivery_limit
    int deaths = 1;         // the deaths so far, this one included
    // Set on the task that gives up: it dies when claimed with exactly this due time (one an
    // operator requeued or rescheduled has another due time, and is published again).
    std::optional<long long> giveUpDue;
    nlohmann::json properties = nlohmann::json::object();
    std::string body;

    // From a message consumed off the dead-letter queue.
    static RetryEnvelope fromMessage(const amqp_envelope_t& message);
    std::string toPayload() const;
    // nullopt (the cause in *why) for a payload the retry loop did not write.
    static std::optional<RetryEnvelope> fromPayload(const std::string& payload, std::string* why);

    // The task id: the same for the same message dead-lettered the same time, so that a
    // duplicate dead letter makes one task: "dlq:DEATHS:MESSAGE_ID", or with a message_id
    // that is long or not printable "dlq:DEATHS:sha256:HEX", or without a message_id
    // "dlq:DEATHS:body-sha256:HEX" (of the exchange, routing key and body).
    std::string taskId() const;
    // The message_id it goes back with: its own, or the task id when it had none (a return of
    // the mandatory publish is matched to its task by it).
    std::string messageId(const std::string& taskId) const;
    // Publishes it to its exchange and routing key: mandatory, with its properties, the
    // header x-delayq-deaths = deaths (so the next death is counted from it), message_id as
    // above. Returns amqp_basic_publish's status.
    int publish(AmqpConnection& connection, const std::string& taskId) const;
    // What the dead task says: the give-up, the broker's reason and the original route.
    std::string giveUpError() const;
};

} // namespace delayq::amqp
