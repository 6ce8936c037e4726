#pragma once

#include "amqpconnection.h"
#include "amqpurl.h"
#include "brokerevents.h"
#include <delayq/delivery.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>

namespace delayq::amqp {

// The RabbitMQ target of one worker thread (docs/targets/amqp.md): its own connection and
// channel in confirm mode, made on the first deliver() and again on the first call after a
// loss. A claim's tasks are published together and each is acked in Redis only on the
// broker's basic.ack for it.
class AmqpDelivery final : public Delivery
{
public:
    // thread: the worker thread's index, for the connection's name. deadUnsent: how many dead
    // tasks the worker's threads could not publish to the URL's dead_exchange, shared by them.
    AmqpDelivery(AmqpUrl url, DeliveryOptions options, int thread,
                 std::shared_ptr<std::atomic<long long>> deadUnsent = {});
    ~AmqpDelivery() override;

    std::vector<HandlerResult> deliver(const std::vector<ClaimedTask>& tasks) override;
    // True while the broker has blocked the connection (a resource alarm), and while it cannot
    // be reached after a loss, so that the worker claims nothing it could not hand on.
    bool blocked() override;
    // With dead_exchange= in the URL: publishes the dead task there, confirmed, with its error
    // in x-delayq-error. A failure is logged and counted, never retried: the task is in
    // delayq's dead set either way.
    void died(const ClaimedTask& task, const std::string& error) override;

private:
    // The connection, made now if there is none; nullptr with the reason in *why.
    AmqpConnection* connection(std::string* why);
    void drop(const std::string& why);
    void notice(const std::string& line) const;
    // Runs one round of publishes on the connection (counting its tags); drops the connection
    // after it when it was lost.
    std::vector<HandlerResult> publish(AmqpConnection& connection,
                                       const std::vector<ClaimedTask>& tasks,
                                       const std::vector<std::string>* deadErrors);

    AmqpUrl m_url;
    DeliveryOptions m_options;
    std::string m_connectionName; // "delayq NAME#THREAD", as the broker lists it
    std::unique_ptr<AmqpConnection> m_connection;
    BrokerEvents m_events;
    uint64_t m_nextTag = 1;
    bool m_lost = false;        // a connection was lost and not made again yet
    bool m_unreachable = false; // the last attempt to connect failed
    std::chrono::steady_clock::time_point m_nextAttempt{};
    std::shared_ptr<std::atomic<long long>> m_deadUnsent;
};

} // namespace delayq::amqp
