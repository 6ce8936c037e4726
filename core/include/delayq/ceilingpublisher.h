#pragma once

#include <delayq/task.h>

#include <functional>
#include <memory>
#include <string>

namespace delayq::amqp {

// The amqp:// target's own connection and messages driven with nothing of delayq in between:
// the broker's ceiling that `delayq bench --amqp` sets delayq's deliveries against. Public so
// the bench reaches the target's connect, login, confirm mode and message (same body,
// properties and headers) without its private headers. Not thread-safe: one per thread.
class CeilingPublisher
{
public:
    // What the bench does to its broker queue around the runs.
    enum class QueueChange
    {
        Declare,
        Purge,
        Delete
    };

    // `spec` is an amqp:// URL as the target takes it; `queue` the delayq queue named in the
    // messages' headers. Connects, logs in and puts the channel in confirm mode, or throws
    // Error naming the cause.
    CeilingPublisher(const std::string& spec, std::string queue, int window, long long timeoutMs);
    ~CeilingPublisher();
    CeilingPublisher(const CeilingPublisher&) = delete;
    CeilingPublisher& operator=(const CeilingPublisher&) = delete;

    // Publishes `count` messages, message(first) … message(first + count - 1), in rounds of
    // `window`: each round published at once, then waited for until every publish has its
    // confirm. Returns how many the broker nacked; throws Error when the connection fails.
    long long publish(long long first, long long count,
                      const std::function<ClaimedTask(long long)>& message);

    // Throws Error when `spec` is not an amqp:// URL the target would take.
    static void checkUrl(const std::string& spec);
    // Declares (durable, gone an hour after its last use), purges or deletes the broker queue
    // `name` on its own connection; throws Error when the broker refuses.
    static void changeQueue(const std::string& spec, const std::string& name, QueueChange change,
                            long long timeoutMs);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace delayq::amqp
