#pragma once

#include <string>
#include <utility>
#include <vector>

namespace delayq {

// One node of a Redis Cluster as the cluster itself describes it (CLUSTER NODES), for the
// app's server view and `delayq --verbose`.
struct ClusterNodeInfo
{
    std::string address; // "host:port"
    std::string id;      // the node's 40-character cluster id
    bool master = false;
    std::string masterId;                        // a replica's master; empty for a master
    std::vector<std::pair<int, int>> slotRanges; // inclusive ranges a master serves
    bool reachable = false;                      // not flagged fail/pfail and its link is up
};

// Redirects and retries a Connection followed on a cluster (for tests, logs and the app).
struct ClusterRedirects
{
    long long moved = 0;
    long long ask = 0;
    long long retries = 0; // TRYAGAIN and CLUSTERDOWN answers waited out
};

} // namespace delayq
