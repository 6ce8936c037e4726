#pragma once

#include <string>
#include <vector>

namespace delayq {

// One sentinel of a group.
struct SentinelNode
{
    std::string host;
    int port = 26379;
};

// A Redis Sentinel group to ask for the master, as ConnectionOptions::sentinel. Built from
//   redis+sentinel://[user[:password]@]s1[:26379],s2[:26379]/MASTER[/db][?query]
// where the user info is Redis's own and the sentinels' credentials, when they have any,
// come as ?sentinel_user=U&sentinel_password=P (sentinels often run without AUTH while the
// master has it, so they are never sent the master's password). rediss+sentinel:// speaks
// TLS to the sentinels and to the master, with ConnectionOptions::tls (the rediss:// keys).
struct SentinelOptions
{
    std::vector<SentinelNode> nodes; // asked in this order; empty: no Sentinel
    std::string masterName;
    std::string user;     // AUTH to the sentinels; empty with a password: the default user
    std::string password; // empty: the sentinels are not sent AUTH

    bool enabled() const { return !nodes.empty(); }
    // "s1:26379,s2:26379" (IPv6 hosts in brackets), for messages.
    std::string nodeList() const;
};

} // namespace delayq
