#include "transport/redislink.h"

#include "transport/replyreader.h"
#include "transport/transport.h"
#include <delayq/connection.h>

#include <hiredis.h>

#include <algorithm>
#include <cerrno>
#include <poll.h>

namespace delayq {

namespace {

// The first byte of a TLS record (alert or handshake): a TLS server answered a plain client.
bool isTlsRecordStart(unsigned char byte)
{
    return byte == 0x15 || byte == 0x16;
}

} // namespace

std::unique_ptr<RedisLink> RedisLink::open(const ConnectionOptions& options)
{
    std::unique_ptr<Transport> transport;
    try {
        transport = Transport::open(options);
    } catch (const Error& e) {
        const bool unreachable = e.isUnreachable();
        throw Error(e.code(),
                    "cannot connect to " + options.displayUrl() + ": " + e.what() +
                        (unreachable ? " (is redis-server running there? check the URL)" : ""));
    }
    std::unique_ptr<RedisLink> link(new RedisLink(options, std::move(transport)));
    if (!options.password.empty()) {
        if (options.user.empty())
            link->handshake({"AUTH", options.password}, "AUTH");
        else
            link->handshake({"AUTH", options.user, options.password}, "AUTH");
    }
    if (options.db != 0)
        link->handshake({"SELECT", std::to_string(options.db)}, "SELECT");
    return link;
}

RedisLink::RedisLink(const ConnectionOptions& options, std::unique_ptr<Transport> transport)
    : m_where(options.displayUrl()), m_commandTimeout(options.commandTimeout),
      m_tls(options.tls.enabled), m_tcp(options.unixSocket.empty()),
      m_transport(std::move(transport)), m_reader(redisReaderCreate())
{
    if (!m_reader)
        throw Error(ErrorCode::Connection, "out of memory creating a reply reader");
    ReplyReader::limitArrays(m_reader);
}

RedisLink::~RedisLink()
{
    if (m_reader)
        redisReaderFree(m_reader);
}

void RedisLink::handshake(const std::vector<std::string>& args, const char* what)
{
    Reply r;
    try {
        send({args});
        r = read();
    } catch (const Error& e) {
        throw inContext(e, what);
    }
    if (!r.isError())
        return;
    const Error e = errorFromReply(r.str);
    if (e.code() == ErrorCode::Auth || r.str.starts_with("WRONGPASS") ||
        r.str.starts_with("ERR invalid password") || r.str.starts_with("ERR AUTH"))
        throw Error(ErrorCode::Auth,
                    "authentication to " + m_where + " failed: the user name or password is wrong");
    throw Error(e.code(), std::string(what) + " on " + m_where + " failed: " + e.what());
}

void RedisLink::send(const std::vector<std::vector<std::string>>& commands)
{
    m_out.clear();
    for (const auto& args : commands) {
        m_argv.clear();
        m_lengths.clear();
        for (const auto& a : args) {
            m_argv.push_back(a.data());
            m_lengths.push_back(a.size());
        }
        char* encoded = nullptr;
        const int length = redisFormatCommandArgv(&encoded, static_cast<int>(args.size()),
                                                  m_argv.data(), m_lengths.data());
        if (length < 0 || !encoded)
            throw Error(ErrorCode::Connection, "out of memory encoding a command");
        m_out.append(encoded, static_cast<size_t>(length));
        redisFreeCommand(encoded);
    }
    if (!m_out.empty())
        m_transport->send(m_out, Transport::Clock::now() + m_commandTimeout);
}

std::optional<Reply> RedisLink::buffered()
{
    void* raw = nullptr;
    if (redisReaderGetReply(m_reader, &raw) != REDIS_OK) {
        if (m_received > 0 && isTlsRecordStart(m_firstByte) && !m_tls)
            throw Error(ErrorCode::Tls, "the server answered in TLS — use rediss:// for this port");
        throw Error(ErrorCode::Connection,
                    "a malformed reply: " + ReplyReader::errorText(m_reader->errstr));
    }
    if (!raw)
        return std::nullopt;
    Reply reply = ReplyReader::fromHiredis(raw);
    freeReplyObject(raw);
    return reply;
}

Reply RedisLink::read()
{
    for (;;) {
        if (auto reply = buffered())
            return std::move(*reply);
        receive();
    }
}

void RedisLink::receive()
{
    size_t n = 0;
    try {
        n = m_transport->receive(m_buffer, sizeof m_buffer,
                                 Transport::Clock::now() + m_commandTimeout);
    } catch (const Error& e) {
        // A TLS port drops a plain client as soon as it has read its first command.
        if (m_received == 0 && m_tcp && !m_tls && e.code() == ErrorCode::Connection)
            throw Error(ErrorCode::Connection, "the server closed the connection at once (" +
                                                   std::string(e.what()) +
                                                   ") — is it a TLS port? use rediss://");
        throw;
    }
    if (m_received == 0)
        m_firstByte = static_cast<unsigned char>(m_buffer[0]);
    m_received += n;
    if (redisReaderFeed(m_reader, m_buffer, n) != REDIS_OK)
        throw Error(ErrorCode::Connection, "out of memory reading a reply");
}

RedisLink::Wait RedisLink::wait(std::chrono::milliseconds timeout, int wakeFd)
{
    if (m_transport->hasPending())
        return Wait::Readable;
    pollfd fds[2] = {{m_transport->fd(), POLLIN, 0}, {wakeFd, POLLIN, 0}};
    const int ready = ::poll(fds, wakeFd >= 0 ? 2 : 1,
                             static_cast<int>(std::clamp<long long>(timeout.count(), 0, 60000)));
    if (ready <= 0)
        return Wait::TimedOut; // EINTR too: the caller's loop waits again for what is left
    if (wakeFd >= 0 && (fds[1].revents & POLLIN))
        return Wait::Woken;
    return Wait::Readable;
}

std::string RedisLink::securityDescription() const
{
    return m_transport->securityDescription();
}

Error RedisLink::inContext(const Error& error, const std::string& during) const
{
    if (error.code() == ErrorCode::Timeout)
        return Error(ErrorCode::Timeout, during + " on " + m_where + " timed out after " +
                                             std::to_string(m_commandTimeout.count()) +
                                             " ms (the server is slow or unreachable)");
    return Error(error.code(), during + " on " + m_where + " failed: " + error.what() +
                                   " (the next call reconnects)");
}

} // namespace delayq
