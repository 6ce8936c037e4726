#pragma once

#include "cluster/slotmap.h"
#include <delayq/clusternodeinfo.h>
#include <delayq/connectionoptions.h>
#include <delayq/reply.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace delayq {

class RedisLink;

// Connection's topology for a Redis Cluster: the slot map, one lazily opened RedisLink per
// node, and the routing of each command by the slot of its first key, following MOVED, ASK,
// TRYAGAIN and CLUSTERDOWN a bounded number of times. Belongs to one Connection.
class ClusterRouter
{
public:
    // Seeds: options.cluster.seeds, or host:port when the cluster was found by INFO.
    explicit ClusterRouter(const ConnectionOptions& options);
    ~ClusterRouter();
    ClusterRouter(const ClusterRouter&) = delete;
    ClusterRouter& operator=(const ClusterRouter&) = delete;

    // Asks the known nodes, then the seeds, for CLUSTER SLOTS until one answers. Throws
    // Error(Connection) naming each node tried and why it failed.
    void refresh();
    bool hasMap() const { return !m_map.empty(); }
    // Drops every node link (the map is kept, but asked again before the next command).
    void disconnect();

    // Each command to the master of its first key's slot (keyless ones to one master), the
    // commands of each node in one round trip, the replies in the order of `commands`.
    // Error replies stay in the result; an I/O failure is thrown (the next call reconnects).
    std::vector<Reply> pipeline(const std::vector<std::vector<std::string>>& commands);
    // The commands on one node as they are, redirects not followed (SCAN of one master).
    std::vector<Reply> pipelineOn(const std::string& address,
                                  const std::vector<std::vector<std::string>>& commands);

    std::vector<std::string> masters() const { return m_map.masters(); }
    std::string masterOfSlot(int slot) const { return m_map.masterOf(slot); }
    // CLUSTER NODES of one reachable node.
    std::vector<ClusterNodeInfo> nodes();
    std::string securityDescription() const;
    const ClusterRedirects& redirects() const { return m_redirects; }
    // Redirects followed by every router of the process (tests of a worker's threads).
    static ClusterRedirects totalRedirects();

private:
    using Commands = std::vector<std::vector<std::string>>;
    RedisLink& link(const std::string& address);
    void dropLink(const std::string& address);
    // One round: each node's commands sent (ASKING before those in `askTo`), then read.
    void exchange(const std::map<std::string, std::vector<size_t>>& groups,
                  const Commands& commands, const std::vector<std::string>& askTo,
                  std::vector<Reply>& replies);
    // Whether replies[i] asks for another try, and where (MOVED updates the map).
    bool needsRetry(const Reply& reply, std::string& askTo, bool& refreshMap, bool& wait);
    std::string anyMaster() const;
    void ensureMap();

    ConnectionOptions m_options;
    std::vector<std::string> m_seeds;
    SlotMap m_map;
    std::string m_anyMaster;
    bool m_stale = true;
    std::map<std::string, std::unique_ptr<RedisLink>> m_links;
    ClusterRedirects m_redirects;
};

} // namespace delayq
