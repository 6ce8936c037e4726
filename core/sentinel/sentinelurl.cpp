#include "transport/urlform.h"
#include "transport/urltext.h"

#include <delayq/error.h>

#include <charconv>

namespace delayq {

namespace sentinelurl {

namespace {

constexpr size_t kMaxNodes = 32;

const UrlText kUrl("Redis Sentinel URL",
                   "redis+sentinel://[user[:password]@]host[:port][,host[:port]...]"
                   "/master[/db][?sentinel_user=U&sentinel_password=P], or rediss+sentinel:// "
                   "with the TLS keys of rediss://",
                   "redis+sentinel://", "rediss+sentinel://");

[[noreturn]] void refuse(const std::string& what)
{
    kUrl.refuse(what);
}

std::string percentDecode(const std::string& text, const std::string& part)
{
    return kUrl.percentDecode(text, part);
}

int parseNumber(const std::string& text, int min, int max, const std::string& what)
{
    return kUrl.parseNumber(text, min, max, what);
}

std::vector<SentinelNode> parseNodes(const std::string& text)
{
    std::vector<SentinelNode> nodes;
    for (const auto& n :
         kUrl.parseHostList(text, 26379, "sentinel", kMaxNodes,
                            "no sentinel is listed (host:port,host:port before the master name)"))
        nodes.push_back({n.host, n.port});
    return nodes;
}

// "MASTER" or "MASTER/DB".
void parsePath(const std::string& path, ConnectionOptions& options)
{
    const auto slash = path.find('/');
    const std::string name = percentDecode(path.substr(0, slash), "master name");
    if (name.empty())
        refuse("the master name is missing (…/mymaster after the sentinels)");
    if (name.size() > 256 || UrlText::hasControl(name) || name.find(' ') != std::string::npos)
        refuse("the master name must be 1 to 256 characters without spaces or control "
               "characters");
    options.sentinel.masterName = name;
    if (slash == std::string::npos)
        return;
    const std::string db = path.substr(slash + 1);
    if (db.find('/') != std::string::npos)
        refuse("unexpected text after the database number");
    if (!db.empty())
        options.db = parseNumber(db, 0, 100000, "the database number");
}

// Anything but the five known keys is refused rather than ignored, as for redis:// URLs.
void applyQuery(const std::string& query, ConnectionOptions& options)
{
    for (const auto& [key, value, hasValue] : UrlText::queryParameters(query)) {
        if (!hasValue && key.size() <= 32)
            refuse("the parameter '" + key + "' has no value");
        if (key == "db")
            options.db = parseNumber(value, 0, 100000, "the database number");
        else if (key == "user")
            options.user = percentDecode(value, "user");
        else if (key == "password")
            options.password = percentDecode(value, "password");
        else if (key == "sentinel_user")
            options.sentinel.user = percentDecode(value, "sentinel user");
        else if (key == "sentinel_password")
            options.sentinel.password = percentDecode(value, "sentinel password");
        else if (UrlText::isTlsParameter(key) && options.tls.enabled)
            kUrl.applyTlsParameter(key, value, options.tls);
        else if (UrlText::isTlsParameter(key))
            refuse("the TLS parameter " + key + "= needs a rediss+sentinel:// URL");
        else
            refuse("unknown parameter" + (key.size() <= 32 ? " '" + key + "'" : std::string()) +
                   " in the query (known: db, user, password, sentinel_user, "
                   "sentinel_password; with rediss+sentinel:// also ca, ca_dir, cert, key, sni, "
                   "insecure)");
    }
    kUrl.requireCertAndKey(options.tls);
}

void applyUserInfo(const std::string& userInfo, ConnectionOptions& options)
{
    if (const auto colon = userInfo.find(':'); colon != std::string::npos) {
        options.user = percentDecode(userInfo.substr(0, colon), "user");
        options.password = percentDecode(userInfo.substr(colon + 1), "password");
    } else {
        // As in redis://secret@host: a lone word is the password.
        options.password = percentDecode(userInfo, "password");
    }
}

bool matches(const std::string& url)
{
    return kUrl.matchesScheme(url);
}

ConnectionOptions parse(const std::string& url)
{
    ConnectionOptions options;
    options.tls.enabled = kUrl.isTlsScheme(url);
    std::string rest = kUrl.afterScheme(url);
    // The query starts at the first '?', so a '?' in a password must be written %3F here
    // (the sentinel password usually travels in the query, and may hold an '@').
    std::string query;
    if (const auto q = rest.find('?'); q != std::string::npos) {
        query = rest.substr(q + 1);
        rest.resize(q);
    }
    // The user info ends at the last '@', so '@' and '/' in the password need no escape.
    if (const auto at = rest.rfind('@'); at != std::string::npos) {
        applyUserInfo(rest.substr(0, at), options);
        rest.erase(0, at + 1);
    }
    const auto slash = rest.find('/');
    options.sentinel.nodes = parseNodes(rest.substr(0, slash));
    parsePath(slash == std::string::npos ? "" : rest.substr(slash + 1), options);
    applyQuery(query, options);
    return options;
}

std::string display(const ConnectionOptions& options)
{
    const SentinelOptions& s = options.sentinel;
    std::string query;
    if (!s.user.empty())
        query += "?sentinel_user=" + s.user;
    if (!s.password.empty())
        query += (query.empty() ? "?" : "&") + std::string("sentinel_password=***");
    if (options.tls.enabled)
        query += UrlText::tlsQuery(options.tls);
    if (!query.empty())
        query[0] = '?';
    return kUrl.scheme(options.tls.enabled) +
           UrlText::maskedUserInfo(options.user, options.password) + s.nodeList() + "/" +
           s.masterName + (options.db ? "/" + std::to_string(options.db) : "") + query;
}

std::string withoutPassword(const ConnectionOptions& options)
{
    const SentinelOptions& s = options.sentinel;
    std::string query;
    auto addParameter = [&query](const std::string& pair) {
        query += (query.empty() ? "?" : "&") + pair;
    };
    if (!options.user.empty())
        addParameter("user=" + UrlText::percentEncode(options.user));
    if (!s.user.empty())
        addParameter("sentinel_user=" + UrlText::percentEncode(s.user));
    if (options.tls.enabled)
        query += UrlText::tlsQuery(options.tls);
    if (!query.empty())
        query[0] = '?';
    return kUrl.scheme(options.tls.enabled) + s.nodeList() + "/" +
           UrlText::percentEncode(s.masterName) + "/" + std::to_string(options.db) + query;
}

} // namespace

} // namespace sentinelurl

const UrlForm UrlForm::sentinel = {
    sentinelurl::matches, sentinelurl::parse,
    [](const ConnectionOptions& options) { return options.sentinel.enabled(); },
    sentinelurl::display, sentinelurl::withoutPassword};

} // namespace delayq
