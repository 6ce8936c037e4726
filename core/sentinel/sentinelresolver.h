#pragma once

#include <delayq/connectionoptions.h>

#include <functional>
#include <string>
#include <vector>

namespace delayq {

class Connection;

// Finds the master of a Sentinel group and gets a Connection onto it (docs/design.md,
// "Sentinel"). Each sentinel is asked in turn, over a short-lived plain Connection with the
// sentinels' own credentials, for SENTINEL get-master-addr-by-name; the address it gives is
// connected to, and kept only when the server there says ROLE master. A sentinel that is down,
// does not know the name, or names a server that is away or is a replica (a stale view during
// a failover) sends the search on to the next one.
class SentinelResolver
{
public:
    // Connects the caller's connection to host:port and returns confirmMaster() of it; throws
    // Error when it cannot connect.
    using TryMaster = std::function<bool(const std::string& host, int port)>;

    explicit SentinelResolver(const ConnectionOptions& options);

    // The master's "host:port" once tryMaster accepted it. Throws Error(Connection) naming
    // what each sentinel said when none led to a master; an Error other than an unreachable
    // master (a wrong Redis password) is thrown at once.
    std::string connect(const TryMaster& tryMaster);

    // Whether the server `connection` is on says ROLE master; when it does not, the
    // connection is dropped. A user the ACL denies ROLE cannot check: it trusts the sentinel.
    static bool confirmMaster(Connection& connection);

    // The options to reach one sentinel (no Sentinel of their own, a short timeout).
    ConnectionOptions sentinelOptions(const SentinelNode& node) const;

private:
    struct Answer
    {
        bool answered = false; // the sentinel replied
        std::string host;      // empty: it knows no master of that name
        int port = 0;
        std::string why; // unreachable or refused: the error
    };
    Answer ask(const SentinelNode& node) const;
    [[noreturn]] void fail(const std::vector<std::string>& notes, bool anyAnswered,
                           bool anyKnew) const;

    const ConnectionOptions& m_options;
};

} // namespace delayq
