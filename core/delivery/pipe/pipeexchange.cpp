#include "pipeexchange.h"

#include "pipemessages.h"
#include "transport/sigpipeblock.h"
#include <delayq/utf8.h>

#include <algorithm>
#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace delayq::pipe {

namespace {

// Wakes up at least this often while waiting, to see an abort or a consumer that exited
// while something it started still holds its stdout.
constexpr int kTickMs = 50;
// A "line" this long without a newline is not an answer.
constexpr size_t kMaxLine = 16 << 20;

} // namespace

PipeExchange::PipeExchange(PipeProcess& process, std::string& readBuffer,
                           const std::vector<ClaimedTask>& tasks, const DeliveryOptions& options,
                           long long timeoutMs)
    : m_process(process), m_readBuffer(readBuffer), m_options(options), m_timeout(timeoutMs),
      m_results(tasks.size())
{
    for (size_t i = 0; i < tasks.size(); ++i) {
        m_out += taskLine(tasks[i], options.queue);
        m_pending.emplace(answerKey(tasks[i]), i);
    }
}

PipeExchange::End PipeExchange::run()
{
    m_deadline = Clock::now() + m_timeout;
    while (m_answered < m_results.size()) {
        if (m_options.aborted && m_options.aborted())
            return End::Aborted;
        const auto now = Clock::now();
        if (now >= m_deadline)
            return End::Timeout;
        const bool writing = m_written < m_out.size() && m_process.inputFd() >= 0;
        pollfd fds[2] = {{m_process.outputFd(), POLLIN, 0},
                         {writing ? m_process.inputFd() : -1, POLLOUT, 0}};
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(m_deadline - now);
        const int ready =
            ::poll(fds, 2, static_cast<int>(std::clamp<long long>(left.count() + 1, 0, kTickMs)));
        if (ready < 0 && errno != EINTR)
            return End::Closed;
        if (fds[1].revents != 0)
            writeSome();
        if (fds[0].revents != 0) {
            const bool open = readSome();
            if (!takeLines(!open))
                return End::Broken;
            if (!open && m_answered < m_results.size())
                return End::Closed;
        } else if (ready == 0 && m_process.hasExited()) {
            // Gone, but a process it started still holds the pipe: take what it wrote.
            const bool open = readSome();
            if (!takeLines(true))
                return End::Broken;
            (void)open;
            if (m_answered < m_results.size())
                return End::Closed;
        }
    }
    return End::Answered;
}

void PipeExchange::writeSome()
{
    // The worker thread blocks SIGPIPE already; this keeps a caller of our own that does not
    // from being killed by a consumer that went away (the write is then EPIPE).
    const SigpipeBlock noSigpipe;
    while (m_written < m_out.size()) {
        const ssize_t n =
            ::write(m_process.inputFd(), m_out.data() + m_written, m_out.size() - m_written);
        if (n > 0) {
            m_written += static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        // EPIPE: it closed its stdin or exited; what it answered still counts, the rest
        // ends with the exchange (its exit, its stdout closed, or the timeout).
        m_process.closeInput();
        return;
    }
}

bool PipeExchange::readSome()
{
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(m_process.outputFd(), buf, sizeof buf);
        if (n > 0) {
            m_readBuffer.append(buf, static_cast<size_t>(n));
            if (static_cast<size_t>(n) < sizeof buf)
                return true;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        return false; // end of file, or an error that is one
    }
}

bool PipeExchange::takeLines(bool atEnd)
{
    size_t start = 0;
    bool ok = true;
    for (;;) {
        const size_t nl = m_readBuffer.find('\n', start);
        if (nl == std::string::npos)
            break;
        ok = takeLine(std::string_view(m_readBuffer).substr(start, nl - start));
        start = nl + 1;
        if (!ok)
            break;
    }
    m_readBuffer.erase(0, start);
    if (ok && atEnd && !m_readBuffer.empty()) {
        ok = takeLine(m_readBuffer);
        m_readBuffer.clear();
    }
    if (ok && m_readBuffer.size() > kMaxLine)
        return notAnAnswer("longer than 16 MiB", m_readBuffer);
    return ok;
}

bool PipeExchange::takeLine(std::string_view line)
{
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos)
        return true; // an empty line is no answer, but no harm either
    Answer a = parseAnswer(line);
    if (!a.valid)
        return notAnAnswer(a.problem, line);
    const auto it = m_pending.find(a.key);
    if (it == m_pending.end())
        return notAnAnswer("an id it does not hold", line);
    m_results[it->second] = std::move(a.result);
    m_pending.erase(it);
    ++m_answered;
    m_deadline = Clock::now() + m_timeout;
    return true;
}

bool PipeExchange::notAnAnswer(const std::string& why, std::string_view line)
{
    m_problem = "(" + why + "): " + std::string(utf8Prefix(line, 200));
    return false;
}

std::vector<HandlerResult> PipeExchange::results(const std::string& reason) const
{
    std::vector<HandlerResult> out;
    out.reserve(m_results.size());
    for (const auto& r : m_results)
        out.push_back(r ? *r : HandlerResult::fail(reason));
    return out;
}

} // namespace delayq::pipe
