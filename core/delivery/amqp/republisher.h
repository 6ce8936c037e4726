#pragma once

#include "amqpconnection.h"
#include "brokerevents.h"
#include "retryenvelope.h"
#include "retryspec.h"
#include <delayq/delivery.h>

#include <chrono>
#include <memory>
#include <unordered_map>

namespace delayq::amqp {

// The publishing half of the retry loop (docs/targets/amqp-retry.md), the delivery of the
// worker on the delayq queue: each due task's message goes back to its original exchange and
// routing key, mandatory, on a channel in confirm mode, and the task is acked only on the
// broker's basic.ack (a return or a nack fails it, retried on the queue's backoff). A task that
// gives up dies with the broker's reason and its route. One per worker thread.
class Republisher final : public Delivery
{
public:
    Republisher(RetrySpec spec, DeliveryOptions options, int thread);
    ~Republisher() override;

    std::vector<HandlerResult> deliver(const std::vector<ClaimedTask>& tasks) override;
    // While the broker blocks us or cannot be reached: the worker claims nothing meanwhile.
    bool blocked() override;

private:
    AmqpConnection* connection(std::string* why);
    // Publishes the tasks marked in `send` and waits for their confirms.
    void publishAll(AmqpConnection& c, const std::vector<ClaimedTask>& tasks,
                    const std::vector<RetryEnvelope>& envelopes, std::vector<bool>& send,
                    std::vector<HandlerResult>& results);
    void drop(const std::string& why);

    RetrySpec m_spec;
    DeliveryOptions m_options;
    std::string m_name;
    std::unique_ptr<AmqpConnection> m_connection;
    BrokerEvents m_events;
    uint64_t m_nextTag = 1;
    bool m_down = false; // the last connect failed or the connection was lost
    std::chrono::steady_clock::time_point m_nextAttempt{};
};

} // namespace delayq::amqp
