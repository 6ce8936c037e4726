#pragma once

#include "amqpurl.h"
#include "brokerevents.h"
#include <delayq/delivery.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace delayq::amqp {

// One deliver() call: publishes a claim's tasks on a channel in confirm mode, all in flight
// at once, and reads frames until each has its basic.ack or basic.nack (a basic.return before
// the ack makes it unroutable), the connection is lost, no answer comes in time, or the worker
// is stopped at once. Publishing pauses while the broker has blocked the connection. A task
// whose message cannot be sent (amqpmessage.h, unpublishable()) fails alone, unsent.
class PublishRound
{
public:
    // firstTag: the delivery tag of this round's first publish (tags count from 1 per channel).
    // deadErrors: one error per task: the tasks died and go to the URL's dead_exchange with it
    // (publishTask); such a round does not wait out a blocked connection either, its timeout
    // runs on, so that a dead task's copy never holds the queue up.
    PublishRound(AmqpConnection& connection, BrokerEvents& events, const AmqpUrl& url,
                 const DeliveryOptions& options, const std::vector<ClaimedTask>& tasks,
                 uint64_t firstTag, const std::vector<std::string>* deadErrors = nullptr);

    // One result per task. Afterwards, events.lost is set when the connection must go (lost,
    // timed out, or abandoned with publishes unanswered).
    std::vector<HandlerResult> run();
    // How many publishes went out (the next round's first tag is firstTag + published()).
    uint64_t published() const { return m_published.size(); }

private:
    void publishSome();
    bool publish(size_t index);
    void onFrame(const amqp_frame_t& frame);
    void confirm(uint64_t tag, bool multiple, bool acked);
    void answer(size_t index, bool acked);
    void onReturnHeader(const amqp_frame_t& frame);
    void failRest(const std::string& why);

    AmqpConnection& m_connection;
    BrokerEvents& m_events;
    const AmqpUrl& m_url;
    const DeliveryOptions& m_options;
    const std::vector<ClaimedTask>& m_tasks;
    const uint64_t m_firstTag;
    const std::vector<std::string>* m_deadErrors;
    size_t m_next = 0;               // the next task to publish (or to fail unsent)
    std::vector<size_t> m_published; // by delivery tag - m_firstTag: the task's index
    size_t m_answered = 0;
    std::vector<HandlerResult> m_results;
    std::vector<bool> m_done;
    std::vector<std::string> m_returned; // the return's reason, until its ack comes
    std::unordered_map<std::string, size_t> m_byMessageId;
    // A basic.return's content follows it: its header (with the message_id), then bodies.
    std::string m_returnReason;
    bool m_returnHeaderNext = false;
    uint64_t m_returnBodyLeft = 0;
};

} // namespace delayq::amqp
