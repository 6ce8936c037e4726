#include "transport/urlform.h"
#include "transport/urltext.h"

#include <delayq/error.h>

namespace delayq {

namespace clusterurl {

namespace {

constexpr size_t kMaxSeeds = 64;

const UrlText kUrl("Redis Cluster URL",
                   "redis+cluster://[user[:password]@]host[:port][,host[:port]...]"
                   "[?user=U&password=P], or rediss+cluster:// with the rediss:// TLS keys",
                   "redis+cluster://", "rediss+cluster://");

[[noreturn]] void refuse(const std::string& what)
{
    kUrl.refuse(what);
}

std::vector<ClusterSeed> parseSeeds(const std::string& text)
{
    std::vector<ClusterSeed> seeds;
    for (const auto& n : kUrl.parseHostList(text, 6379, "node", kMaxSeeds,
                                            "no node is listed (host:port,host:port after the "
                                            "scheme)"))
        seeds.push_back({n.host, n.port});
    return seeds;
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

bool matches(const std::string& url)
{
    return kUrl.matchesScheme(url);
}

ConnectionOptions parse(const std::string& url)
{
    const bool tls = kUrl.isTlsScheme(url);
    std::string rest = kUrl.afterScheme(url);
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
    return kUrl.scheme(options.tls.enabled) +
           UrlText::maskedUserInfo(options.user, options.password) + options.cluster.seedList() +
           "/" + queryOf(asServer(options).displayUrl());
}

std::string withoutPassword(const ConnectionOptions& options)
{
    return kUrl.scheme(options.tls.enabled) + options.cluster.seedList() + "/" +
           queryOf(asServer(options).urlWithoutPassword());
}

} // namespace

} // namespace clusterurl

const UrlForm UrlForm::cluster = {
    clusterurl::matches, clusterurl::parse,
    [](const ConnectionOptions& options) { return options.cluster.enabled(); }, clusterurl::display,
    clusterurl::withoutPassword};

} // namespace delayq
