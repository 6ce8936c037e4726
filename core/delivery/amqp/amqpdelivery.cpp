#include "amqpdelivery.h"

#include "publishround.h"
#include <delayq/error.h>

#include <algorithm>

namespace delayq::amqp {

namespace {

using Clock = std::chrono::steady_clock;

// While the broker cannot be reached, blocked() tries again this often (and holds claims
// meanwhile), instead of failing every task it would claim and spending its attempts.
constexpr std::chrono::milliseconds kRetryEvery{500};

long long connectTimeoutMs(const DeliveryOptions& options)
{
    return std::clamp(options.answerTimeoutMs, 1000LL, 30000LL);
}

} // namespace

AmqpDelivery::AmqpDelivery(AmqpUrl url, DeliveryOptions options, int thread,
                           std::shared_ptr<std::atomic<long long>> deadUnsent)
    : m_url(std::move(url)), m_options(std::move(options)),
      m_connectionName(
          "delayq " +
          (m_options.workerName.empty() ? "queue " + m_options.queue : m_options.workerName) + "#" +
          std::to_string(thread)),
      m_deadUnsent(deadUnsent ? std::move(deadUnsent) : std::make_shared<std::atomic<long long>>(0))
{
    m_events.notice = m_options.notice;
}

AmqpDelivery::~AmqpDelivery()
{
    // A blocked broker reads nothing, not even connection.close: just drop the socket then.
    if (m_connection && !m_events.blocked)
        m_connection->closeCleanly();
}

void AmqpDelivery::notice(const std::string& line) const
{
    if (m_options.notice)
        m_options.notice(line);
}

AmqpConnection* AmqpDelivery::connection(std::string* why)
{
    if (m_connection)
        return m_connection.get();
    try {
        auto made =
            std::make_unique<AmqpConnection>(m_url, connectTimeoutMs(m_options), m_connectionName);
        made->confirmSelect();
        m_connection = std::move(made);
    } catch (const Error& e) {
        if (!m_unreachable)
            notice(std::string(e.what()) + ": claims are held until RabbitMQ answers");
        m_unreachable = true;
        m_nextAttempt = Clock::now() + kRetryEvery;
        *why = e.what();
        return nullptr;
    }
    if (m_lost || m_unreachable)
        notice("reconnected to RabbitMQ at " + m_connection->where());
    m_lost = m_unreachable = false;
    m_events.blocked = false;
    m_events.lost.reset();
    m_nextTag = 1; // a new channel counts its delivery tags from 1
    return m_connection.get();
}

void AmqpDelivery::drop(const std::string& why)
{
    // A lost, timed-out or abandoned channel cannot be trusted to count its tags on: the next
    // deliver() starts a new connection.
    notice("lost the connection to RabbitMQ at " + m_connection->where() + " (" + why +
           "): reconnecting");
    m_connection.reset();
    m_lost = true;
    m_events.blocked = false;
}

std::vector<HandlerResult> AmqpDelivery::deliver(const std::vector<ClaimedTask>& tasks)
{
    std::string why;
    AmqpConnection* connection = this->connection(&why);
    if (!connection)
        return std::vector<HandlerResult>(tasks.size(), HandlerResult::fail(why));
    return publish(*connection, tasks, nullptr);
}

std::vector<HandlerResult> AmqpDelivery::publish(AmqpConnection& connection,
                                                 const std::vector<ClaimedTask>& tasks,
                                                 const std::vector<std::string>* deadErrors)
{
    PublishRound round(connection, m_events, m_url, m_options, tasks, m_nextTag, deadErrors);
    std::vector<HandlerResult> results = round.run();
    m_nextTag += round.published();
    if (m_options.aborted && m_options.aborted())
        m_connection.reset(); // stopping: no reconnect to announce
    else if (m_events.lost)
        drop(*m_events.lost);
    return results;
}

void AmqpDelivery::died(const ClaimedTask& task, const std::string& error)
{
    if (!m_url.deadExchange)
        return;
    // Never a wait for the broker: after a loss or a refused connect (the task most likely
    // died of it), while it blocks publishers, or once the worker is stopped at once, the
    // copy is not sent. Else one confirmed publish, bounded by the answer timeout.
    std::string why;
    AmqpConnection* connection = nullptr;
    if (m_options.aborted && m_options.aborted())
        why = "the worker was stopped at once";
    else if (!m_connection && (m_lost || m_unreachable))
        why = "RabbitMQ cannot be reached";
    else if (m_events.blocked)
        why = "RabbitMQ has blocked the connection";
    else
        connection = this->connection(&why);
    if (connection) {
        const std::vector<std::string> errors{error};
        const HandlerResult result = publish(*connection, {task}, &errors).front();
        if (result.kind == HandlerResult::Kind::Ack)
            return;
        why = result.error;
    }
    const long long unsent = ++*m_deadUnsent;
    notice("dead task " + task.id + " was not published to the dead-letter exchange " +
           (m_url.deadExchange->empty() ? "(the default exchange)" : *m_url.deadExchange) + ": " +
           why + "; it is in delayq's dead set (" + std::to_string(unsent) +
           (unsent == 1 ? " dead task" : " dead tasks") + " not published there so far)");
}

bool AmqpDelivery::blocked()
{
    if (!m_connection) {
        // Not connected yet: deliver() connects. After a loss or a refused connect, hold the
        // claims until the broker answers again (tried every kRetryEvery).
        if (!m_lost && !m_unreachable)
            return false;
        if (Clock::now() < m_nextAttempt)
            return true;
        std::string why;
        return connection(&why) == nullptr;
    }
    // Only what has already arrived: connection.blocked / unblocked, or a close.
    amqp_frame_t frame;
    while (!m_events.lost && m_events.next(*m_connection, frame, 0))
        m_events.handle(frame, *m_connection);
    if (m_events.lost) {
        drop(*m_events.lost);
        m_nextAttempt = Clock::now();
        return blocked();
    }
    amqp_maybe_release_buffers(m_connection->state());
    return m_events.blocked;
}

} // namespace delayq::amqp
