#include <delayq/connectionoptions.h>

#include "transport/urlform.h"
#include "transport/urltext.h"
#include <delayq/error.h>

#include <charconv>
#include <cstdlib>
#include <cstring>

namespace delayq {

namespace {

const UrlText kUrl("Redis URL", "redis://[user[:password]@]host[:port][/db], "
                                "rediss://[user[:password]@]host[:port][/db][?ca=FILE&...] or "
                                "unix:///path/to/redis.sock[?db=N]");

[[noreturn]] void refuse(const std::string& what)
{
    kUrl.refuse(what);
}

std::string percentDecode(const std::string& text, const char* part)
{
    return kUrl.percentDecode(text, part);
}

int parseNumber(const std::string& text, int min, int max, const char* what)
{
    return kUrl.parseNumber(text, min, max, what);
}

// ?db=N&user=U&password=P for every scheme, and the TLS keys for rediss://. Anything else is
// refused rather than ignored: a setting the user believes in but that does nothing is worse
// than an error.
void applyQuery(const std::string& query, ConnectionOptions& options)
{
    for (const auto& [name, value, hasValue] : UrlText::queryParameters(query)) {
        if (name == "db" && hasValue)
            options.db = parseNumber(value, 0, 100000, "the database number");
        else if (name == "password" && hasValue)
            options.password = percentDecode(value, "password");
        else if (name == "user" && hasValue)
            options.user = percentDecode(value, "user");
        else if (hasValue && UrlText::isTlsParameter(name) && options.tls.enabled)
            kUrl.applyTlsParameter(name, value, options.tls);
        else if (hasValue && UrlText::isTlsParameter(name))
            refuse("the TLS parameter " + name + "= needs a rediss:// URL");
        else
            refuse("unknown parameter in the query (known: db, user, password; with rediss:// "
                   "also ca, ca_dir, cert, key, sni, insecure)");
    }
    kUrl.requireCertAndKey(options.tls);
}

ConnectionOptions parseUnixUrl(const std::string& rest)
{
    ConnectionOptions options;
    std::string path = rest;
    std::string query;
    if (auto q = path.find('?'); q != std::string::npos) {
        query = path.substr(q + 1);
        path = path.substr(0, q);
    }
    options.unixSocket = percentDecode(path, "socket path");
    // A decoded NUL would silently cut the path short when it reaches the C API.
    if (UrlText::hasControl(options.unixSocket))
        refuse("the socket path contains control characters");
    if (options.unixSocket.empty() || options.unixSocket[0] != '/')
        refuse("the socket path must be absolute (unix:///path/to/redis.sock)");
    if (options.unixSocket.size() > 107)
        refuse("the socket path is longer than 107 bytes");
    applyQuery(query, options);
    return options;
}

// host, host:port, [v6] or [v6]:port into the options.
void parseHostPort(const std::string& hostPort, ConnectionOptions& options)
{
    const bool bracketed = !hostPort.empty() && hostPort[0] == '[';
    if (bracketed) {
        auto close = hostPort.find(']');
        if (close == std::string::npos)
            refuse("unclosed [ in an IPv6 host");
        options.host = hostPort.substr(1, close - 1);
        std::string after = hostPort.substr(close + 1);
        if (!after.empty()) {
            if (after[0] != ':')
                refuse("unexpected text after the IPv6 host");
            options.port = parseNumber(after.substr(1), 1, 65535, "the port");
        }
    } else if (auto colon = hostPort.rfind(':'); colon != std::string::npos) {
        options.host = hostPort.substr(0, colon);
        options.port = parseNumber(hostPort.substr(colon + 1), 1, 65535, "the port");
    } else {
        options.host = hostPort;
    }
    if (options.host.empty())
        refuse("the host is missing");
    for (char c : options.host) {
        if (c == ':' && !bracketed)
            refuse("the host holds a ':' (an IPv6 host goes in brackets: redis://[::1]:6379)");
        if (c == ' ' || c == '/' || c == '@' || c == '?' || c == '#' || c == '[' || c == ']')
            refuse("the host contains a character a host name cannot hold");
    }
}

// What follows redis:// or rediss://.
ConnectionOptions parseServerUrl(std::string rest, bool tls)
{
    ConnectionOptions options;
    options.tls.enabled = tls;
    // The path and query start after the user info, so an unencoded '/' or '?' in a password
    // does not split the URL in the wrong place.
    const auto lastAt = rest.rfind('@');
    const size_t hostStart = lastAt == std::string::npos ? 0 : lastAt + 1;
    std::string query;
    if (auto q = rest.find('?', hostStart); q != std::string::npos) {
        query = rest.substr(q + 1);
        rest = rest.substr(0, q);
    }
    std::string path;
    if (auto slash = rest.find('/', hostStart); slash != std::string::npos) {
        path = rest.substr(slash + 1);
        rest = rest.substr(0, slash);
    }
    if (auto at = rest.rfind('@'); at != std::string::npos) {
        std::string userInfo = rest.substr(0, at);
        rest = rest.substr(at + 1);
        if (auto colon = userInfo.find(':'); colon != std::string::npos) {
            options.user = percentDecode(userInfo.substr(0, colon), "user");
            options.password = percentDecode(userInfo.substr(colon + 1), "password");
        } else {
            // redis://secret@host is the old password-only form.
            options.password = percentDecode(userInfo, "password");
        }
    }
    parseHostPort(rest, options);
    if (!path.empty())
        options.db = parseNumber(path, 0, 100000, "the database number");
    applyQuery(query, options);
    return options;
}

// The TLS keys as a query, in one fixed order, for displayUrl() and urlWithoutPassword().

} // namespace

ConnectionOptions ConnectionOptions::fromUrl(const std::string& url)
{
    if (url.empty())
        refuse("it is empty");
    if (url.size() > 4096)
        refuse("it is longer than 4096 characters");
    if (UrlText::hasControl(url))
        refuse("it contains control characters");
    if (const UrlForm* form = UrlForm::ofUrl(url))
        return form->parse(url);
    for (const char* scheme : {"unix://", "redis://", "rediss://"}) {
        const std::string prefix = scheme;
        if (url.rfind(prefix, 0) != 0)
            continue;
        const std::string rest = url.substr(prefix.size());
        if (prefix == "unix://")
            return parseUnixUrl(rest);
        return parseServerUrl(rest, prefix == "rediss://");
    }
    // Only the scheme is echoed: the rest may hold a password.
    const auto sep = url.find("://");
    if (sep != std::string::npos && sep <= 16)
        refuse("unknown scheme '" + url.substr(0, sep) + "'");
    refuse("unknown scheme");
}

std::string ConnectionOptions::defaultUrl()
{
    const char* env = std::getenv("REDIS_URL");
    if (env && *env)
        return env;
    return "redis://127.0.0.1:6379";
}

std::string ConnectionOptions::displayUrl() const
{
    if (const UrlForm* form = UrlForm::of(*this))
        return form->display(*this);
    const std::string auth = UrlText::maskedUserInfo(user, password);
    if (!unixSocket.empty())
        return "unix://" + unixSocket + (db ? "?db=" + std::to_string(db) : "");
    std::string query = tls.enabled ? UrlText::tlsQuery(tls) : "";
    if (!query.empty())
        query[0] = '?';
    // With a query the db is always written, so the query is not read as part of the host.
    return (tls.enabled ? "rediss://" : "redis://") + auth + UrlText::hostPort(host, port) +
           (db || !query.empty() ? "/" + std::to_string(db) : "") + query;
}

std::string ConnectionOptions::urlWithoutPassword() const
{
    if (const UrlForm* form = UrlForm::of(*this))
        return form->withoutPassword(*this);
    std::string query;
    auto addParameter = [&query](const std::string& pair) {
        query += (query.empty() ? "?" : "&") + pair;
    };
    if (!unixSocket.empty()) {
        if (db)
            addParameter("db=" + std::to_string(db));
        if (!user.empty())
            addParameter("user=" + UrlText::percentEncode(user));
        return "unix://" + UrlText::percentEncode(unixSocket, "/") + query;
    }
    if (!user.empty())
        addParameter("user=" + UrlText::percentEncode(user));
    if (tls.enabled)
        query += UrlText::tlsQuery(tls);
    if (!query.empty())
        query[0] = '?';
    return (tls.enabled ? "rediss://" : "redis://") + UrlText::hostPort(host, port) + "/" +
           std::to_string(db) + query;
}

} // namespace delayq
