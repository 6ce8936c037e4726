#pragma once

#include "pipeprocess.h"

#include <delayq/delivery.h>

#include <chrono>
#include <memory>
#include <string>

namespace delayq::pipe {

// pipe:CMD (docs/targets/pipe.md): one long-lived consumer process for one worker thread,
// started on the first delivery and again on the next one after it ended (exited, stopped
// answering, wrote a line that is not an answer), with a backoff when it ends before
// answering anything, so a consumer that dies at once does not spin.
class PipeDelivery : public Delivery
{
public:
    PipeDelivery(std::string command, DeliveryOptions options, int thread);
    // Closes the consumer's stdin, lets it exit for up to 2 s, then kills it.
    ~PipeDelivery() override;

    std::vector<HandlerResult> deliver(const std::vector<ClaimedTask>& tasks) override;

private:
    using Clock = std::chrono::steady_clock;

    // A running consumer, started (after the restart backoff) when there is none; false and
    // the reason when there cannot be one.
    bool ensureRunning(std::string& whyNot);
    // Waits out the restart backoff; false when the worker was stopped meanwhile.
    bool waitBeforeRestart();
    // The consumer is gone (`how`: "exited with status 1"): it is reaped, and the next start
    // waits when it answered nothing.
    void ended(const std::string& how);
    // After the exchange ended with its stdout closed: how the consumer ended.
    std::string closedHow();
    std::vector<std::string> environment() const;

    std::string m_command;
    DeliveryOptions m_options;
    int m_thread;
    long long m_timeoutMs;
    std::unique_ptr<PipeProcess> m_process;
    std::string m_readBuffer;
    bool m_answeredSinceStart = false;
    int m_starts = 0;
    int m_quickEnds = 0; // consumers in a row that ended without answering anything
    std::string m_lastEnd;
    Clock::time_point m_nextStart{};
};

} // namespace delayq::pipe
