#pragma once

#include <delayq/connectionoptions.h>
#include <delayq/error.h>
#include <delayq/reply.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct redisReader;

namespace delayq {

class Transport;

// One open, authenticated stream to Redis that speaks RESP: a Transport carries the bytes,
// hiredis' formatter encodes the commands and its reader (with ReplyReader's array limit)
// decodes the replies. Connection and Subscriber each hold one, so connecting, AUTH and
// SELECT are written once. A link that threw from send, read or receive is broken: its
// owner drops it and opens a new one.
class RedisLink
{
public:
    // Connects within the connect timeout, then AUTH and SELECT as the options say. Throws
    // Error whose message names the URL and the cause.
    static std::unique_ptr<RedisLink> open(const ConnectionOptions& options);
    ~RedisLink();
    RedisLink(const RedisLink&) = delete;
    RedisLink& operator=(const RedisLink&) = delete;

    // Encodes the commands and sends them in one write. Throws Error (see inContext).
    void send(const std::vector<std::vector<std::string>>& commands);
    // The next reply; each wait for bytes lasts at most the command timeout.
    Reply read();
    // A reply already received, without waiting; nullopt when none is complete.
    std::optional<Reply> buffered();
    enum class Wait
    {
        Readable,
        Woken,
        TimedOut
    };
    // Waits for bytes from the server, at most `timeout`, or until wakeFd (when >= 0) is
    // readable. Never throws.
    Wait wait(std::chrono::milliseconds timeout, int wakeFd);
    // Reads what the transport has (waiting up to the command timeout) into the reader.
    void receive();

    // "TLSv1.3, TLS_AES_256_GCM_SHA384"; empty for a plain stream.
    std::string securityDescription() const;
    // An I/O Error of send/read/receive as the caller reports it: what it was doing, where,
    // and that the next call reconnects (or for a timeout, after how long).
    Error inContext(const Error& error, const std::string& during) const;

private:
    RedisLink(const ConnectionOptions& options, std::unique_ptr<Transport> transport);
    void handshake(const std::vector<std::string>& args, const char* what);

    std::string m_where; // the display URL: never the password
    std::chrono::milliseconds m_commandTimeout;
    bool m_tls = false;
    bool m_tcp = false; // a TCP port (not a unix socket), where TLS could be what is expected
    std::unique_ptr<Transport> m_transport;
    redisReader* m_reader = nullptr;
    size_t m_received = 0; // bytes ever received: none at an early close says "TLS port?"
    unsigned char m_firstByte = 0;
    std::vector<const char*> m_argv; // reused by send()
    std::vector<size_t> m_lengths;
    std::string m_out;
    char m_buffer[64 * 1024];
};

} // namespace delayq
