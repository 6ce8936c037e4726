#include <delayq/subscriber.h>

#include "replyreader.h"
#include "sigpipeblock.h"
#include <delayq/connection.h>
#include <delayq/error.h>

#include <hiredis.h>

#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace delayq {

struct Subscriber::Context
{
    redisContext* ctx = nullptr;
    int pipe[2] = {-1, -1}; // interrupt(): a byte written here wakes poll()

    ~Context()
    {
        if (ctx)
            redisFree(ctx);
        for (int fd : pipe)
            if (fd >= 0)
                ::close(fd);
    }
};

namespace {

timeval toTimeval(std::chrono::milliseconds ms)
{
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
    return tv;
}

// The payload of a ["message", channel, payload] push; nullopt for anything else
// (subscribe confirmations).
std::optional<std::string> messagePayload(const redisReply* r)
{
    if (r->type != REDIS_REPLY_ARRAY || r->elements != 3)
        return std::nullopt;
    const redisReply* kind = r->element[0];
    if (kind->type != REDIS_REPLY_STRING || std::string(kind->str, kind->len) != "message")
        return std::nullopt;
    const redisReply* payload = r->element[2];
    if (payload->type != REDIS_REPLY_STRING)
        return std::string();
    return std::string(payload->str, payload->len);
}

} // namespace

Subscriber::Subscriber(ConnectionOptions options)
    : m_options(std::move(options)), m_context(std::make_unique<Context>())
{
    if (::pipe(m_context->pipe) == 0) {
        for (int fd : m_context->pipe)
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
}

Subscriber::~Subscriber() = default;

bool Subscriber::isConnected() const
{
    return m_context->ctx && m_context->ctx->err == 0;
}

void Subscriber::disconnect()
{
    if (m_context->ctx) {
        redisFree(m_context->ctx);
        m_context->ctx = nullptr;
    }
}

void Subscriber::fail(const std::string& during)
{
    std::string why = m_context->ctx && m_context->ctx->errstr[0]
                          ? ReplyReader::errorText(m_context->ctx->errstr)
                          : "connection lost";
    disconnect();
    throw Error(ErrorCode::Connection, during + " on " + m_options.displayUrl() +
                                           " failed: " + why + " (the next call reconnects)");
}

void Subscriber::subscribe(const std::string& channel)
{
    const SigpipeBlock noSigpipe; // a server that went away must not kill the process
    disconnect();
    m_channel = channel;
    if (m_options.sentinel.enabled())
        followMaster();
    const std::string where = m_options.displayUrl();
    const timeval connectTv = toTimeval(m_options.connectTimeout);
    redisContext* ctx =
        m_options.unixSocket.empty()
            ? redisConnectWithTimeout(m_options.host.c_str(), m_options.port, connectTv)
            : redisConnectUnixWithTimeout(m_options.unixSocket.c_str(), connectTv);
    if (!ctx)
        throw Error(ErrorCode::Connection, "cannot connect to " + where + ": out of memory");
    if (ctx->err) {
        std::string why = ctx->errstr;
        redisFree(ctx);
        throw Error(ErrorCode::Connection, "cannot connect to " + where + ": " + why +
                                               " (is redis-server running there?)");
    }
    m_context->ctx = ctx;
    ReplyReader::limitArrays(ctx->reader);
    redisSetTimeout(ctx, toTimeval(m_options.commandTimeout));
    if (m_options.unixSocket.empty())
        redisEnableKeepAlive(ctx);

    auto call = [&](std::vector<std::string> args, const char* what) {
        std::vector<const char*> argv;
        std::vector<size_t> lens;
        for (const auto& a : args) {
            argv.push_back(a.data());
            lens.push_back(a.size());
        }
        redisAppendCommandArgv(ctx, static_cast<int>(args.size()), argv.data(), lens.data());
        void* raw = nullptr;
        if (redisGetReply(ctx, &raw) != REDIS_OK || !raw)
            fail(what);
        auto* reply = static_cast<redisReply*>(raw);
        std::string error;
        if (reply->type == REDIS_REPLY_ERROR)
            error.assign(reply->str, reply->len);
        freeReplyObject(raw);
        if (!error.empty()) {
            disconnect();
            Error e = Connection::errorFromReply(error);
            throw Error(e.code(), std::string(what) + " on " + where + " failed: " + e.what());
        }
    };
    if (!m_options.password.empty()) {
        if (m_options.user.empty())
            call({"AUTH", m_options.password}, "AUTH");
        else
            call({"AUTH", m_options.user, m_options.password}, "AUTH");
    }
    call({"SUBSCRIBE", channel}, "SUBSCRIBE");
}

void Subscriber::followMaster()
{
    // A Connection resolves the master and checks its ROLE the way every other connection of
    // a worker does; one extra connect per (re)subscribe, which is rare.
    Connection probe(m_options);
    probe.connect();
    m_options.host = probe.options().host;
    m_options.port = probe.options().port;
}

std::optional<std::string> Subscriber::waitMessage(std::chrono::milliseconds timeout)
{
    if (!isConnected())
        subscribe(m_channel);
    redisContext* ctx = m_context->ctx;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        // Replies already read into hiredis' buffer come first: poll() cannot see them.
        void* raw = nullptr;
        if (redisGetReplyFromReader(ctx, &raw) != REDIS_OK)
            fail("reading a message");
        if (raw) {
            auto payload = messagePayload(static_cast<redisReply*>(raw));
            freeReplyObject(raw);
            if (payload)
                return payload;
            continue;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return std::nullopt;
        pollfd fds[2] = {{ctx->fd, POLLIN, 0}, {m_context->pipe[0], POLLIN, 0}};
        const int ready = ::poll(fds, m_context->pipe[0] >= 0 ? 2 : 1,
                                 static_cast<int>(std::min<long long>(left.count(), 60000)));
        if (ready < 0 && errno != EINTR)
            fail("waiting for a message");
        if (ready <= 0)
            continue;
        if (fds[1].revents & POLLIN) {
            char drain[64];
            while (::read(m_context->pipe[0], drain, sizeof drain) > 0) {
            }
            return std::nullopt;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
            if (redisBufferRead(ctx) != REDIS_OK)
                fail("reading a message");
    }
}

void Subscriber::interrupt()
{
    if (m_context->pipe[1] >= 0) {
        const char byte = 1;
        [[maybe_unused]] auto n = ::write(m_context->pipe[1], &byte, 1);
    }
}

} // namespace delayq
