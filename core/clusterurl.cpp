#include "clusterurl.h"

#include <delayq/error.h>

#include <charconv>
#include <cstring>

namespace delayq::clusterurl {

namespace {

const char* const kPlainScheme = "redis+cluster://";
const char* const kTlsScheme = "rediss+cluster://";
constexpr size_t kMaxSeeds = 64;

[[noreturn]] void refuse(const std::string& what)
{
    throw Error(ErrorCode::InvalidArgument,
                "invalid Redis Cluster URL: " + what +
                    " (expected redis+cluster://[user[:password]@]host[:port][,host[:port]...]"
                    "[?user=U&password=P], or rediss+cluster:// with the rediss:// TLS keys)");
}

bool startsWith(const std::string& text, const char* prefix)
{
    return text.rfind(prefix, 0) == 0;
}

// "host", "host:port", "[v6]" or "[v6]:port"; the port defaults to 6379.
ClusterSeed parseSeed(const std::string& text, size_t index)
{
    const std::string which = "node " + std::to_string(index + 1);
    ClusterSeed seed;
    std::string portText;
    bool hasPort = false;
    const bool bracketed = !text.empty() && text[0] == '[';
    if (bracketed) {
        const auto close = text.find(']');
        if (close == std::string::npos)
            refuse("unclosed [ in the IPv6 host of " + which);
        seed.host = text.substr(1, close - 1);
        const std::string after = text.substr(close + 1);
        if (!after.empty() && after[0] != ':')
            refuse("unexpected text after the IPv6 host of " + which);
        hasPort = !after.empty();
        portText = hasPort ? after.substr(1) : "";
    } else if (const auto colon = text.rfind(':'); colon != std::string::npos) {
        seed.host = text.substr(0, colon);
        portText = text.substr(colon + 1);
        hasPort = true;
    } else {
        seed.host = text;
    }
    if (seed.host.empty())
        refuse("the host of " + which + " is empty");
    for (char c : seed.host)
        if ((c == ':' && !bracketed) || c == ' ' || c == '@' || c == '#' || c == '[' || c == ']' ||
            c == '%')
            refuse("the host of " + which + " contains a character a host name cannot hold" +
                   (c == ':' ? " (an IPv6 host goes in brackets)" : ""));
    if (hasPort) {
        int port = 0;
        const auto [ptr, ec] =
            std::from_chars(portText.data(), portText.data() + portText.size(), port);
        if (portText.empty() || ec != std::errc() || ptr != portText.data() + portText.size() ||
            port < 1 || port > 65535)
            refuse("the port of " + which + " must be a whole number from 1 to 65535");
        seed.port = port;
    }
    return seed;
}

std::vector<ClusterSeed> parseSeeds(const std::string& text)
{
    if (text.empty())
        refuse("no node is listed (host:port,host:port after the scheme)");
    std::vector<ClusterSeed> seeds;
    size_t start = 0;
    for (;;) {
        const auto comma = text.find(',', start);
        seeds.push_back(parseSeed(text.substr(start, comma - start), seeds.size()));
        if (seeds.size() > kMaxSeeds)
            refuse("more than " + std::to_string(kMaxSeeds) + " nodes are listed");
        if (comma == std::string::npos)
            return seeds;
        start = comma + 1;
    }
}

// The query of a single-server URL (from '?' on), or "".
std::string queryOf(const std::string& url)
{
    const auto q = url.find('?');
    return q == std::string::npos ? std::string() : url.substr(q);
}

// The options as one server's, for the parts that are the same on every node (user,
// password, TLS keys), so that they are parsed and written by one piece of code.
ConnectionOptions asServer(const ConnectionOptions& options)
{
    ConnectionOptions server = options;
    server.cluster = ClusterOptions();
    return server;
}

} // namespace

bool matches(const std::string& url)
{
    return startsWith(url, kPlainScheme) || startsWith(url, kTlsScheme);
}

ConnectionOptions parse(const std::string& url)
{
    const bool tls = startsWith(url, kTlsScheme);
    std::string rest = url.substr(std::strlen(tls ? kTlsScheme : kPlainScheme));
    // The user info ends at the last '@' before the query, as in redis:// URLs.
    const auto lastAt = rest.rfind('@', rest.find('?', 0));
    const size_t hostStart = lastAt == std::string::npos ? 0 : lastAt + 1;
    std::string query;
    if (const auto q = rest.find('?', hostStart); q != std::string::npos) {
        query = rest.substr(q);
        rest.resize(q);
    }
    std::string path;
    if (const auto slash = rest.find('/', hostStart); slash != std::string::npos) {
        path = rest.substr(slash + 1);
        rest.resize(slash);
    }
    if (!path.empty() && path != "0")
        refuse("a cluster has only database 0 (leave the path empty)");
    const std::string userInfo = lastAt == std::string::npos ? "" : rest.substr(0, lastAt + 1);
    const auto seeds = parseSeeds(rest.substr(hostStart));
    // The user info and the query mean what they mean in a redis:// URL: parse them as one.
    ConnectionOptions options;
    try {
        options = ConnectionOptions::fromUrl((tls ? "rediss://" : "redis://") + userInfo +
                                             "127.0.0.1/0" + query);
    } catch (const Error& e) {
        refuse(std::string("in its user info or query: ") + e.what());
    }
    if (options.db != 0)
        refuse("a cluster has only database 0 (drop ?db=)");
    options.cluster.seeds = seeds;
    options.host = seeds.front().host;
    options.port = seeds.front().port;
    return options;
}

std::string display(const ConnectionOptions& options)
{
    std::string auth;
    if (!options.user.empty() || !options.password.empty()) {
        auth = options.user;
        if (!options.password.empty())
            auth += options.user.empty() ? "***" : ":***";
        auth += "@";
    }
    return (options.tls.enabled ? kTlsScheme : kPlainScheme) + auth + options.cluster.seedList() +
           "/" + queryOf(asServer(options).displayUrl());
}

std::string withoutPassword(const ConnectionOptions& options)
{
    return (options.tls.enabled ? kTlsScheme : kPlainScheme) + options.cluster.seedList() + "/" +
           queryOf(asServer(options).urlWithoutPassword());
}

} // namespace delayq::clusterurl
