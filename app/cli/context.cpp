#include "context.h"

#include "output/textoutput.h"

#include <delayq/timeparse.h>
#include <delayq/version.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cli {

namespace {

// A file named by a flag or the URL that cannot be read is a usage error (exit 2), found
// before any connection is tried.
void checkReadable(const std::string& path, const char* what)
{
    if (path.empty())
        return;
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        throw UsageError(std::string("cannot read the ") + what + " " + printable(path) + ": " +
                         std::strerror(errno));
    std::fclose(f);
}

void applyFlag(const std::string& value, std::string& field)
{
    if (!value.empty())
        field = value;
}

// "connected to rediss://h:6380/0?ca=… over TLSv1.3, TLS_AES_256_GCM_SHA384 (certificate
// verified)", for --verbose; on a cluster, followed by "; cluster: 3 masters".
std::string describe(delayq::Connection& connection)
{
    const auto& options = connection.options();
    const std::string security = connection.securityDescription();
    std::string how;
    if (!security.empty())
        how = security +
              (options.tls.insecure ? " (certificate NOT verified)" : " (certificate verified)");
    else
        how = options.unixSocket.empty() ? "plain TCP (not encrypted)" : "a unix socket";
    std::string topology;
    if (connection.isCluster())
        topology = "; cluster: " + std::to_string(connection.masters().size()) + " masters";
    return "connected to " + connectedTo(connection) + " over " + how + topology;
}

} // namespace

std::string connectedTo(const delayq::Connection& connection)
{
    const delayq::ConnectionOptions& o = connection.options();
    if (!o.sentinel.enabled())
        return o.displayUrl();
    return "master '" + o.sentinel.masterName + "' at " + connection.serverAddress() +
           " (named by the sentinels of " + o.displayUrl() + ")";
}

Context::Context(GlobalOptions global, Args args)
    : m_global(std::move(global)), m_args(std::move(args))
{}

delayq::ConnectionOptions Context::connectionOptions() const
{
    auto options = delayq::ConnectionOptions::fromUrl(m_global.url);
    options.readOnly = m_global.readOnly;
    const GlobalOptions& g = m_global;
    const bool tlsFlags = !g.tlsCa.empty() || !g.tlsCaDir.empty() || !g.tlsCert.empty() ||
                          !g.tlsKey.empty() || !g.tlsServerName.empty() || g.tlsInsecure;
    if (tlsFlags && !options.tls.enabled)
        throw UsageError("the --tls-* options need a rediss:// URL (got " + options.displayUrl() +
                         ")");
    delayq::TlsOptions& tls = options.tls;
    applyFlag(g.tlsCa, tls.caFile);
    applyFlag(g.tlsCaDir, tls.caDir);
    applyFlag(g.tlsCert, tls.certFile);
    applyFlag(g.tlsKey, tls.keyFile);
    applyFlag(g.tlsServerName, tls.serverName);
    tls.insecure = tls.insecure || g.tlsInsecure;
    if (tls.certFile.empty() != tls.keyFile.empty())
        throw UsageError("a client certificate needs both --tls-cert and --tls-key");
    if (const char* passphrase = std::getenv("DELAYQ_TLS_KEY_PASSPHRASE"))
        tls.keyPassphrase = passphrase;
    checkReadable(tls.caFile, "CA file");
    checkReadable(tls.certFile, "client certificate");
    checkReadable(tls.keyFile, "client key");
    return options;
}

delayq::Connection& Context::connection()
{
    if (!m_connection) {
        auto options = connectionOptions();
        // Every change this command makes is recorded in the queue's audit trail.
        options.actor = delayq::Actor::ofThisProcess("delayq", DELAYQ_VERSION);
        if (options.tls.enabled && options.tls.insecure)
            std::fputs("delayq: WARNING: TLS certificate verification is off (--tls-insecure): "
                       "the connection is encrypted, but anyone in between can read and change "
                       "it\n",
                       stderr);
        m_connection = std::make_unique<delayq::Connection>(options);
        m_connection->connect();
        if (m_global.verbose)
            std::fputs(("delayq: " + printable(describe(*m_connection)) + "\n").c_str(), stderr);
    }
    return *m_connection;
}

delayq::Queue Context::queue(size_t index, bool requireCurrentLayout)
{
    const auto& words = m_args.positional();
    if (index >= words.size())
        throw UsageError(m_args.command() + ": the queue name is missing");
    delayq::Keys::validateQueueName(words[index]);
    delayq::Queue queue(connection(), words[index], m_global.prefix);
    if (requireCurrentLayout)
        queue.requireCurrentLayout();
    return queue;
}

delayq::PlainQueue Context::plainQueue(size_t index)
{
    const auto& words = m_args.positional();
    if (index >= words.size())
        throw UsageError(m_args.command() + ": the key is missing");
    std::optional<delayq::PlainQueue::ScoreUnit> unit;
    if (!m_global.scoreUnit.empty())
        unit = delayq::PlainQueue::parseUnit(m_global.scoreUnit);
    return delayq::PlainQueue(connection(), words[index], unit);
}

long long Context::serverNow()
{
    return connection().serverNowMs();
}

std::string Context::when(long long ms)
{
    return delayq::formatTime(ms) + " (" + delayq::formatRelative(ms, serverNow()) + ")";
}

std::string Context::whenPast(long long ms)
{
    return delayq::formatTime(ms) + " (" + formatAgo(ms, serverNow()) + ")";
}

void Context::print(const std::string& text) const
{
    std::fwrite(text.data(), 1, text.size(), stdout);
}

void Context::printJson(const JsonWriter& json) const
{
    print(json.str() + "\n");
}

} // namespace cli
