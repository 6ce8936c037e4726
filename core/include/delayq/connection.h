#pragma once

#include <delayq/clusternodeinfo.h>
#include <delayq/connectionoptions.h>
#include <delayq/error.h>
#include <delayq/reply.h>
#include <delayq/script.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace delayq {

class ClusterRouter;
class RedisLink;

// One synchronous connection to Redis (TCP, unix socket or TLS; see core/transport.h).
// Belongs to one thread at a time.
// A connection that broke is re-established on the next call, so a restarted
// server costs the caller one failed call, not a dead object. With options.sentinel, each
// (re)connect asks the sentinels for the master first, and a READONLY reply (a master
// demoted by a failover) drops the connection too, so the next call finds the new master.
// On a Redis Cluster (options.cluster, or a redis:// URL whose node says cluster_enabled:1)
// each command goes to the master of its first key's slot (a script by KEYS[1]), MOVED and
// ASK are followed, and a pipeline is split per node with its replies kept in order.
class Connection
{
public:
    explicit Connection(ConnectionOptions options);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // With Sentinel, host and port are those of the master last connected to.
    const ConnectionOptions& options() const { return m_options; }

    // Connects (and AUTH, SELECT) if not connected. Throws Error.
    void connect();
    void disconnect();
    bool isConnected() const;

    // One command. Error replies are thrown as Error with a code from the server's word.
    Reply command(const std::vector<std::string>& args);
    // Many commands in one round trip. Error replies stay in the result (Reply::isError()).
    std::vector<Reply> pipeline(const std::vector<std::vector<std::string>>& commands);

    struct ScriptCall
    {
        std::vector<std::string> keys;
        std::vector<std::string> args;
    };
    // EVALSHA, re-sent as EVAL when the server has forgotten the script (NOSCRIPT).
    // Error replies are thrown, with our scripts' words (LEASE_LOST, ...) mapped to codes.
    Reply evalScript(const Script& script, const std::vector<std::string>& keys,
                     const std::vector<std::string>& args);
    // Many calls of one script pipelined; error replies stay in the result.
    std::vector<Reply> evalPipeline(const Script& script, const std::vector<ScriptCall>& calls);

    // How the bytes travel: "TLSv1.3, TLS_AES_256_GCM_SHA384" on a TLS connection, empty on
    // plain TCP or a unix socket, and empty while not connected.
    std::string securityDescription() const;

    // Round trip of a PING.
    std::chrono::microseconds ping();
    // Whether this user may write under `key` on this server: DEL of a key that never exists
    // changes nothing, but is refused like any write. Returns the refusal (an ACL right
    // missing, or a server that refuses writes), nullopt when writes are allowed; any other
    // error is thrown.
    std::optional<Error> writeRefusal(const std::string& key);
    std::string serverVersion();
    // The ACL user this connection is authenticated as (ACL WHOAMI, asked once per
    // Connection): the URL's user when the server has no ACL or denies WHOAMI to this user,
    // else "default" without ACL or "?" when denied. For the audit trail; never throws a refusal.
    const std::string& aclUser();
    // Redis server clock, ms since the epoch.
    long long serverTimeMs();
    // Server clock estimated from the local clock and the offset measured at connect,
    // for reads that need "now" without a round trip (and for users who may not run TIME).
    // The first call connects if the offset was never measured; never throws.
    long long serverNowMs();
    // Server clock minus local clock, ms, as measured at the last connect.
    long long clockOffsetMs() const { return m_clockOffsetMs; }

    // "host:port" (or the socket path) of the server last connected to: with Sentinel, the
    // master the sentinels named.
    std::string serverAddress() const;
    // How many reconnects found a different master than the one before (Sentinel failovers
    // this connection followed); 0 without Sentinel.
    int masterChanges() const { return m_masterChanges; }

    // Whether the server is a Redis Cluster (known after the first connect).
    bool isCluster() const { return m_cluster != nullptr; }
    // The cluster's masters and replicas, their slot ranges and whether the cluster sees them
    // up (CLUSTER NODES); empty when not on a cluster. Throws Error.
    std::vector<ClusterNodeInfo> clusterNodes();
    // "host:port" of the master that holds `key` (for a queue, any of its keys):
    // serverAddress() when not on a cluster. Throws Error.
    std::string nodeForKey(const std::string& key);
    // Keyspace-wide work (SCAN): the masters serving slots, sorted ({serverAddress()} when not
    // on a cluster), and commands sent to one of them as they are, redirects not followed.
    std::vector<std::string> masters();
    std::vector<Reply> pipelineOn(const std::string& master,
                                  const std::vector<std::vector<std::string>>& commands);
    // The MOVED, ASK and retry answers this connection followed (zeros off a cluster), and
    // those of every connection of the process.
    ClusterRedirects clusterRedirects() const;
    static ClusterRedirects totalClusterRedirects();

private:
    void connectToServer();
    void connectToCluster();
    std::vector<Reply> clusterPipeline(const std::vector<std::vector<std::string>>& commands);
    // A redis:// URL may name a cluster node: INFO says so once per Connection.
    bool isClusterNode();
    // Sentinel hooks: connect() through SentinelResolver; drop a demoted master.
    void connectThroughSentinel();
    void dropIfDemoted(const std::vector<Reply>& replies);
    void ensureConnected();
    void measureClockOffset();
    // One TIME: {offset, round trip} in µs; round trip -1 when the user may not run TIME.
    std::pair<long long, long long> sampleClockOffset();
    // Drops the broken link and throws the I/O error of `during` with its context.
    [[noreturn]] void failIo(const Error& error, const std::string& during);

    ConnectionOptions m_options;
    long long m_clockOffsetMs = 0;
    long long m_clockOffsetUs = 0;
    bool m_offsetKnown = false;
    bool m_offsetTried = false;
    std::string m_sentinelMaster; // "host:port" the sentinels named last
    int m_masterChanges = 0;
    std::string m_aclUser;                    // asked on first use
    std::unique_ptr<RedisLink> m_link;        // null while not connected (and on a cluster)
    std::unique_ptr<ClusterRouter> m_cluster; // set once the server is known to be a cluster
    bool m_clusterChecked = false;
    bool m_clusterUp = false; // the last cluster call did not fail on I/O
};

} // namespace delayq
