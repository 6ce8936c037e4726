#include "republisher.h"

#include <delayq/error.h>

#include <algorithm>

namespace delayq::amqp {

namespace {

using RepublishClock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kRepublishRetryEvery{500};
constexpr long long kRepublishPollMs = 100;

} // namespace

Republisher::Republisher(RetrySpec spec, DeliveryOptions options, int thread)
    : m_spec(std::move(spec)), m_options(std::move(options)),
      m_name("delayq retry " +
             (m_options.workerName.empty() ? m_options.queue : m_options.workerName) + "#" +
             std::to_string(thread))
{
    m_events.notice = m_options.notice;
}

Republisher::~Republisher()
{
    if (m_connection && !m_events.blocked)
        m_connection->closeCleanly();
}

AmqpConnection* Republisher::connection(std::string* why)
{
    if (m_connection)
        return m_connection.get();
    try {
        auto made = std::make_unique<AmqpConnection>(
            m_spec.broker, std::clamp(m_options.answerTimeoutMs, 1000LL, 30000LL), m_name);
        made->confirmSelect();
        m_connection = std::move(made);
    } catch (const Error& e) {
        if (!m_down && m_options.notice)
            m_options.notice(std::string(e.what()) + ": claims are held until RabbitMQ answers");
        m_down = true;
        m_nextAttempt = RepublishClock::now() + kRepublishRetryEvery;
        *why = e.what();
        return nullptr;
    }
    if (m_down && m_options.notice)
        m_options.notice("reconnected to RabbitMQ at " + m_connection->where());
    m_down = false;
    m_events = BrokerEvents{};
    m_events.notice = m_options.notice;
    m_nextTag = 1;
    return m_connection.get();
}

void Republisher::drop(const std::string& why)
{
    if (m_options.notice)
        m_options.notice("lost the connection to RabbitMQ at " + m_connection->where() + " (" +
                         why + "): reconnecting");
    m_connection.reset();
    m_down = true;
    m_nextAttempt = RepublishClock::now();
}

std::vector<HandlerResult> Republisher::deliver(const std::vector<ClaimedTask>& tasks)
{
    std::vector<HandlerResult> results(tasks.size());
    std::vector<RetryEnvelope> envelopes(tasks.size());
    std::vector<bool> send(tasks.size(), false);
    for (size_t i = 0; i < tasks.size(); ++i) {
        std::string why;
        auto e = RetryEnvelope::fromPayload(tasks[i].payload, &why);
        if (!e)
            results[i] = HandlerResult::dead(why); // retrying cannot make it one
        else if (e->giveUpDue && *e->giveUpDue == tasks[i].due)
            results[i] = HandlerResult::dead(e->giveUpError());
        else
            send[i] = true;
        if (e)
            envelopes[i] = std::move(*e);
    }
    if (std::find(send.begin(), send.end(), true) == send.end())
        return results;
    std::string why;
    AmqpConnection* c = connection(&why);
    if (!c) {
        for (size_t i = 0; i < tasks.size(); ++i)
            if (send[i])
                results[i] = HandlerResult::fail(why);
        return results;
    }
    publishAll(*c, tasks, envelopes, send, results);
    if (m_options.aborted && m_options.aborted())
        m_connection.reset();
    else if (m_events.lost)
        drop(*m_events.lost);
    return results;
}

void Republisher::publishAll(AmqpConnection& c, const std::vector<ClaimedTask>& tasks,
                             const std::vector<RetryEnvelope>& envelopes, std::vector<bool>& send,
                             std::vector<HandlerResult>& results)
{
    // send[i] stays true while task i waits for its confirm.
    std::vector<size_t> byTag; // delivery tag - first tag: the task's index
    std::unordered_map<std::string, size_t> byMessageId;
    std::vector<std::string> returned(tasks.size());
    const uint64_t firstTag = m_nextTag;
    size_t waiting = 0;
    for (size_t i = 0; i < tasks.size() && !m_events.lost; ++i) {
        if (!send[i])
            continue;
        if (static_cast<long long>(envelopes[i].body.size()) > m_spec.broker.maxMessageSize) {
            results[i] = HandlerResult::fail(
                "the body of " + std::to_string(envelopes[i].body.size()) +
                " bytes is over the broker's max_message_size of " +
                std::to_string(m_spec.broker.maxMessageSize) + " bytes (max_message_size=)");
            send[i] = false;
            continue;
        }
        const int status = envelopes[i].publish(c, tasks[i].id);
        if (status != AMQP_STATUS_OK) {
            m_events.lost = std::string("the connection to RabbitMQ broke while publishing: ") +
                            amqp_error_string2(status);
            break;
        }
        byTag.push_back(i);
        byMessageId.emplace(envelopes[i].messageId(tasks[i].id), i);
        ++waiting;
    }
    m_nextTag += byTag.size();
    auto answer = [&](size_t i, bool acked) {
        if (!send[i])
            return;
        send[i] = false;
        --waiting;
        results[i] = !returned[i].empty() ? HandlerResult::fail(returned[i])
                     : acked              ? HandlerResult::ack()
                                          : HandlerResult::fail("the broker nacked the message");
    };
    std::string returnReason;
    bool returnHeaderNext = false;
    auto lastProgress = RepublishClock::now();
    while (waiting > 0 && !m_events.lost) {
        if (m_options.aborted && m_options.aborted()) {
            m_events.lost = "the worker was stopped at once";
            break;
        }
        amqp_frame_t frame;
        if (!m_events.next(c, frame, kRepublishPollMs)) {
            if (!m_events.blocked && RepublishClock::now() - lastProgress >
                                         std::chrono::milliseconds(m_options.answerTimeoutMs))
                m_events.lost = "no confirm from the broker within " +
                                std::to_string(m_options.answerTimeoutMs) + " ms";
            continue;
        }
        if (m_events.handle(frame, c) || frame.channel != AmqpConnection::kChannel)
            continue;
        if (frame.frame_type == AMQP_FRAME_HEADER && returnHeaderNext) {
            // A return carries no delivery tag: its message_id names the task.
            returnHeaderNext = false;
            const auto* p =
                static_cast<const amqp_basic_properties_t*>(frame.payload.properties.decoded);
            if (p->_flags & AMQP_BASIC_MESSAGE_ID_FLAG)
                if (const auto found = byMessageId.find(text(p->message_id));
                    found != byMessageId.end())
                    returned[found->second] = returnReason;
            continue;
        }
        if (frame.frame_type != AMQP_FRAME_METHOD)
            continue; // a returned body
        const amqp_method_t& m = frame.payload.method;
        if (m.id == AMQP_BASIC_ACK_METHOD || m.id == AMQP_BASIC_NACK_METHOD) {
            const bool acked = m.id == AMQP_BASIC_ACK_METHOD;
            const uint64_t tag = acked ? static_cast<amqp_basic_ack_t*>(m.decoded)->delivery_tag
                                       : static_cast<amqp_basic_nack_t*>(m.decoded)->delivery_tag;
            const bool multiple = acked ? static_cast<amqp_basic_ack_t*>(m.decoded)->multiple
                                        : static_cast<amqp_basic_nack_t*>(m.decoded)->multiple;
            if (tag < firstTag || tag >= firstTag + byTag.size())
                continue;
            for (size_t t = multiple ? 0 : tag - firstTag; t <= tag - firstTag; ++t)
                answer(byTag[t], acked);
            lastProgress = RepublishClock::now();
        } else if (m.id == AMQP_BASIC_RETURN_METHOD) {
            const auto* r = static_cast<const amqp_basic_return_t*>(m.decoded);
            returnReason = "unroutable: the exchange '" + text(r->exchange) +
                           "' has no binding for routing key '" + text(r->routing_key) + "' (" +
                           text(r->reply_text) + " " + std::to_string(r->reply_code) + ")";
            returnHeaderNext = true;
        }
    }
    for (size_t i = 0; i < tasks.size(); ++i)
        if (send[i]) {
            send[i] = false;
            results[i] = HandlerResult::fail(m_events.lost ? *m_events.lost : "no confirm");
        }
    amqp_maybe_release_buffers(c.state());
}

bool Republisher::blocked()
{
    if (!m_connection) {
        // Connected before the first claim too, so the first retry is not late by a login.
        if (m_down && RepublishClock::now() < m_nextAttempt)
            return true;
        std::string why;
        return connection(&why) == nullptr;
    }
    amqp_frame_t frame;
    while (!m_events.lost && m_events.next(*m_connection, frame, 0))
        m_events.handle(frame, *m_connection);
    if (m_events.lost) {
        drop(*m_events.lost);
        return blocked();
    }
    amqp_maybe_release_buffers(m_connection->state());
    return m_events.blocked;
}

} // namespace delayq::amqp
