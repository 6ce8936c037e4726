#include "transport/urltext.h"

#include <delayq/error.h>

#include <charconv>
#include <cstring>

namespace delayq {

namespace {

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

} // namespace

UrlText::UrlText(std::string kind, std::string expected)
    : m_kind(std::move(kind)), m_expected(std::move(expected))
{}

UrlText::UrlText(std::string kind, std::string expected, std::string plainScheme,
                 std::string tlsScheme)
    : m_kind(std::move(kind)), m_expected(std::move(expected)),
      m_plainScheme(std::move(plainScheme)), m_tlsScheme(std::move(tlsScheme))
{}

bool UrlText::matchesScheme(const std::string& url) const
{
    return url.starts_with(m_plainScheme) || isTlsScheme(url);
}

bool UrlText::isTlsScheme(const std::string& url) const
{
    return url.starts_with(m_tlsScheme);
}

std::string UrlText::afterScheme(const std::string& url) const
{
    return url.substr(scheme(isTlsScheme(url)).size());
}

std::vector<UrlText::Parameter> UrlText::queryParameters(const std::string& query)
{
    std::vector<Parameter> parameters;
    size_t start = 0;
    while (start < query.size()) {
        const auto end = query.find('&', start);
        const std::string pair = query.substr(start, end - start);
        start = end == std::string::npos ? query.size() : end + 1;
        if (pair.empty())
            continue;
        const auto eq = pair.find('=');
        parameters.push_back({pair.substr(0, eq),
                              eq == std::string::npos ? "" : pair.substr(eq + 1),
                              eq != std::string::npos});
    }
    return parameters;
}

void UrlText::requireCertAndKey(const TlsOptions& tls) const
{
    if (tls.certFile.empty() != tls.keyFile.empty())
        refuse("a client certificate needs both cert= and key=");
}

std::string UrlText::maskedUserInfo(const std::string& user, const std::string& password)
{
    if (user.empty() && password.empty())
        return "";
    return user + (password.empty() ? "" : user.empty() ? "***" : ":***") + "@";
}

std::string UrlText::hostPort(const std::string& host, long long port)
{
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

void UrlText::refuse(const std::string& what) const
{
    throw Error(ErrorCode::InvalidArgument,
                "invalid " + m_kind + ": " + what + " (expected " + m_expected + ")");
}

std::string UrlText::percentDecode(const std::string& text, const std::string& part) const
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        if (i + 2 >= text.size())
            refuse("truncated %-escape in the " + part);
        const int hi = hexValue(text[i + 1]);
        const int lo = hexValue(text[i + 2]);
        if (hi < 0 || lo < 0)
            refuse("bad %-escape in the " + part);
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

int UrlText::parseNumber(const std::string& text, int min, int max, const std::string& what) const
{
    int value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < min ||
        value > max)
        refuse(what + " must be a whole number from " + std::to_string(min) + " to " +
               std::to_string(max));
    return value;
}

bool UrlText::parseSwitch(const std::string& text, const std::string& what) const
{
    if (text == "1" || text == "true" || text == "yes")
        return true;
    if (text == "0" || text == "false" || text == "no")
        return false;
    refuse(what + " must be 1 or 0");
}

std::string UrlText::pathParameter(const std::string& value, const std::string& what) const
{
    std::string path = percentDecode(value, what);
    if (path.empty())
        refuse("the " + what + " is empty");
    if (hasControl(path))
        refuse("the " + what + " contains control characters");
    return path;
}

UrlText::HostPort UrlText::parseHostPort(const std::string& text, int defaultPort,
                                         const std::string& which) const
{
    HostPort result{{}, defaultPort};
    std::string portText;
    bool hasPort = false;
    const bool bracketed = !text.empty() && text[0] == '[';
    if (bracketed) {
        const auto close = text.find(']');
        if (close == std::string::npos)
            refuse("unclosed [ in the IPv6 host of " + which);
        result.host = text.substr(1, close - 1);
        const std::string after = text.substr(close + 1);
        if (!after.empty() && after[0] != ':')
            refuse("unexpected text after the IPv6 host of " + which);
        hasPort = !after.empty();
        portText = hasPort ? after.substr(1) : "";
    } else if (const auto colon = text.rfind(':'); colon != std::string::npos) {
        result.host = text.substr(0, colon);
        portText = text.substr(colon + 1);
        hasPort = true;
    } else {
        result.host = text;
    }
    if (result.host.empty())
        refuse("the host of " + which + " is empty");
    for (char c : result.host)
        if ((c == ':' && !bracketed) || c == ' ' || c == '@' || c == '#' || c == '[' || c == ']' ||
            c == '%')
            refuse("the host of " + which + " contains a character a host name cannot hold" +
                   (c == ':' ? " (an IPv6 host goes in brackets)" : ""));
    if (hasPort)
        result.port = parseNumber(portText, 1, 65535, "the port of " + which);
    return result;
}

std::vector<UrlText::HostPort> UrlText::parseHostList(const std::string& text, int defaultPort,
                                                      const std::string& noun, size_t most,
                                                      const std::string& empty) const
{
    if (text.empty())
        refuse(empty);
    std::vector<HostPort> list;
    size_t start = 0;
    for (;;) {
        const auto comma = text.find(',', start);
        const std::string which = noun + " " + std::to_string(list.size() + 1);
        list.push_back(parseHostPort(text.substr(start, comma - start), defaultPort, which));
        if (list.size() > most)
            refuse("more than " + std::to_string(most) + " " + noun + "s are listed");
        if (comma == std::string::npos)
            return list;
        start = comma + 1;
    }
}

bool UrlText::isTlsParameter(const std::string& name)
{
    for (const char* known : {"ca", "ca_dir", "cert", "key", "sni", "insecure"})
        if (name == known)
            return true;
    return false;
}

void UrlText::applyTlsParameter(const std::string& name, const std::string& value,
                                TlsOptions& tls) const
{
    if (name == "ca")
        tls.caFile = pathParameter(value, "CA file (ca=)");
    else if (name == "ca_dir")
        tls.caDir = pathParameter(value, "CA directory (ca_dir=)");
    else if (name == "cert")
        tls.certFile = pathParameter(value, "client certificate (cert=)");
    else if (name == "key")
        tls.keyFile = pathParameter(value, "client key (key=)");
    else if (name == "sni")
        tls.serverName = pathParameter(value, "server name (sni=)");
    else if (name == "insecure")
        tls.insecure = parseSwitch(value, "insecure=");
}

std::string UrlText::tlsQuery(const TlsOptions& tls)
{
    std::string query;
    auto add = [&query](const char* name, const std::string& value) {
        if (!value.empty())
            query += std::string("&") + name + "=" + percentEncode(value, "/");
    };
    add("ca", tls.caFile);
    add("ca_dir", tls.caDir);
    add("cert", tls.certFile);
    add("key", tls.keyFile);
    add("sni", tls.serverName);
    if (tls.insecure)
        query += "&insecure=1";
    return query;
}

std::string UrlText::percentEncode(const std::string& text, const char* keep)
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

bool UrlText::hasControl(const std::string& text)
{
    for (unsigned char c : text)
        if (c < 0x20 || c == 0x7f)
            return true;
    return false;
}

} // namespace delayq
