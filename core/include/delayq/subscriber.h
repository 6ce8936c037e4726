#pragma once

#include <delayq/connectionoptions.h>
#include <delayq/error.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace delayq {

// A connection in Redis' subscribe mode, listening to a queue's wake channels (one a shard),
// on the same transport as Connection (TCP, unix socket or TLS).
// waitMessage() blocks on the socket (no polling) until a message, the timeout, or
// interrupt() from another thread. Used by one thread; interrupt() is thread-safe.
class Subscriber
{
public:
    explicit Subscriber(ConnectionOptions options);
    ~Subscriber();
    Subscriber(const Subscriber&) = delete;
    Subscriber& operator=(const Subscriber&) = delete;

    // Connects (AUTH as the options say) and subscribes. Throws Error. With options.sentinel,
    // each call asks the sentinels for the master first, so a resubscribe after a dropped
    // connection follows a failover. With options.cluster, it subscribes on any node that is
    // up (classic PUBLISH reaches every node of a cluster); with a redis:// URL to one
    // cluster node, on that node, or on one of its peers while it is away.
    void subscribe(const std::string& channel);
    // Several channels on one stream (the wake channels of a sharded queue's shards).
    void subscribe(const std::vector<std::string>& channels);
    void disconnect();
    bool isConnected() const;

    // A message's payload; nullopt after the timeout or an interrupt(). Throws Error when
    // the connection breaks (call subscribe() again to reconnect).
    std::optional<std::string> waitMessage(std::chrono::milliseconds timeout);
    void interrupt();

private:
    // Drops the broken stream and throws the I/O error of `during` with its context.
    [[noreturn]] void fail(const Error& error, const std::string& during);
    // Sentinel hook: points the options at the master the sentinels name now.
    void followMaster();
    // Cluster hooks: opens the stream on the first node the cluster says is up; on the named
    // server, or when it is away and was a cluster node, on one of its peers.
    void openOnClusterNode();
    void openOnServer();
    void learnClusterPeers();
    bool openOnAnyOf(const std::vector<std::string>& addresses, std::string& failures);

    ConnectionOptions m_options;
    std::vector<std::string> m_channels;
    std::vector<std::string> m_clusterPeers; // the other nodes, when the server is a cluster node
    struct Context;
    std::unique_ptr<Context> m_context;
};

} // namespace delayq
