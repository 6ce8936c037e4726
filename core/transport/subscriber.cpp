#include <delayq/subscriber.h>

#include "transport/redislink.h"
#include <delayq/connection.h>
#include <delayq/error.h>

#include <cstdlib>
#include <fcntl.h>
#include <sstream>
#include <unistd.h>

namespace delayq {

// The subscribe-mode stream is a RedisLink like Connection's (same transport, TLS, AUTH and
// SELECT); only reading differs: pushes arrive unasked, so it waits on the socket and on a
// pipe that interrupt() writes to.
struct Subscriber::Context
{
    std::unique_ptr<RedisLink> link;
    int pipe[2] = {-1, -1}; // interrupt(): a byte written here wakes the wait

    ~Context()
    {
        for (int fd : pipe)
            if (fd >= 0)
                ::close(fd);
    }
};

namespace {

// The payload of a ["message", channel, payload] push; nullopt for anything else
// (subscribe confirmations).
std::optional<std::string> messagePayload(const Reply& r)
{
    if (!r.isArray() || r.elements.size() != 3)
        return std::nullopt;
    const Reply& kind = r.elements[0];
    if (kind.type != Reply::Type::String || kind.str != "message")
        return std::nullopt;
    const Reply& payload = r.elements[2];
    if (payload.type != Reply::Type::String)
        return std::string();
    return payload.str;
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
    return m_context->link != nullptr;
}

void Subscriber::disconnect()
{
    m_context->link.reset();
}

void Subscriber::fail(const Error& error, const std::string& during)
{
    const Error inContext = m_context->link ? m_context->link->inContext(error, during) : error;
    disconnect();
    throw inContext;
}

void Subscriber::subscribe(const std::string& channel)
{
    subscribe(std::vector<std::string>{channel});
}

void Subscriber::subscribe(const std::vector<std::string>& channels)
{
    disconnect();
    m_channels = channels;
    if (m_options.sentinel.enabled())
        followMaster();
    if (m_options.cluster.enabled())
        openOnClusterNode();
    else
        openOnServer();
    std::vector<std::string> command{"SUBSCRIBE"};
    command.insert(command.end(), channels.begin(), channels.end());
    // One confirmation a channel; the first refusal ends it.
    for (size_t i = 0; i < channels.size(); ++i) {
        Reply confirmation;
        try {
            if (i == 0)
                m_context->link->send({command});
            confirmation = m_context->link->read();
        } catch (const Error& e) {
            fail(e, "SUBSCRIBE");
        }
        if (confirmation.isError()) {
            disconnect();
            const Error e = errorFromReply(confirmation.str);
            throw Error(e.code(),
                        "SUBSCRIBE on " + m_options.displayUrl() + " failed: " + e.what());
        }
    }
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

void Subscriber::openOnClusterNode()
{
    // The scripts PUBLISH, which a cluster broadcasts to every node: any node that is up
    // hears every queue's wake messages, whichever slot the queue has moved to.
    Connection probe(m_options);
    std::vector<std::string> nodes;
    for (const auto& node : probe.clusterNodes())
        if (node.reachable)
            nodes.push_back(node.address);
    std::string failures;
    if (!openOnAnyOf(nodes, failures))
        throw Error(ErrorCode::Connection, "no node of the Redis Cluster " +
                                               m_options.displayUrl() + " took the subscription" +
                                               (failures.empty() ? "" : ": " + failures));
}

void Subscriber::openOnServer()
{
    try {
        m_context->link = RedisLink::open(m_options);
    } catch (const Error& e) {
        // The named node is away; when it was a cluster node, its peers hear the same messages.
        std::string failures;
        if (!e.isUnreachable() || m_clusterPeers.empty() || !openOnAnyOf(m_clusterPeers, failures))
            throw;
        return;
    }
    if (m_options.unixSocket.empty() && !m_options.sentinel.enabled())
        learnClusterPeers();
}

void Subscriber::learnClusterPeers()
{
    // One INFO per (re)subscribe, which is rare; on a cluster node, CLUSTER NODES too.
    RedisLink& link = *m_context->link;
    try {
        link.send({{"INFO", "cluster"}});
        const Reply info = link.read();
        if (info.isError() || info.str.find("cluster_enabled:1") == std::string::npos)
            return;
        link.send({{"CLUSTER", "NODES"}});
        const Reply nodes = link.read();
        if (nodes.isError())
            return;
        m_clusterPeers.clear();
        std::istringstream in(nodes.str);
        for (std::string line; std::getline(in, line);) {
            std::istringstream fields(line);
            std::string id, address, flags;
            fields >> id >> address >> flags;
            if (flags.find("myself") == std::string::npos &&
                flags.find("fail") == std::string::npos &&
                flags.find("noaddr") == std::string::npos && !address.empty())
                m_clusterPeers.push_back(address.substr(0, address.find('@')));
        }
    } catch (const Error& e) {
        fail(e, "INFO");
    }
}

bool Subscriber::openOnAnyOf(const std::vector<std::string>& addresses, std::string& failures)
{
    for (const auto& address : addresses) {
        ConnectionOptions options = m_options;
        options.cluster = ClusterOptions();
        const auto colon = address.rfind(':');
        if (colon == std::string::npos)
            continue;
        options.host = address.substr(0, colon);
        if (options.host.size() > 1 && options.host.front() == '[')
            options.host = options.host.substr(1, options.host.size() - 2);
        options.port = std::atoi(address.c_str() + colon + 1);
        try {
            m_context->link = RedisLink::open(options);
            return true;
        } catch (const Error& e) {
            failures += std::string(failures.empty() ? "" : "; ") + e.what();
        }
    }
    return false;
}

std::optional<std::string> Subscriber::waitMessage(std::chrono::milliseconds timeout)
{
    if (!isConnected())
        subscribe(m_channels);
    RedisLink& link = *m_context->link;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    try {
        for (;;) {
            // Replies already received come first: a wait on the socket cannot see them.
            while (auto reply = link.buffered())
                if (auto payload = messagePayload(*reply))
                    return payload;
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                return std::nullopt;
            switch (link.wait(left, m_context->pipe[0])) {
            case RedisLink::Wait::Woken: {
                char drain[64];
                while (::read(m_context->pipe[0], drain, sizeof drain) > 0) {
                }
                return std::nullopt;
            }
            case RedisLink::Wait::Readable:
                link.receive();
                break;
            case RedisLink::Wait::TimedOut:
                break;
            }
        }
    } catch (const Error& e) {
        fail(e, "reading a message");
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
