#pragma once

#include <delayq/connectionoptions.h>
#include <delayq/delivery.h>

#include <functional>
#include <memory>
#include <string>

namespace delayq::amqp {

// Retries for a RabbitMQ consumer's failures, from the broker's own dead letters
// (docs/targets/amqp-retry.md). A consumer rejects a message without requeue; the broker
// dead-letters it to a queue this loop consumes (`spec`, a --retry-from URL:
// amqp://…/vhost?queue=DLQ[&declare=1][&backoff=5s,20s,30s][&max_attempts=4]); each message
// becomes a task of the delayq queue `queue`, due after the backoff step of its death count,
// and is acked on the broker only once Redis has it. A worker on that queue with
// republisher() as its delivery publishes each due task's message back to its original
// exchange and routing key (confirms, mandatory). At max_attempts deaths the task dies in
// delayq instead, its error naming the broker's reason and the original route.
class RetryLoop
{
public:
    // Parses the spec (throws Error(InvalidArgument) naming what is wrong); connects nothing.
    RetryLoop(const std::string& spec, ConnectionOptions redis, std::string queue,
              std::string prefix = "dq");
    ~RetryLoop(); // stops
    RetryLoop(const RetryLoop&) = delete;
    RetryLoop& operator=(const RetryLoop&) = delete;

    // A line for the operator's log (lost connections, rejections); from the intake thread.
    void setNotice(std::function<void(const std::string&)> notice);
    // Connects once, logs in and checks the dead-letter queue (declare=1: declares it), or
    // throws Error naming the cause.
    void check();
    // The worker's delivery: publishes due tasks back to their original routes.
    DeliveryFactory republisher(const DeliveryOptions& options) const;
    // The intake on a thread of its own: consumes the dead-letter queue until stop(),
    // reconnecting (to the broker, to Redis) after a loss.
    void start();
    void stop();
    // Dead letters acked so far, each a task now (or found to be one already).
    long long taken() const;

    // The URL as it may be printed (the password as ***).
    static std::string printable(const std::string& spec);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace delayq::amqp
