#include <delayq/retryloop.h>

#include "amqpconnection.h"
#include "deadletterintake.h"
#include "republisher.h"
#include "retryspec.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace delayq::amqp {

namespace {

constexpr long long kIntakeTimeoutMs = 10000;
constexpr auto kIntakeRetryEvery = std::chrono::milliseconds(500);

} // namespace

struct RetryLoop::State
{
    RetrySpec spec;
    ConnectionOptions redis;
    std::string queue;
    std::string prefix;
    std::function<void(const std::string&)> notice;
    std::atomic<bool> stop{false};
    std::atomic<long long> taken{0};
    std::thread thread;

    void say(const std::string& line) const
    {
        if (notice)
            notice(line);
    }

    // One broker connection's and one Redis connection's life at a time, again after either
    // fails: what was not acked goes back to the dead-letter queue with the connection.
    void loop()
    {
        bool down = false;
        while (!stop) {
            std::string why;
            try {
                Connection connection(redis);
                Queue target(connection, queue, prefix);
                AmqpConnection broker(spec.broker, kIntakeTimeoutMs,
                                      "delayq retry-from " + spec.queue);
                DeadLetterIntake intake(spec, target, notice, &taken);
                intake.open(broker);
                if (down)
                    say("consuming dead letters from " + spec.queue + " again");
                down = false;
                why = intake.run(broker, stop);
                if (why.empty())
                    broker.closeCleanly();
            } catch (const Error& e) {
                why = e.what();
            }
            if (stop)
                break;
            if (!down)
                say("dead letters from " + spec.queue + " paused: " + why +
                    " (unacked ones stay in the queue); trying again");
            down = true;
            std::this_thread::sleep_for(kIntakeRetryEvery);
        }
    }
};

RetryLoop::RetryLoop(const std::string& spec, ConnectionOptions redis, std::string queue,
                     std::string prefix)
    : m_state(std::make_unique<State>())
{
    m_state->spec = parseRetrySpec(spec);
    m_state->redis = std::move(redis);
    m_state->queue = std::move(queue);
    m_state->prefix = std::move(prefix);
}

RetryLoop::~RetryLoop()
{
    stop();
}

void RetryLoop::setNotice(std::function<void(const std::string&)> notice)
{
    m_state->notice = std::move(notice);
}

void RetryLoop::check()
{
    AmqpConnection broker(m_state->spec.broker, kIntakeTimeoutMs, "delayq check");
    Connection connection(m_state->redis);
    Queue target(connection, m_state->queue, m_state->prefix);
    DeadLetterIntake(m_state->spec, target, nullptr).open(broker);
    broker.closeCleanly();
}

DeliveryFactory RetryLoop::republisher(const DeliveryOptions& options) const
{
    const RetrySpec spec = m_state->spec;
    return [spec, options](int thread) {
        return std::make_unique<Republisher>(spec, options, thread);
    };
}

void RetryLoop::start()
{
    if (m_state->thread.joinable())
        return;
    m_state->stop = false;
    m_state->thread = std::thread([state = m_state.get()] { state->loop(); });
}

void RetryLoop::stop()
{
    m_state->stop = true;
    if (m_state->thread.joinable())
        m_state->thread.join();
}

long long RetryLoop::taken() const
{
    return m_state->taken;
}

std::string RetryLoop::printable(const std::string& spec)
{
    return printableAmqpUrl(spec);
}

} // namespace delayq::amqp
