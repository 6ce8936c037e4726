#include <delayq/connectionoptions.h>

#include "sentinelurl.h"
#include <delayq/error.h>

#include <charconv>
#include <cstdlib>
#include <cstring>

namespace delayq {

namespace {

[[noreturn]] void refuse(const std::string& what)
{
    throw Error(ErrorCode::InvalidArgument,
                "invalid Redis URL: " + what +
                    " (expected redis://[user[:password]@]host[:port][/db] or "
                    "unix:///path/to/redis.sock[?db=N])");
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

std::string percentDecode(const std::string& text, const char* part)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        if (i + 2 >= text.size())
            refuse(std::string("truncated %-escape in the ") + part);
        int hi = hexValue(text[i + 1]);
        int lo = hexValue(text[i + 2]);
        if (hi < 0 || lo < 0)
            refuse(std::string("bad %-escape in the ") + part);
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

int parseNumber(const std::string& text, int min, int max, const char* what)
{
    int value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < min ||
        value > max)
        refuse(std::string(what) + " must be a whole number from " + std::to_string(min) + " to " +
               std::to_string(max));
    return value;
}

// Every byte but the unreserved ones (and those in keep) as %XX, so that fromUrl() reads the
// text back as it was, whatever it holds.
std::string percentEncode(const std::string& text, const char* keep = "")
{
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~' || (c && std::strchr(keep, c))) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

bool hasControl(const std::string& text)
{
    for (unsigned char c : text)
        if (c < 0x20 || c == 0x7f)
            return true;
    return false;
}

// ?db=N&user=U&password=P, for both schemes. Anything else is refused rather than ignored:
// a setting the user believes in but that does nothing is worse than an error.
void applyQuery(const std::string& query, ConnectionOptions& options)
{
    size_t start = 0;
    while (start < query.size()) {
        size_t end = query.find('&', start);
        std::string pair = query.substr(start, end == std::string::npos ? end : end - start);
        start = end == std::string::npos ? query.size() : end + 1;
        if (pair.rfind("db=", 0) == 0)
            options.db = parseNumber(pair.substr(3), 0, 100000, "the database number");
        else if (pair.rfind("password=", 0) == 0)
            options.password = percentDecode(pair.substr(9), "password");
        else if (pair.rfind("user=", 0) == 0)
            options.user = percentDecode(pair.substr(5), "user");
        else if (!pair.empty())
            refuse("unknown parameter in the query (only db, user and password are known)");
    }
}

} // namespace

ConnectionOptions ConnectionOptions::fromUrl(const std::string& url)
{
    ConnectionOptions options;
    if (url.empty())
        refuse("it is empty");
    if (url.size() > 4096)
        refuse("it is longer than 4096 characters");
    if (hasControl(url))
        refuse("it contains control characters");
    if (sentinelurl::matches(url))
        return sentinelurl::parse(url);

    const std::string unixScheme = "unix://";
    const std::string redisScheme = "redis://";
    if (url.rfind(unixScheme, 0) == 0) {
        std::string rest = url.substr(unixScheme.size());
        std::string query;
        if (auto q = rest.find('?'); q != std::string::npos) {
            query = rest.substr(q + 1);
            rest = rest.substr(0, q);
        }
        options.unixSocket = percentDecode(rest, "socket path");
        // A decoded NUL would silently cut the path short when it reaches the C API.
        if (hasControl(options.unixSocket))
            refuse("the socket path contains control characters");
        if (options.unixSocket.empty() || options.unixSocket[0] != '/')
            refuse("the socket path must be absolute (unix:///path/to/redis.sock)");
        if (options.unixSocket.size() > 107)
            refuse("the socket path is longer than 107 bytes");
        applyQuery(query, options);
        return options;
    }
    if (url.rfind(redisScheme, 0) != 0) {
        if (url.rfind("rediss://", 0) == 0)
            refuse("TLS (rediss://) is not supported; use redis:// or unix://");
        // Only the scheme is echoed: the rest may hold a password.
        const auto sep = url.find("://");
        if (sep != std::string::npos && sep <= 16)
            refuse("unknown scheme '" + url.substr(0, sep) + "'");
        refuse("unknown scheme");
    }

    std::string rest = url.substr(redisScheme.size());
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
    std::string hostPort = rest;
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
    if (!path.empty())
        options.db = parseNumber(path, 0, 100000, "the database number");
    applyQuery(query, options);
    return options;
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
    if (sentinel.enabled())
        return sentinelurl::display(*this);
    std::string auth;
    if (!user.empty() || !password.empty()) {
        auth = user;
        if (!password.empty())
            auth += user.empty() ? "***" : ":***";
        auth += "@";
    }
    if (!unixSocket.empty())
        return "unix://" + unixSocket + (db ? "?db=" + std::to_string(db) : "");
    std::string shownHost = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    return "redis://" + auth + shownHost + ":" + std::to_string(port) +
           (db ? "/" + std::to_string(db) : "");
}

std::string ConnectionOptions::urlWithoutPassword() const
{
    if (sentinel.enabled())
        return sentinelurl::withoutPassword(*this);
    std::string query;
    auto addParameter = [&query](const std::string& pair) {
        query += (query.empty() ? "?" : "&") + pair;
    };
    if (!unixSocket.empty()) {
        if (db)
            addParameter("db=" + std::to_string(db));
        if (!user.empty())
            addParameter("user=" + percentEncode(user));
        return "unix://" + percentEncode(unixSocket, "/") + query;
    }
    if (!user.empty())
        addParameter("user=" + percentEncode(user));
    const std::string shownHost = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    return "redis://" + shownHost + ":" + std::to_string(port) + "/" + std::to_string(db) + query;
}

} // namespace delayq
