#pragma once

#include "transport/transport.h"

#include <string>

namespace delayq {

// A plain stream on a non-blocking TCP or unix socket. Sends with MSG_NOSIGNAL, so a peer
// that went away gives EPIPE rather than a SIGPIPE that would kill the process. TlsTransport
// runs over one of these.
class SocketTransport : public Transport
{
public:
    // Tries each address of host (IPv4 and IPv6) until one accepts; TCP_NODELAY (commands
    // are written whole, waiting would only add latency) and keepalive (a silently dead peer
    // is noticed even by a connection that only listens, like a subscriber).
    static std::unique_ptr<SocketTransport> connectTcp(const std::string& host, int port,
                                                       Clock::time_point deadline);
    static std::unique_ptr<SocketTransport> connectUnix(const std::string& path,
                                                        Clock::time_point deadline);
    ~SocketTransport() override;

    void send(std::string_view bytes, Clock::time_point deadline) override;
    size_t receive(char* buffer, size_t size, Clock::time_point deadline) override;
    int fd() const override { return m_fd; }

    // Waits until fd is ready for `events` (POLLIN, POLLOUT); false when the deadline passed
    // first. A failed poll() is thrown as Error(Connection).
    static bool waitFor(int fd, short events, Clock::time_point deadline);

private:
    explicit SocketTransport(int fd) : m_fd(fd) {}

    int m_fd = -1;
};

} // namespace delayq
