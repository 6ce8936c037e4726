#include "transport/sockettransport.h"

#include <delayq/error.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace delayq {

namespace {

// What hiredis did (REDIS_KEEPALIVE_INTERVAL): first probe after 15 s idle, then every 5 s,
// and the peer is dead after 3 unanswered.
constexpr int kKeepAliveIdleS = 15;

[[noreturn]] void failErrno(const char* what, int error)
{
    throw Error(ErrorCode::Connection, std::string(what) + ": " + std::strerror(error));
}

// Connects a new non-blocking socket to address; the socket on success, -1 with errno set
// (ETIMEDOUT when the deadline passed) on failure.
int connectSocket(int family, const sockaddr* address, socklen_t length,
                  Transport::Clock::time_point deadline)
{
    const int fd = ::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (::connect(fd, address, length) == 0)
        return fd;
    int error = errno;
    // EINPROGRESS: TCP is on its way. (A unix socket's EAGAIN is different: its backlog is
    // full and nothing is on its way, so it is returned as the failure it is.)
    if (error == EINPROGRESS) {
        if (!SocketTransport::waitFor(fd, POLLOUT, deadline)) {
            error = ETIMEDOUT;
        } else {
            socklen_t size = sizeof error;
            if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0)
                error = errno;
        }
    }
    if (error == 0)
        return fd;
    ::close(fd);
    errno = error;
    return -1;
}

void tuneTcp(int fd)
{
    int on = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    int idle = kKeepAliveIdleS;
    int interval = std::max(1, kKeepAliveIdleS / 3);
    int count = 3;
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
}

int msUntil(Transport::Clock::time_point deadline)
{
    const auto left = deadline - Transport::Clock::now();
    if (left <= Transport::Clock::duration::zero())
        return 0;
    // Rounded up, so a wait never ends a fraction of a ms before its deadline and spins.
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
    return static_cast<int>(std::min<long long>(ms, 60'000));
}

} // namespace

bool SocketTransport::waitFor(int fd, short events, Clock::time_point deadline)
{
    for (;;) {
        pollfd p{fd, events, 0};
        const int timeout = msUntil(deadline);
        const int ready = ::poll(&p, 1, timeout);
        if (ready > 0)
            return true; // errors and hang-ups show up in the send or receive that follows
        if (ready < 0 && errno != EINTR)
            failErrno("waiting for the socket", errno);
        if (ready == 0 && Clock::now() >= deadline)
            return false;
    }
}

std::unique_ptr<SocketTransport> SocketTransport::connectTcp(const std::string& host, int port,
                                                             Clock::time_point deadline)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0)
        throw Error(ErrorCode::Connection,
                    std::string("cannot resolve the host name: ") + ::gai_strerror(rc));
    int lastError = ECONNREFUSED;
    int fd = -1;
    for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
        fd = connectSocket(a->ai_family, a->ai_addr, a->ai_addrlen, deadline);
        if (fd < 0)
            lastError = errno;
        if (lastError == ETIMEDOUT)
            break; // the deadline is spent: the next address would not get a fair try
    }
    ::freeaddrinfo(found);
    if (fd < 0 && lastError == ETIMEDOUT)
        throw Error(ErrorCode::Timeout, "connection timed out");
    if (fd < 0)
        failErrno("connect", lastError);
    tuneTcp(fd);
    return std::unique_ptr<SocketTransport>(new SocketTransport(fd));
}

std::unique_ptr<SocketTransport> SocketTransport::connectUnix(const std::string& path,
                                                              Clock::time_point deadline)
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path)
        throw Error(ErrorCode::InvalidArgument, "the socket path is too long");
    std::memcpy(address.sun_path, path.data(), path.size());
    const int fd = connectSocket(AF_UNIX, reinterpret_cast<const sockaddr*>(&address),
                                 sizeof address, deadline);
    if (fd < 0 && (errno == ETIMEDOUT || errno == EAGAIN))
        throw Error(ErrorCode::Timeout, errno == EAGAIN
                                            ? "the server takes no more connections for now "
                                              "(its accept queue is full)"
                                            : "connection timed out");
    if (fd < 0)
        failErrno("connect", errno);
    return std::unique_ptr<SocketTransport>(new SocketTransport(fd));
}

SocketTransport::~SocketTransport()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void SocketTransport::send(std::string_view bytes, Clock::time_point deadline)
{
    size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(m_fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += static_cast<size_t>(n);
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!waitFor(m_fd, POLLOUT, deadline))
                throw Error(ErrorCode::Timeout, "sending timed out");
        } else if (n < 0 && errno != EINTR) {
            failErrno("send", errno);
        }
    }
}

size_t SocketTransport::receive(char* buffer, size_t size, Clock::time_point deadline)
{
    for (;;) {
        // Waiting first: a reply is rarely there the moment its command left, so a recv()
        // first would mostly cost an EAGAIN (a round trip is poll + recv, as a blocking read
        // was one recv). Bytes already there make the poll return at once.
        if (!waitFor(m_fd, POLLIN, deadline))
            throw Error(ErrorCode::Timeout, "no reply in time");
        const ssize_t n = ::recv(m_fd, buffer, size, 0);
        if (n > 0)
            return static_cast<size_t>(n);
        if (n == 0)
            throw Error(ErrorCode::Connection, "the server closed the connection");
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            failErrno("receive", errno);
    }
}

} // namespace delayq
