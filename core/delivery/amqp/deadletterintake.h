#pragma once

#include "retryspec.h"

#include <atomic>
#include <functional>
#include <string>

namespace delayq {
class Queue;
}

namespace delayq::amqp {

class AmqpConnection;

// The consuming half of the retry loop (docs/targets/amqp-retry.md): takes the messages off
// the dead-letter queue, pushes each as a task of the delayq queue (due after the backoff of
// its death count, or due now to give up), and acks them only once Redis has them. One
// connection's life per run(): it returns when the connection or Redis fails, or on stop.
class DeadLetterIntake
{
public:
    // taken: counts the dead letters acked (each a task now, or found to be one already).
    DeadLetterIntake(const RetrySpec& spec, Queue& queue,
                     std::function<void(const std::string&)> notice,
                     std::atomic<long long>* taken = nullptr);

    // Connects, logs in, checks (declare=1: declares) the queue; throws Error naming the cause.
    void open(AmqpConnection& connection);
    // Consumes until `stop` is set, the broker connection is lost or a push to Redis fails;
    // returns why (empty on stop). Unacked messages go back to the queue with the connection.
    std::string run(AmqpConnection& connection, const std::atomic<bool>& stop);

private:
    const RetrySpec& m_spec;
    Queue& m_queue;
    std::function<void(const std::string&)> m_notice;
    std::atomic<long long>* m_taken;
};

} // namespace delayq::amqp
