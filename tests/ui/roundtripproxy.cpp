#include "roundtripproxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

RoundTripProxy::RoundTripProxy(int targetPort) : m_targetPort(targetPort)
{
    m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    if (m_listen < 0 || ::bind(m_listen, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
        ::listen(m_listen, 4) != 0 ||
        ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&address), &length) != 0)
        throw std::runtime_error("the round-trip proxy cannot listen on loopback");
    m_port = ntohs(address.sin_port);
    m_thread = std::thread([this] { run(); });
}

RoundTripProxy::~RoundTripProxy()
{
    m_stopping = true;
    m_thread.join();
    ::close(m_listen);
}

void RoundTripProxy::run()
{
    while (!m_stopping) {
        pollfd waiting{m_listen, POLLIN, 0};
        // Every wait is short, so the destructor ends the thread within 20 ms.
        if (::poll(&waiting, 1, 20) <= 0)
            continue;
        const int client = ::accept(m_listen, nullptr, nullptr);
        if (client >= 0)
            forward(client);
    }
}

void RoundTripProxy::forward(int client)
{
    const int server = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(m_targetPort));
    if (server < 0 || ::connect(server, reinterpret_cast<sockaddr*>(&address), sizeof address)) {
        ::close(client);
        if (server >= 0)
            ::close(server);
        return;
    }
    bool serverSpokeLast = true; // the client's first bytes start a round trip
    char buffer[65536];
    while (!m_stopping) {
        pollfd ends[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
        if (::poll(ends, 2, 20) <= 0)
            continue;
        bool closed = false;
        for (int i = 0; i < 2 && !closed; ++i) {
            if (!(ends[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t n = ::read(ends[i].fd, buffer, sizeof buffer);
            if (n <= 0) {
                closed = true;
                break;
            }
            const bool fromClient = i == 0;
            if (fromClient && serverSpokeLast)
                ++m_roundTrips;
            serverSpokeLast = !fromClient;
            const int to = fromClient ? server : client;
            for (ssize_t sent = 0; sent < n;) {
                const ssize_t w = ::write(to, buffer + sent, static_cast<size_t>(n - sent));
                if (w <= 0) {
                    closed = true;
                    break;
                }
                sent += w;
            }
        }
        if (closed)
            break;
    }
    ::close(client);
    ::close(server);
}
