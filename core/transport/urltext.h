#pragma once

#include <delayq/tlsoptions.h>

#include <string>
#include <vector>

namespace delayq {

// The pieces every URL form of ConnectionOptions reads and writes the same way (%-escapes,
// numbers, switches, the TLS query keys), with refusals worded for the form at hand:
// "invalid Redis URL: <what> (expected …)".
class UrlText
{
public:
    // kind: "Redis URL", "Redis Sentinel URL"; expected: the grammar shown after a refusal.
    UrlText(std::string kind, std::string expected);
    // A form with a scheme of its own and its TLS twin ("redis+cluster://", "rediss+cluster://").
    UrlText(std::string kind, std::string expected, std::string plainScheme, std::string tlsScheme);

    // Whether the URL starts with either scheme; whether with the TLS one.
    bool matchesScheme(const std::string& url) const;
    bool isTlsScheme(const std::string& url) const;
    const std::string& scheme(bool tls) const { return tls ? m_tlsScheme : m_plainScheme; }
    // What follows the scheme of a URL that matchesScheme.
    std::string afterScheme(const std::string& url) const;

    // Throws Error(InvalidArgument) naming what is wrong and the expected form.
    [[noreturn]] void refuse(const std::string& what) const;

    std::string percentDecode(const std::string& text, const std::string& part) const;
    int parseNumber(const std::string& text, int min, int max, const std::string& what) const;
    // 1, 0, true, false, yes, no: an explicit switch, so a typo does not turn a check off.
    bool parseSwitch(const std::string& text, const std::string& what) const;
    struct HostPort
    {
        std::string host;
        int port = 0;
    };
    // "h1[:p1],h2[:p2],…": each "host", "host:port", "[v6]" or "[v6]:port", the port
    // defaultPort when not written. `noun` names an item in a refusal ("the port of sentinel
    // 2 …"); `empty` says what is missing when the list is.
    std::vector<HostPort> parseHostList(const std::string& text, int defaultPort,
                                        const std::string& noun, size_t most,
                                        const std::string& empty) const;

    struct Parameter
    {
        std::string name;
        std::string value; // as written, %-escapes and all
        bool hasValue = false;
    };
    // The name[=value] pairs of a query (the text after '?'), empty ones left out.
    static std::vector<Parameter> queryParameters(const std::string& query);
    // Refuses a client certificate without its key, or a key without its certificate.
    void requireCertAndKey(const TlsOptions& tls) const;

    // One of the TLS keys of the query (tlsoptions.h) into tls.
    void applyTlsParameter(const std::string& name, const std::string& value,
                           TlsOptions& tls) const;

    static bool isTlsParameter(const std::string& name);
    // "&ca=…&cert=…" for the TLS options that are set (the passphrase never).
    static std::string tlsQuery(const TlsOptions& tls);
    // Every byte but the unreserved ones (and those in keep) as %XX, so that the parser reads
    // the text back as it was, whatever it holds.
    static std::string percentEncode(const std::string& text, const char* keep = "");
    static bool hasControl(const std::string& text);
    // "user:***@", "***@", "user@" or "": the user info of a URL shown to people.
    static std::string maskedUserInfo(const std::string& user, const std::string& password);
    // "host:port", an IPv6 host in brackets.
    static std::string hostPort(const std::string& host, long long port);
    // "h1:p1,h2:p2": what parseHostList reads, from items with a host and a port.
    template <class Item> static std::string hostList(const std::vector<Item>& items)
    {
        std::string list;
        for (const auto& item : items)
            list += (list.empty() ? "" : ",") + hostPort(item.host, item.port);
        return list;
    }

private:
    // A file or directory name: %-decoded, no control characters (a NUL would cut it short in
    // the C API), and not empty (an empty ca= is a mistake, not "the system store").
    std::string pathParameter(const std::string& value, const std::string& what) const;
    HostPort parseHostPort(const std::string& text, int defaultPort,
                           const std::string& which) const;

    std::string m_kind;
    std::string m_expected;
    std::string m_plainScheme;
    std::string m_tlsScheme;
};

} // namespace delayq
