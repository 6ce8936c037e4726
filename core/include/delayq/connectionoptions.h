#pragma once

#include <delayq/actor.h>
#include <delayq/clusteroptions.h>
#include <delayq/sentineloptions.h>
#include <delayq/tlsoptions.h>

#include <chrono>
#include <string>

namespace delayq {

// Where and how to reach Redis. Built from a URL:
//   redis://[user[:password]@]host[:port][/db]
//   rediss://[user[:password]@]host[:port][/db][?ca=…&ca_dir=…&cert=…&key=…&sni=…&insecure=1]
//   unix:///path/redis.sock[?db=N]
//   redis+sentinel://[user[:password]@]s1[:26379][,s2[:26379]...]/master[/db] (SentinelOptions)
//   rediss+sentinel://… the same, with TLS to the sentinels and to Redis
//   redis+cluster://[user[:password]@]n1[:6379][,n2[:6379]...][/] (ClusterOptions)
//   rediss+cluster://… the same, with TLS to every node
// All take ?db=N&user=U&password=P; rediss:// also takes the TLS keys (tlsoptions.h), the
// Sentinel form also ?sentinel_user=U&sentinel_password=P; other parameters are refused.
// Parts are %-decoded.
struct ConnectionOptions
{
    std::string host = "127.0.0.1";
    int port = 6379;
    std::string unixSocket; // non-empty: connect to this socket instead of host:port
    std::string user;
    std::string password;
    int db = 0;
    std::chrono::milliseconds connectTimeout{2000};
    std::chrono::milliseconds commandTimeout{5000};
    // A read-only session: every write in the core is refused before it reaches Redis.
    bool readOnly = false;
    // Who makes the changes, for the queues' audit trails: the CLI and the app set it. Empty
    // (workers, library producers): Queue writes no audit entry. Never part of a URL.
    Actor actor;
    // Enabled (nodes listed): host and port are the master's, asked of these sentinels.
    SentinelOptions sentinel;
    // Enabled (seeds listed): a Redis Cluster; host and port are the first seed's. A plain
    // redis:// URL to a cluster node is found to be one at connect, without this.
    ClusterOptions cluster;
    TlsOptions tls; // tls.enabled for rediss://

    // Throws Error(InvalidArgument) with a message naming the bad part.
    static ConnectionOptions fromUrl(const std::string& url);
    // REDIS_URL if set, else redis://127.0.0.1:6379.
    static std::string defaultUrl();

    // The URL with the password replaced by "***": safe for titles and logs. The TLS options
    // are kept (less the key's passphrase), so what is shown is what was used.
    std::string displayUrl() const;
    // The URL rebuilt without the password, whatever form held it (user info, password-only,
    // ?password=): safe to store and to name a keychain entry. One spelling per server
    // (port and, for redis://, db always written; the user as ?user=, since redis://u@h
    // means a password), and fromUrl() of it gives back these options less the password and
    // the key's passphrase.
    std::string urlWithoutPassword() const;
};

} // namespace delayq
