#include <delayq/connection.h>

#include "cluster/clusterrouter.h"
#include "cluster/keyslot.h"
#include "sentinel/sentinelresolver.h"
#include "transport/redislink.h"
#include <delayq/error.h>

namespace delayq {

namespace {

long long localNowUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

bool isNoScript(const Reply& r)
{
    return r.isError() && r.str.starts_with("NOSCRIPT");
}

std::vector<std::string> evalArgs(const char* verb, std::string_view body,
                                  const Connection::ScriptCall& call)
{
    std::vector<std::string> args;
    args.reserve(3 + call.keys.size() + call.args.size());
    args.emplace_back(verb);
    args.emplace_back(body);
    args.push_back(std::to_string(call.keys.size()));
    args.insert(args.end(), call.keys.begin(), call.keys.end());
    args.insert(args.end(), call.args.begin(), call.args.end());
    return args;
}

} // namespace

Connection::Connection(ConnectionOptions options) : m_options(std::move(options)) {}

Connection::~Connection() = default;

bool Connection::isConnected() const
{
    return m_link != nullptr || (m_cluster && m_cluster->hasMap() && m_clusterUp);
}

void Connection::disconnect()
{
    m_link.reset();
    if (m_cluster)
        m_cluster->disconnect();
    m_clusterUp = false;
}

std::string Connection::securityDescription() const
{
    if (m_cluster)
        return m_cluster->securityDescription();
    return m_link ? m_link->securityDescription() : std::string();
}

void Connection::connect()
{
    if (isConnected())
        return;
    if (m_options.sentinel.enabled())
        connectThroughSentinel();
    else if (m_options.cluster.enabled() || m_cluster)
        connectToCluster();
    else
        connectToServer();
}

void Connection::connectToServer()
{
    if (isConnected())
        return;
    m_link = RedisLink::open(m_options);
    if (!m_clusterChecked && m_options.unixSocket.empty() && !m_options.sentinel.enabled()) {
        m_clusterChecked = true;
        if (isClusterNode()) {
            m_link.reset();
            connectToCluster();
            return;
        }
    }
    measureClockOffset();
}

void Connection::connectToCluster()
{
    if (!m_cluster)
        m_cluster = std::make_unique<ClusterRouter>(m_options);
    m_cluster->refresh();
    m_clusterUp = true;
    measureClockOffset();
}

bool Connection::isClusterNode()
{
    Reply info;
    try {
        m_link->send({{"INFO", "cluster"}});
        info = m_link->read();
    } catch (const Error& e) {
        failIo(e, "INFO cluster");
    }
    // A user whose ACL denies INFO gets an error here: it is then taken as one server.
    return !info.isError() && info.str.find("cluster_enabled:1") != std::string::npos;
}

void Connection::connectThroughSentinel()
{
    const std::string master =
        SentinelResolver(m_options).connect([this](const std::string& host, int port) {
            m_options.host = host;
            m_options.port = port;
            connectToServer();
            return SentinelResolver::confirmMaster(*this);
        });
    if (!m_sentinelMaster.empty() && master != m_sentinelMaster)
        ++m_masterChanges;
    m_sentinelMaster = master;
}

void Connection::dropIfDemoted(const std::vector<Reply>& replies)
{
    // Only a reconnect asks the sentinels again; staying on a demoted master would answer
    // READONLY to every write for as long as it lives (asynq #959, BullMQ #648).
    for (const auto& r : replies)
        if (r.isError() && errorFromReply(r.str).code() == ErrorCode::ReadOnlyReplica) {
            disconnect();
            return;
        }
}

std::vector<ClusterNodeInfo> Connection::clusterNodes()
{
    ensureConnected();
    return m_cluster ? m_cluster->nodes() : std::vector<ClusterNodeInfo>();
}

std::string Connection::nodeForKey(const std::string& key)
{
    ensureConnected();
    return m_cluster ? m_cluster->masterOfSlot(keyslot::ofKey(key)) : serverAddress();
}

std::vector<std::string> Connection::masters()
{
    ensureConnected();
    return m_cluster ? m_cluster->masters() : std::vector<std::string>{serverAddress()};
}

std::vector<Reply> Connection::pipelineOn(const std::string& master,
                                          const std::vector<std::vector<std::string>>& commands)
{
    ensureConnected();
    if (!m_cluster)
        return pipeline(commands);
    return m_cluster->pipelineOn(master, commands);
}

ClusterRedirects Connection::clusterRedirects() const
{
    return m_cluster ? m_cluster->redirects() : ClusterRedirects();
}

ClusterRedirects Connection::totalClusterRedirects()
{
    return ClusterRouter::totalRedirects();
}

std::string Connection::serverAddress() const
{
    if (!m_options.unixSocket.empty())
        return m_options.unixSocket;
    const bool v6 = m_options.host.find(':') != std::string::npos;
    return (v6 ? "[" + m_options.host + "]" : m_options.host) + ":" +
           std::to_string(m_options.port);
}

// The offset is known to within half the round trip of the TIME that measured it. A server
// that was busy (a slow script, DEBUG SLEEP, a fork) or a link that stalled answers one TIME
// late and that sample is off by half the stall: 1.5 s after a 3 s stall, and every "due in"
// shown from it with it. So a slow sample is taken again, twice at most, and the quickest kept.
void Connection::measureClockOffset()
{
    constexpr long long kQuickRoundTripUs = 50'000;
    long long bestRoundTripUs = -1;
    for (int sample = 0; sample < 3 && (bestRoundTripUs < 0 || bestRoundTripUs > kQuickRoundTripUs);
         ++sample) {
        const auto [offsetUs, roundTripUs] = sampleClockOffset();
        if (roundTripUs < 0)
            return; // no TIME for this user: the offset stays as it was
        if (bestRoundTripUs < 0 || roundTripUs < bestRoundTripUs) {
            bestRoundTripUs = roundTripUs;
            m_clockOffsetUs = offsetUs;
        }
    }
    m_clockOffsetMs = m_clockOffsetUs / 1000;
    m_offsetKnown = true;
}

std::pair<long long, long long> Connection::sampleClockOffset()
{
    const long long sentUs = localNowUs();
    Reply t;
    if (m_cluster) {
        try {
            t = m_cluster->pipeline({{"TIME"}}).front();
        } catch (const Error&) {
            disconnect();
            throw;
        }
    } else {
        try {
            m_link->send({{"TIME"}});
            t = m_link->read();
        } catch (const Error& e) {
            failIo(e, "TIME");
        }
    }
    // An ACL user without TIME keeps offset 0: reads still work, "due now" is then local.
    if (!t.isArray() || t.elements.size() != 2)
        return {0, -1};
    const long long receivedUs = localNowUs();
    // In µs against the midpoint of the round trip: a whole-ms offset read after the reply
    // lags the server by up to a ms, enough for "due now" to miss a task due this instant.
    const long long serverUs = t.elements[0].toInteger() * 1'000'000 + t.elements[1].toInteger();
    return {serverUs - (sentUs + receivedUs) / 2, receivedUs - sentUs};
}

long long Connection::serverNowMs()
{
    // The offset is measured at connect, so the first call connects. It never throws: with
    // the server unreachable, the last measured offset is the best estimate there is.
    // One try only: while the server is unreachable, a clock read must not wait on a connect
    // each time (any later call that connects measures the offset anyway).
    if (!m_offsetKnown && !m_offsetTried) {
        m_offsetTried = true;
        try {
            ensureConnected();
        } catch (const Error&) {
        }
    }
    return (localNowUs() + m_clockOffsetUs) / 1000;
}

void Connection::ensureConnected()
{
    if (!isConnected())
        connect();
}

void Connection::failIo(const Error& error, const std::string& during)
{
    // The stream may hold half a reply now: only a fresh connection is safe.
    const Error inContext = m_link ? m_link->inContext(error, during) : error;
    disconnect();
    throw inContext;
}

std::optional<Error> Connection::writeRefusal(const std::string& key)
{
    try {
        command({"DEL", key});
        return std::nullopt;
    } catch (const Error& e) {
        if (e.code() != ErrorCode::NoPermission && !e.refusesWrites())
            throw;
        return e;
    }
}

Reply Connection::command(const std::vector<std::string>& args)
{
    auto replies = pipeline({args});
    if (replies.front().isError())
        throw errorFromReply(replies.front().str);
    return std::move(replies.front());
}

std::vector<Reply> Connection::pipeline(const std::vector<std::vector<std::string>>& commands)
{
    ensureConnected();
    if (m_cluster)
        return clusterPipeline(commands);
    std::vector<Reply> replies;
    replies.reserve(commands.size());
    auto name = [&commands](size_t i) {
        return i >= commands.size() || commands[i].empty() ? std::string("a command")
                                                           : commands[i][0];
    };
    try {
        m_link->send(commands);
    } catch (const Error& e) {
        failIo(e, name(0));
    }
    for (size_t i = 0; i < commands.size(); ++i) {
        try {
            replies.push_back(m_link->read());
        } catch (const Error& e) {
            failIo(e, name(i));
        }
    }
    if (m_options.sentinel.enabled())
        dropIfDemoted(replies);
    return replies;
}

std::vector<Reply>
Connection::clusterPipeline(const std::vector<std::vector<std::string>>& commands)
{
    try {
        return m_cluster->pipeline(commands);
    } catch (const Error&) {
        // The router dropped the broken link and asks for the map again on the next call.
        m_clusterUp = false;
        throw;
    }
}

Reply Connection::evalScript(const Script& script, const std::vector<std::string>& keys,
                             const std::vector<std::string>& args)
{
    auto replies = evalPipeline(script, {ScriptCall{keys, args}});
    if (replies.front().isError())
        throw errorFromReply(replies.front().str);
    return std::move(replies.front());
}

std::vector<Reply> Connection::evalPipeline(const Script& script,
                                            const std::vector<ScriptCall>& calls)
{
    std::vector<std::vector<std::string>> commands;
    commands.reserve(calls.size());
    for (const auto& call : calls)
        commands.push_back(evalArgs("EVALSHA", script.sha1, call));
    auto replies = pipeline(commands);

    // A flushed or restarted server forgot the script: the NOSCRIPT calls did not run,
    // so sending them again with the body is safe.
    std::vector<size_t> retry;
    for (size_t i = 0; i < replies.size(); ++i)
        if (isNoScript(replies[i]))
            retry.push_back(i);
    if (!retry.empty()) {
        std::vector<std::vector<std::string>> again;
        again.reserve(retry.size());
        for (size_t i : retry)
            again.push_back(evalArgs("EVAL", script.source, calls[i]));
        auto second = pipeline(again);
        for (size_t k = 0; k < retry.size(); ++k)
            replies[retry[k]] = std::move(second[k]);
    }
    return replies;
}

std::chrono::microseconds Connection::ping()
{
    ensureConnected();
    auto start = std::chrono::steady_clock::now();
    command({"PING"});
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                 start);
}

std::string Connection::serverVersion()
{
    Reply info = command({"INFO", "server"});
    const std::string& text = info.str;
    const std::string key = "redis_version:";
    auto pos = text.find(key);
    if (pos == std::string::npos)
        return "unknown";
    auto end = text.find_first_of("\r\n", pos);
    return text.substr(pos + key.size(), end - pos - key.size());
}

const std::string& Connection::aclUser()
{
    if (!m_aclUser.empty())
        return m_aclUser;
    try {
        m_aclUser = command({"ACL", "WHOAMI"}).str;
    } catch (const Error& e) {
        if (e.isUnreachable())
            throw;
        // NOPERM, or a server before ACLs (6.0): say who the URL claimed, or that we cannot tell.
        m_aclUser = !m_options.user.empty()               ? m_options.user
                    : e.code() == ErrorCode::NoPermission ? "?"
                                                          : "default";
    }
    if (m_aclUser.empty())
        m_aclUser = "?";
    return m_aclUser;
}

long long Connection::serverTimeMs()
{
    Reply t = command({"TIME"});
    if (!t.isArray() || t.elements.size() != 2)
        throw Error(ErrorCode::Protocol, "unexpected reply to TIME");
    return t.elements[0].toInteger() * 1000 + t.elements[1].toInteger() / 1000;
}

} // namespace delayq
