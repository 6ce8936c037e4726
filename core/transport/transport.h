#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace delayq {

struct ConnectionOptions;

// A byte stream to one Redis server: TCP, a unix socket, or TLS over TCP. Everything that
// knows how the bytes travel is under here; RedisLink above it speaks RESP. The socket is
// non-blocking and every wait is a poll() with a deadline, so no call outlives its timeout.
//
// Failures are thrown as Error with a code (Connection, Timeout, Tls) and a message that says
// why, without the URL: the caller knows what it was doing and where, and adds both.
class Transport
{
public:
    using Clock = std::chrono::steady_clock;

    // Connects as the options say (host:port or unixSocket, TLS when tls.enabled), within
    // the connect timeout, TLS handshake and certificate check included.
    static std::unique_ptr<Transport> open(const ConnectionOptions& options);

    virtual ~Transport() = default;
    Transport(const Transport&) = delete;
    Transport& operator=(const Transport&) = delete;

    // Sends every byte; fails when no progress is possible before `deadline`.
    virtual void send(std::string_view bytes, Clock::time_point deadline) = 0;
    // Receives 1..size bytes, waiting until `deadline` for the first one. The end of the
    // stream is an Error(Connection).
    virtual size_t receive(char* buffer, size_t size, Clock::time_point deadline) = 0;
    // Received bytes held above the socket (a decrypted TLS record): poll() on fd() cannot see
    // them, so a reader checks this before it waits.
    virtual bool hasPending() const { return false; }
    // "TLSv1.3, TLS_AES_256_GCM_SHA384"; empty for a plain stream.
    virtual std::string securityDescription() const { return {}; }
    virtual int fd() const = 0;

protected:
    Transport() = default;
};

} // namespace delayq
