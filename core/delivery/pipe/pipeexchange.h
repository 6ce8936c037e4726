#pragma once

#include "pipeprocess.h"

#include <delayq/delivery.h>

#include <chrono>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace delayq::pipe {

// One batch handed to a running consumer: every task's line written at once while the
// answers are read as they come (one poll() on both pipes, so a consumer that answers
// before it has read everything never deadlocks against a full pipe), matched by id in any
// order, until each task has its answer or the exchange ends for a reason of the consumer's.
class PipeExchange
{
public:
    enum class End
    {
        Answered, // every task has its answer
        Closed,   // the consumer closed its stdout or exited
        Broken,   // it wrote a line that is not an answer (problem())
        Timeout,  // no answer for timeoutMs
        Aborted   // the worker was stopped at once
    };

    // `readBuffer` keeps what the consumer wrote past the last full line, across batches.
    PipeExchange(PipeProcess& process, std::string& readBuffer, const std::vector<ClaimedTask>& tasks,
                 const DeliveryOptions& options, long long timeoutMs);

    End run();
    // Broken: why and the line's first 200 bytes, for the tasks' error.
    const std::string& problem() const { return m_problem; }
    size_t answered() const { return m_answered; }
    // The answers, and `reason` as the failure of each task without one.
    std::vector<HandlerResult> results(const std::string& reason) const;

private:
    using Clock = std::chrono::steady_clock;

    void writeSome();
    // Reads what is there; false once the consumer closed its stdout.
    bool readSome();
    // Takes the full lines of the read buffer (and at the end a last one without "\n");
    // false when one is not an answer.
    bool takeLines(bool atEnd);
    bool takeLine(std::string_view line);
    bool notAnAnswer(const std::string& why, std::string_view line);

    PipeProcess& m_process;
    std::string& m_readBuffer;
    const DeliveryOptions& m_options;
    std::chrono::milliseconds m_timeout;
    std::string m_out;
    size_t m_written = 0;
    std::unordered_map<std::string, size_t> m_pending; // answer key -> task index
    std::vector<std::optional<HandlerResult>> m_results;
    size_t m_answered = 0;
    Clock::time_point m_deadline;
    std::string m_problem;
};

} // namespace delayq::pipe
