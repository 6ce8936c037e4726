#pragma once

#include <string>
#include <vector>

namespace delayq {

// One seed node of a Redis Cluster.
struct ClusterSeed
{
    std::string host;
    int port = 6379;
};

// A Redis Cluster to reach through any of its nodes, as ConnectionOptions::cluster. Built from
//   redis+cluster://[user[:password]@]n1[:6379][,n2[:6379]...][/][?query]
//   rediss+cluster://… the same over TLS (ConnectionOptions::tls applies to every node)
// The user, password and TLS options are the same for every node; a cluster has only
// database 0. A plain redis:// URL to a cluster node works too: Connection sees
// cluster_enabled:1 in INFO and routes as a cluster without these options.
struct ClusterOptions
{
    std::vector<ClusterSeed> seeds; // asked for the slot map in this order; empty: not given
    // MOVED/ASK/TRYAGAIN/CLUSTERDOWN answers followed for one command before it fails.
    int maxRedirects = 5;

    bool enabled() const { return !seeds.empty(); }
    // "n1:7001,n2:7002" (IPv6 hosts in brackets), for URLs and messages.
    std::string seedList() const;
};

} // namespace delayq
