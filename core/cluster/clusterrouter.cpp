#include "cluster/clusterrouter.h"

#include "cluster/keyslot.h"
#include "transport/redislink.h"
#include "transport/urltext.h"
#include <delayq/error.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <sstream>
#include <thread>

namespace delayq {

namespace {

std::atomic<long long> g_moved{0};
std::atomic<long long> g_ask{0};
std::atomic<long long> g_retries{0};

// The options of one node: the cluster's user, password and TLS at that node's address, with
// no seed list, so that messages name the node itself.
ConnectionOptions nodeOptions(const ConnectionOptions& options, const std::string& address)
{
    ConnectionOptions node = options;
    node.cluster = ClusterOptions();
    const auto colon = address.rfind(':');
    int port = 0;
    const char* end = address.data() + address.size();
    if (colon == std::string::npos || colon == 0 ||
        std::from_chars(address.data() + colon + 1, end, port).ptr != end || port < 1 ||
        port > 65535)
        throw Error(ErrorCode::Protocol, "the cluster named a node without a usable address: '" +
                                             address.substr(0, 64) + "'");
    std::string host = address.substr(0, colon);
    if (host.size() > 1 && host.front() == '[')
        host = host.substr(1, host.size() - 2);
    node.host = host;
    node.port = port;
    return node;
}

// "MOVED 3999 127.0.0.1:6381" → slot and address (a bare ":6381" is on the node that said it).
bool parseRedirect(const std::string& text, const char* word, const std::string& from, int& slot,
                   std::string& address)
{
    if (!text.starts_with(word))
        return false;
    std::istringstream in(text.substr(std::char_traits<char>::length(word)));
    if (!(in >> slot >> address) || address.empty())
        return false;
    if (address.front() == ':')
        address = from.substr(0, from.rfind(':')) + address;
    return true;
}

Reply errorReply(const std::string& text)
{
    Reply r;
    r.type = Reply::Type::Error;
    r.str = text;
    return r;
}

ClusterNodeInfo parseNodeLine(const std::string& line)
{
    std::istringstream in(line);
    std::string id, address, flags, masterId, pingSent, pongReceived, epoch, linkState;
    in >> id >> address >> flags >> masterId >> pingSent >> pongReceived >> epoch >> linkState;
    ClusterNodeInfo node;
    node.id = id;
    node.address = address.substr(0, address.find('@'));
    const bool myself = flags.find("myself") != std::string::npos;
    node.master = flags.find("master") != std::string::npos;
    node.masterId = masterId == "-" ? "" : masterId;
    node.reachable = flags.find("fail") == std::string::npos &&
                     flags.find("noaddr") == std::string::npos &&
                     (myself || linkState == "connected");
    std::string range;
    while (in >> range) {
        if (range.empty() || range[0] == '[')
            continue; // a slot being imported or migrated: its owner is listed elsewhere
        const auto dash = range.find('-');
        const int first = std::atoi(range.substr(0, dash).c_str());
        const int last = dash == std::string::npos ? first : std::atoi(range.c_str() + dash + 1);
        node.slotRanges.emplace_back(first, last);
    }
    return node;
}

} // namespace

ClusterRouter::ClusterRouter(const ConnectionOptions& options) : m_options(options)
{
    if (options.cluster.enabled())
        for (const auto& seed : options.cluster.seeds)
            m_seeds.push_back(UrlText::hostPort(seed.host, seed.port));
    else
        m_seeds.push_back(UrlText::hostPort(options.host, options.port));
}

ClusterRouter::~ClusterRouter() = default;

ClusterRedirects ClusterRouter::totalRedirects()
{
    return {g_moved.load(), g_ask.load(), g_retries.load()};
}

void ClusterRouter::disconnect()
{
    m_links.clear();
    m_stale = true;
}

RedisLink& ClusterRouter::link(const std::string& address)
{
    auto& slot = m_links[address];
    if (!slot) {
        try {
            slot = RedisLink::open(nodeOptions(m_options, address));
        } catch (const Error&) {
            m_links.erase(address);
            m_stale = true; // a node that went away: the map may name its successor now
            throw;
        }
    }
    return *slot;
}

void ClusterRouter::dropLink(const std::string& address)
{
    m_links.erase(address);
    m_stale = true;
}

void ClusterRouter::refresh()
{
    // The nodes of the last map first (they know the newest topology), then the seeds.
    std::vector<std::string> candidates = m_map.nodes();
    for (const auto& seed : m_seeds)
        if (std::find(candidates.begin(), candidates.end(), seed) == candidates.end())
            candidates.push_back(seed);
    std::string failures;
    bool notCluster = false;
    for (const auto& address : candidates) {
        try {
            const auto replies = pipelineOn(address, {{"CLUSTER", "SLOTS"}});
            const Reply& reply = replies.front();
            if (reply.isError()) {
                notCluster =
                    notCluster || reply.str.find("cluster support disabled") != std::string::npos;
                failures += "; " + address + ": " + reply.str;
                continue;
            }
            SlotMap map = SlotMap::fromClusterSlots(reply, address);
            if (map.empty()) {
                failures += "; " + address + ": it serves no slot yet";
                continue;
            }
            m_map = std::move(map);
            const auto masters = m_map.masters();
            m_anyMaster = masters.empty() ? std::string() : masters.front();
            m_stale = false;
            return;
        } catch (const Error& e) {
            // Every node has the same user, password and TLS settings: a refusal of those is
            // the answer, and keeps its code (the app asks for a password on Auth).
            if (e.code() == ErrorCode::Auth || e.code() == ErrorCode::Tls)
                throw;
            failures += "; " + address + ": " + e.what();
        }
    }
    if (notCluster)
        throw Error(ErrorCode::Connection,
                    "not a Redis Cluster: " + failures.substr(2) +
                        " (use redis:// for a single server, redis+sentinel:// for Sentinel)");
    throw Error(ErrorCode::Connection, "no node of the Redis Cluster answered: " +
                                           failures.substr(2) + " (check the seed list)");
}

void ClusterRouter::ensureMap()
{
    if (m_stale || m_map.empty())
        refresh();
}

std::string ClusterRouter::anyMaster() const
{
    // Prefer a node already connected: a keyless PING or TIME then opens no new link.
    for (const auto& [address, link] : m_links)
        if (link && address == m_anyMaster)
            return address;
    return m_anyMaster;
}

std::vector<Reply> ClusterRouter::pipelineOn(const std::string& address, const Commands& commands)
{
    RedisLink& node = link(address);
    std::vector<Reply> replies;
    replies.reserve(commands.size());
    try {
        node.send(commands);
        for (size_t i = 0; i < commands.size(); ++i)
            replies.push_back(node.read());
    } catch (const Error& e) {
        const Error inContext = node.inContext(
            e, commands.empty() || commands[0].empty() ? "a command" : commands[0][0]);
        dropLink(address);
        throw inContext;
    }
    return replies;
}

void ClusterRouter::exchange(const std::map<std::string, std::vector<size_t>>& groups,
                             const Commands& commands, const std::vector<std::string>& askTo,
                             std::vector<Reply>& replies)
{
    // Every node's batch goes out before any is read, so the nodes work at the same time.
    std::vector<std::string> sent;
    auto fail = [&](const std::string& address, const Error& e, size_t index) {
        const Error inContext = m_links.count(address) && m_links[address]
                                    ? m_links[address]->inContext(e, commands[index][0])
                                    : e;
        for (const auto& a : sent)
            dropLink(a); // their replies are unread: only fresh links are safe
        dropLink(address);
        throw inContext;
    };
    for (const auto& [address, indices] : groups) {
        Commands batch;
        batch.reserve(indices.size());
        for (size_t i : indices) {
            if (!askTo[i].empty())
                batch.push_back({"ASKING"});
            batch.push_back(commands[i]);
        }
        try {
            link(address).send(batch);
        } catch (const Error& e) {
            fail(address, e, indices.front());
        }
        sent.push_back(address);
    }
    for (const auto& [address, indices] : groups) {
        RedisLink& node = *m_links[address];
        for (size_t i : indices) {
            try {
                if (!askTo[i].empty())
                    node.read(); // ASKING's +OK
                replies[i] = node.read();
            } catch (const Error& e) {
                fail(address, e, i);
            }
        }
    }
}

bool ClusterRouter::needsRetry(const Reply& reply, std::string& askTo, bool& refreshMap, bool& wait)
{
    askTo.clear();
    if (!reply.isError())
        return false;
    int slot = -1;
    std::string address;
    if (parseRedirect(reply.str, "MOVED ", m_anyMaster, slot, address)) {
        m_map.assign(slot, address);
        refreshMap = true; // one slot moved: others probably did too
        ++m_redirects.moved;
        ++g_moved;
        return true;
    }
    if (parseRedirect(reply.str, "ASK ", m_anyMaster, slot, address)) {
        askTo = address; // this command only: the slot is still the source's until it is moved
        ++m_redirects.ask;
        ++g_ask;
        return true;
    }
    if (reply.str.starts_with("TRYAGAIN") || reply.str.starts_with("CLUSTERDOWN")) {
        wait = true; // keys half migrated, or a failover in progress
        ++m_redirects.retries;
        ++g_retries;
        return true;
    }
    return false;
}

std::vector<Reply> ClusterRouter::pipeline(const Commands& commands)
{
    ensureMap();
    std::vector<Reply> replies(commands.size());
    std::vector<int> slots(commands.size());
    std::vector<size_t> todo(commands.size());
    for (size_t i = 0; i < commands.size(); ++i) {
        slots[i] = keyslot::ofCommand(commands[i]);
        todo[i] = i;
    }
    std::vector<std::string> askTo(commands.size());
    const int maxRounds = std::max(1, m_options.cluster.maxRedirects) + 1;
    for (int round = 0;; ++round) {
        std::map<std::string, std::vector<size_t>> groups;
        for (size_t i : todo) {
            const std::string& target = !askTo[i].empty() ? askTo[i]
                                        : slots[i] < 0    ? anyMaster()
                                                          : m_map.masterOf(slots[i]);
            if (target.empty())
                replies[i] = errorReply("CLUSTERDOWN Hash slot " + std::to_string(slots[i]) +
                                        " is not served by any master");
            else
                groups[target].push_back(i);
        }
        exchange(groups, commands, askTo, replies);
        std::vector<size_t> again;
        bool refreshMap = false;
        bool wait = false;
        for (size_t i : todo)
            if (needsRetry(replies[i], askTo[i], refreshMap, wait))
                again.push_back(i);
        if (again.empty())
            return replies;
        if (round + 1 >= maxRounds) {
            for (size_t i : again)
                replies[i] = errorReply(replies[i].str + " (still redirected after " +
                                        std::to_string(maxRounds - 1) +
                                        " tries: the cluster is resharding or failing over; "
                                        "retry later)");
            return replies;
        }
        if (wait)
            std::this_thread::sleep_for(std::chrono::milliseconds(std::min(25 << round, 400)));
        if (refreshMap || wait) {
            try {
                refresh();
            } catch (const Error&) {
                // Retried on the map there is (a MOVED has updated it already).
            }
        }
        todo = std::move(again);
    }
}

std::vector<ClusterNodeInfo> ClusterRouter::nodes()
{
    ensureMap();
    std::string failures;
    for (const auto& address : m_map.nodes()) {
        try {
            const Reply reply = pipelineOn(address, {{"CLUSTER", "NODES"}}).front();
            if (reply.isError()) {
                failures += "; " + address + ": " + reply.str;
                continue;
            }
            std::vector<ClusterNodeInfo> out;
            std::istringstream in(reply.str);
            for (std::string line; std::getline(in, line);) {
                if (line.empty())
                    continue;
                out.push_back(parseNodeLine(line));
                // A node that never met another lists itself as ":port", with no host: it is
                // the one that answered, at the host we reached it by.
                if (std::string& a = out.back().address; !a.empty() && a[0] == ':')
                    a = address.substr(0, address.rfind(':')) + a;
            }
            std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
                return a.master != b.master ? a.master : a.address < b.address;
            });
            return out;
        } catch (const Error& e) {
            failures += "; " + address + ": " + e.what();
        }
    }
    throw Error(ErrorCode::Connection,
                "no node of the Redis Cluster answered CLUSTER NODES: " + failures.substr(2));
}

std::string ClusterRouter::securityDescription() const
{
    for (const auto& [address, link] : m_links)
        if (link)
            return link->securityDescription();
    return {};
}

} // namespace delayq
