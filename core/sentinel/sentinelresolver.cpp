#include "sentinel/sentinelresolver.h"

#include "transport/urltext.h"

#include <delayq/connection.h>
#include <delayq/error.h>

#include <algorithm>
#include <set>

namespace delayq {

namespace {

using std::chrono::milliseconds;

// A sentinel that does not answer within this is skipped for the next: the group exists so
// that one of them being away costs little.
constexpr milliseconds kSentinelTimeout{1000};

std::string joined(const std::vector<std::string>& notes)
{
    std::string text;
    for (const auto& n : notes)
        text += (text.empty() ? "" : "; ") + n;
    return text;
}

} // namespace

SentinelResolver::SentinelResolver(const ConnectionOptions& options) : m_options(options) {}

ConnectionOptions SentinelResolver::sentinelOptions(const SentinelNode& node) const
{
    ConnectionOptions o;
    o.host = node.host;
    o.port = node.port;
    o.user = m_options.sentinel.user;
    o.password = m_options.sentinel.password;
    // rediss+sentinel://: the sentinels speak TLS too, checked against the same CA (a group
    // is one deployment); a sni= names the master and the sentinels alike.
    o.tls = m_options.tls;
    o.connectTimeout = std::min(m_options.connectTimeout, kSentinelTimeout);
    o.commandTimeout = std::min(m_options.commandTimeout, kSentinelTimeout);
    return o;
}

SentinelResolver::Answer SentinelResolver::ask(const SentinelNode& node) const
{
    Answer answer;
    try {
        Connection sentinel(sentinelOptions(node));
        const Reply r = sentinel.command(
            {"SENTINEL", "get-master-addr-by-name", m_options.sentinel.masterName});
        answer.answered = true;
        if (r.isArray() && r.elements.size() == 2) {
            answer.host = r.elements[0].toString();
            answer.port = static_cast<int>(r.elements[1].toInteger());
        } else if (!r.isNil()) {
            answer.why = "unexpected reply to SENTINEL get-master-addr-by-name";
        }
    } catch (const Error& e) {
        // Down, slow, a wrong sentinel password, or not a sentinel at all: all mean "ask the
        // next one", and the message keeps why.
        answer.why = e.what();
    }
    return answer;
}

std::string SentinelResolver::connect(const TryMaster& tryMaster)
{
    const SentinelOptions& s = m_options.sentinel;
    std::vector<std::string> notes;
    std::set<std::string> tried; // each named master is connected to once per resolution
    bool anyAnswered = false;
    bool anyKnew = false;
    for (const auto& node : s.nodes) {
        const std::string from = UrlText::hostPort(node.host, node.port);
        const Answer a = ask(node);
        anyAnswered = anyAnswered || a.answered;
        if (!a.why.empty()) {
            notes.push_back(from + ": " + a.why);
            continue;
        }
        if (a.host.empty())
            continue; // does not know the name; another may
        anyKnew = true;
        const std::string master = UrlText::hostPort(a.host, a.port);
        if (!tried.insert(master).second)
            continue;
        try {
            if (tryMaster(a.host, a.port))
                return master;
            notes.push_back(from + " names " + master +
                            ", but it is a replica now (a failover is under way?)");
        } catch (const Error& e) {
            if (!e.isUnreachable())
                throw;
            notes.push_back(from + " names " + master + ", which is away: " + e.what());
        }
    }
    fail(notes, anyAnswered, anyKnew);
}

void SentinelResolver::fail(const std::vector<std::string>& notes, bool anyAnswered,
                            bool anyKnew) const
{
    const SentinelOptions& s = m_options.sentinel;
    if (!anyAnswered)
        throw Error(ErrorCode::Connection, "no sentinel of " + s.nodeList() +
                                               " answered: " + joined(notes) +
                                               " (check the URL and that the sentinels run)");
    if (!anyKnew)
        throw Error(ErrorCode::Connection, "no sentinel knows a master named '" + s.masterName +
                                               "' (asked " + s.nodeList() +
                                               (notes.empty() ? "" : "; " + joined(notes)) +
                                               "): check the name after the sentinels in the URL");
    throw Error(ErrorCode::Connection, "no master named '" + s.masterName +
                                           "' could be reached through " + s.nodeList() + ": " +
                                           joined(notes) + " (it will be asked again)");
}

bool SentinelResolver::confirmMaster(Connection& connection)
{
    Reply role;
    try {
        role = connection.command({"ROLE"});
    } catch (const Error& e) {
        if (e.code() == ErrorCode::NoPermission)
            return true;
        throw;
    }
    if (role.isArray() && !role.elements.empty() && role.elements[0].toString() == "master")
        return true;
    connection.disconnect();
    return false;
}

} // namespace delayq
