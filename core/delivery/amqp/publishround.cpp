#include "publishround.h"

#include "amqpmessage.h"

#include <chrono>

namespace delayq::amqp {

namespace {

using Clock = std::chrono::steady_clock;

// Publishes go out in chunks with a look at the incoming frames between them, so that a
// connection.blocked stops the rest instead of filling the socket of a broker that no longer
// reads it.
constexpr uint64_t kChunk = 64;
constexpr long long kPollMs = 100; // how often a wait looks at aborted()

} // namespace

PublishRound::PublishRound(AmqpConnection& connection, BrokerEvents& events, const AmqpUrl& url,
                           const DeliveryOptions& options, const std::vector<ClaimedTask>& tasks,
                           uint64_t firstTag, const std::vector<std::string>* deadErrors)
    : m_connection(connection), m_events(events), m_url(url), m_options(options), m_tasks(tasks),
      m_firstTag(firstTag), m_deadErrors(deadErrors), m_results(tasks.size()),
      m_done(tasks.size(), false), m_returned(tasks.size())
{
    m_published.reserve(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i)
        m_byMessageId.emplace(messageIdFor(tasks[i].id), i);
}

std::vector<HandlerResult> PublishRound::run()
{
    const long long timeoutMs = m_options.answerTimeoutMs;
    auto lastProgress = Clock::now();
    while (m_answered < m_tasks.size() && !m_events.lost) {
        if (m_options.aborted && m_options.aborted()) {
            failRest("the worker was stopped at once");
            m_events.lost = "the worker was stopped with publishes unanswered";
            break;
        }
        if (m_events.blocked && !m_deadErrors)
            lastProgress = Clock::now(); // the timeout starts again when it unblocks
        const bool canPublish = m_next < m_tasks.size() && !m_events.blocked;
        if (canPublish) {
            publishSome();
            lastProgress = Clock::now();
        }
        amqp_frame_t frame;
        const size_t answeredBefore = m_answered;
        if (m_events.next(m_connection, frame, canPublish ? 0 : kPollMs))
            onFrame(frame);
        if (m_answered != answeredBefore)
            lastProgress = Clock::now();
        // A blocked broker said it will read on later: no timeout while it is blocked.
        const auto waited = Clock::now() - lastProgress;
        if ((!m_events.blocked || m_deadErrors) && !m_events.lost &&
            waited > std::chrono::milliseconds(timeoutMs)) {
            const std::string why =
                "no confirm from the broker within " + std::to_string(timeoutMs) + " ms";
            failRest(why);
            m_events.lost = why;
        }
    }
    if (m_events.lost)
        failRest(*m_events.lost);
    amqp_maybe_release_buffers(m_connection.state());
    return std::move(m_results);
}

void PublishRound::publishSome()
{
    const size_t end = std::min<size_t>(m_next + kChunk, m_tasks.size());
    while (m_next < end && !m_events.lost) {
        if (!publish(m_next))
            return;
        ++m_next;
    }
}

bool PublishRound::publish(size_t index)
{
    const ClaimedTask& task = m_tasks[index];
    const std::string* deadError = m_deadErrors ? &(*m_deadErrors)[index] : nullptr;
    if (const std::string why =
            unpublishable(m_connection, m_url, m_options.queue, task, deadError);
        !why.empty()) {
        // Nothing of it was sent: it fails alone, its claim-mates and the channel go on.
        m_done[index] = true;
        ++m_answered;
        m_results[index] = HandlerResult::fail(why);
        return true;
    }
    const int status = publishTask(m_connection, m_url, m_options.queue, task, deadError);
    if (status == AMQP_STATUS_OK) {
        m_published.push_back(index);
        return true;
    }
    m_events.lost = std::string("the connection to RabbitMQ broke while publishing: ") +
                    amqp_error_string2(status);
    return false;
}

void PublishRound::onFrame(const amqp_frame_t& frame)
{
    if (m_events.handle(frame, m_connection))
        return;
    if (frame.channel != AmqpConnection::kChannel)
        return;
    if (frame.frame_type == AMQP_FRAME_HEADER && m_returnHeaderNext) {
        onReturnHeader(frame);
        return;
    }
    if (frame.frame_type == AMQP_FRAME_BODY && m_returnBodyLeft > 0) {
        m_returnBodyLeft -= std::min<uint64_t>(m_returnBodyLeft, frame.payload.body_fragment.len);
        return;
    }
    if (frame.frame_type != AMQP_FRAME_METHOD)
        return;
    const amqp_method_t& method = frame.payload.method;
    if (method.id == AMQP_BASIC_ACK_METHOD) {
        const auto* m = static_cast<const amqp_basic_ack_t*>(method.decoded);
        confirm(m->delivery_tag, m->multiple != 0, true);
    } else if (method.id == AMQP_BASIC_NACK_METHOD) {
        const auto* m = static_cast<const amqp_basic_nack_t*>(method.decoded);
        confirm(m->delivery_tag, m->multiple != 0, false);
    } else if (method.id == AMQP_BASIC_RETURN_METHOD) {
        const auto* m = static_cast<const amqp_basic_return_t*>(method.decoded);
        const std::string code = text(m->reply_text) + " " + std::to_string(m->reply_code);
        m_returnReason = m->reply_code == AMQP_NO_ROUTE
                             ? "unroutable: the exchange " + text(m->exchange) +
                                   " has no binding for routing key " + text(m->routing_key) +
                                   " (" + code + ")"
                             : "returned by the broker (" + code + ")";
        m_returnHeaderNext = true;
    }
}

void PublishRound::onReturnHeader(const amqp_frame_t& frame)
{
    // The message_id (messageIdFor the task id) is the link from a return to its publish (a
    // return carries no delivery tag).
    m_returnHeaderNext = false;
    m_returnBodyLeft = frame.payload.properties.body_size;
    const auto* props =
        static_cast<const amqp_basic_properties_t*>(frame.payload.properties.decoded);
    if (!(props->_flags & AMQP_BASIC_MESSAGE_ID_FLAG))
        return;
    const auto found = m_byMessageId.find(text(props->message_id));
    if (found != m_byMessageId.end() && !m_done[found->second])
        m_returned[found->second] = m_returnReason;
}

void PublishRound::confirm(uint64_t tag, bool multiple, bool acked)
{
    if (tag < m_firstTag || tag >= m_firstTag + m_published.size())
        return; // not one of this round's publishes
    const size_t last = tag - m_firstTag;
    for (size_t i = multiple ? 0 : last; i <= last; ++i)
        answer(m_published[i], acked);
}

void PublishRound::answer(size_t index, bool acked)
{
    if (m_done[index])
        return;
    m_done[index] = true;
    ++m_answered;
    if (!m_returned[index].empty())
        m_results[index] = HandlerResult::fail(m_returned[index]);
    else if (!acked)
        m_results[index] = HandlerResult::fail("the broker nacked the message");
    else
        m_results[index] = HandlerResult::ack();
}

void PublishRound::failRest(const std::string& why)
{
    for (size_t i = 0; i < m_tasks.size(); ++i) {
        if (m_done[i])
            continue;
        m_done[i] = true;
        ++m_answered;
        m_results[i] = HandlerResult::fail(m_returned[i].empty() ? why : m_returned[i]);
    }
}

} // namespace delayq::amqp
