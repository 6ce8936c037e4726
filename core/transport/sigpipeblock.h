#pragma once

#include <csignal>

namespace delayq {

// OpenSSL sends with write(2) (plain sockets use send() with MSG_NOSIGNAL instead): writing
// to a peer that went away raises SIGPIPE, whose default action kills the whole process. While
// one of these lives, the signal is blocked on this thread, and one it raised is taken back,
// so the failed write comes back as EPIPE, i.e. a connection error, and the process lives on.
class SigpipeBlock
{
public:
    SigpipeBlock();
    ~SigpipeBlock();
    SigpipeBlock(const SigpipeBlock&) = delete;
    SigpipeBlock& operator=(const SigpipeBlock&) = delete;

private:
    sigset_t m_set{};
    sigset_t m_old{};
    bool m_wasPending = false;
};

} // namespace delayq
