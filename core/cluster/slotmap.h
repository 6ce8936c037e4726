#pragma once

#include <delayq/reply.h>

#include <cstdint>
#include <string>
#include <vector>

namespace delayq {

// Which master serves each of the 16384 slots of a Redis Cluster, and the replicas seen, as
// one CLUSTER SLOTS reply described them. Nodes are "host:port" addresses.
class SlotMap
{
public:
    SlotMap();

    // Parses a CLUSTER SLOTS reply; `answeredBy` stands in for a node whose address the
    // reply leaves empty (a node that does not know its own IP). Throws Error(Protocol).
    static SlotMap fromClusterSlots(const Reply& reply, const std::string& answeredBy);

    // The address of the master serving the slot; empty when no node serves it.
    const std::string& masterOf(int slot) const;
    // A MOVED answer: the slot is served by `address` now.
    void assign(int slot, const std::string& address);
    // The masters serving at least one slot, sorted (a stable order for cursors).
    std::vector<std::string> masters() const;
    // Every node seen, masters first.
    std::vector<std::string> nodes() const;
    int coveredSlots() const;
    bool empty() const { return m_nodes.empty(); }

private:
    int indexOf(const std::string& address);

    std::vector<std::string> m_nodes; // masters and replicas; the owner indexes this
    std::vector<std::string> m_replicas;
    std::vector<int16_t> m_owner; // per slot: index into m_nodes, -1 when uncovered
};

} // namespace delayq
