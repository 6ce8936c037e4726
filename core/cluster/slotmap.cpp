#include "cluster/slotmap.h"

#include "cluster/keyslot.h"
#include "transport/urltext.h"
#include <delayq/error.h>

#include <algorithm>
#include <set>

namespace delayq {

namespace {

std::string addressOf(const Reply& node, const std::string& answeredBy)
{
    if (!node.isArray() || node.elements.size() < 2)
        throw Error(ErrorCode::Protocol, "unexpected node in the CLUSTER SLOTS reply");
    const std::string& host = node.elements[0].str;
    const long long port = node.elements[1].toInteger();
    if (host.empty() || host == "?")
        return answeredBy.substr(0, answeredBy.rfind(':')) + ":" + std::to_string(port);
    return UrlText::hostPort(host, port);
}

} // namespace

SlotMap::SlotMap() : m_owner(keyslot::kSlots, -1) {}

SlotMap SlotMap::fromClusterSlots(const Reply& reply, const std::string& answeredBy)
{
    if (!reply.isArray())
        throw Error(ErrorCode::Protocol, "unexpected reply to CLUSTER SLOTS");
    SlotMap map;
    for (const auto& range : reply.elements) {
        if (!range.isArray() || range.elements.size() < 3)
            throw Error(ErrorCode::Protocol, "unexpected slot range in the CLUSTER SLOTS reply");
        const long long first = range.elements[0].toInteger();
        const long long last = range.elements[1].toInteger();
        if (first < 0 || last >= keyslot::kSlots || first > last)
            throw Error(ErrorCode::Protocol, "a slot range out of bounds in CLUSTER SLOTS");
        const int master = map.indexOf(addressOf(range.elements[2], answeredBy));
        for (long long slot = first; slot <= last; ++slot)
            map.m_owner[static_cast<size_t>(slot)] = static_cast<int16_t>(master);
        for (size_t i = 3; i < range.elements.size(); ++i) {
            const std::string replica = addressOf(range.elements[i], answeredBy);
            if (std::find(map.m_replicas.begin(), map.m_replicas.end(), replica) ==
                map.m_replicas.end())
                map.m_replicas.push_back(replica);
        }
    }
    return map;
}

int SlotMap::indexOf(const std::string& address)
{
    const auto it = std::find(m_nodes.begin(), m_nodes.end(), address);
    if (it != m_nodes.end())
        return static_cast<int>(it - m_nodes.begin());
    m_nodes.push_back(address);
    return static_cast<int>(m_nodes.size()) - 1;
}

const std::string& SlotMap::masterOf(int slot) const
{
    static const std::string none;
    if (slot < 0 || slot >= keyslot::kSlots)
        return none;
    const int owner = m_owner[static_cast<size_t>(slot)];
    return owner < 0 ? none : m_nodes[static_cast<size_t>(owner)];
}

void SlotMap::assign(int slot, const std::string& address)
{
    if (slot >= 0 && slot < keyslot::kSlots)
        m_owner[static_cast<size_t>(slot)] = static_cast<int16_t>(indexOf(address));
}

std::vector<std::string> SlotMap::masters() const
{
    std::set<std::string> serving;
    for (int16_t owner : m_owner)
        if (owner >= 0)
            serving.insert(m_nodes[static_cast<size_t>(owner)]);
    return {serving.begin(), serving.end()};
}

std::vector<std::string> SlotMap::nodes() const
{
    std::vector<std::string> all = masters();
    for (const auto& n : m_nodes)
        if (std::find(all.begin(), all.end(), n) == all.end())
            all.push_back(n);
    for (const auto& r : m_replicas)
        if (std::find(all.begin(), all.end(), r) == all.end())
            all.push_back(r);
    return all;
}

int SlotMap::coveredSlots() const
{
    return static_cast<int>(
        std::count_if(m_owner.begin(), m_owner.end(), [](int16_t owner) { return owner >= 0; }));
}

} // namespace delayq
