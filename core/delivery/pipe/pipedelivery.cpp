#include "pipedelivery.h"

#include "pipeexchange.h"
#include <delayq/error.h>

#include <algorithm>
#include <thread>

namespace delayq::pipe {

namespace {

using std::chrono::milliseconds;

constexpr milliseconds kFirstBackoff{100};
constexpr milliseconds kMaxBackoff{5000};
constexpr milliseconds kKillGrace{1000}; // SIGTERM, then this long, then SIGKILL

} // namespace

PipeDelivery::PipeDelivery(std::string command, DeliveryOptions options, int thread)
    : m_command(std::move(command)), m_options(std::move(options)), m_thread(thread),
      m_timeoutMs(m_options.answerTimeoutMs > 0 ? m_options.answerTimeoutMs : 30000)
{}

PipeDelivery::~PipeDelivery() = default; // ~PipeProcess stops it

std::vector<std::string> PipeDelivery::environment() const
{
    const std::string thread = std::to_string(m_thread);
    return {"DELAYQ_QUEUE=" + m_options.queue,
            "DELAYQ_WORKER=" + (m_options.workerName.empty() ? "thread-" + thread
                                                             : m_options.workerName + "#" + thread),
            "DELAYQ_THREAD=" + thread};
}

std::vector<HandlerResult> PipeDelivery::deliver(const std::vector<ClaimedTask>& tasks)
{
    std::string whyNot;
    if (!ensureRunning(whyNot))
        return std::vector<HandlerResult>(tasks.size(), HandlerResult::fail(whyNot));
    PipeExchange exchange(*m_process, m_readBuffer, tasks, m_options, m_timeoutMs);
    const PipeExchange::End end = exchange.run();
    if (exchange.answered() > 0)
        m_answeredSinceStart = true;
    std::string reason;
    switch (end) {
    case PipeExchange::End::Answered:
        break;
    case PipeExchange::End::Closed: {
        const std::string how = closedHow();
        reason = "the consumer " + how;
        ended(how);
        break;
    }
    case PipeExchange::End::Broken:
        reason = "the consumer wrote a line that is not an answer " + exchange.problem();
        m_process->kill(kKillGrace);
        ended("wrote a line that is not an answer");
        break;
    case PipeExchange::End::Timeout:
        reason = "no answer within " + std::to_string(m_timeoutMs) + " ms: the consumer was killed";
        m_process->kill(kKillGrace);
        ended("gave no answer within " + std::to_string(m_timeoutMs) + " ms and was killed");
        break;
    case PipeExchange::End::Aborted:
        // Its answers would come too late and out of step: a new one takes the next tasks.
        reason = "the worker was stopped at once";
        m_process->stop(milliseconds(500), milliseconds(500));
        ended("was stopped with the worker");
        break;
    }
    return exchange.results(reason);
}

std::string PipeDelivery::closedHow()
{
    // It closed its stdout: mostly it is exiting; one that lives on without a way to answer
    // is of no use.
    if (m_process->waitForExit(milliseconds(1000)))
        return m_process->exitReason();
    m_process->kill(kKillGrace);
    return "closed its stdout";
}

bool PipeDelivery::ensureRunning(std::string& whyNot)
{
    if (m_process && !m_process->hasExited())
        return true;
    if (m_process) // it ended between two batches
        ended(m_process->exitReason());
    if (!waitBeforeRestart()) {
        whyNot = "the worker was stopped at once";
        return false;
    }
    try {
        m_process = std::make_unique<PipeProcess>(m_command, environment());
    } catch (const Error& e) {
        whyNot = e.what();
        m_answeredSinceStart = false;
        ended(std::string("could not be started: ") + e.what());
        return false;
    }
    if (m_starts++ > 0 && m_options.notice)
        m_options.notice("pipe consumer restarted after it " + m_lastEnd + " (thread " +
                         std::to_string(m_thread) + ", pid " + std::to_string(m_process->pid()) +
                         ")");
    m_answeredSinceStart = false;
    m_readBuffer.clear();
    return true;
}

bool PipeDelivery::waitBeforeRestart()
{
    while (Clock::now() < m_nextStart) {
        if (m_options.aborted && m_options.aborted())
            return false;
        std::this_thread::sleep_for(std::min<Clock::duration>(milliseconds(10),
                                                              m_nextStart - Clock::now()));
    }
    return true;
}

void PipeDelivery::ended(const std::string& how)
{
    m_process.reset(); // reaped already, or stopped here
    m_lastEnd = how;
    m_quickEnds = m_answeredSinceStart ? 0 : m_quickEnds + 1;
    milliseconds backoff{0};
    if (m_quickEnds > 0)
        backoff = std::min(kMaxBackoff,
                           milliseconds(kFirstBackoff.count() << std::min(m_quickEnds - 1, 10)));
    m_nextStart = Clock::now() + backoff;
}

} // namespace delayq::pipe
