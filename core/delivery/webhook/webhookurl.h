#pragma once

#include <string>

namespace delayq::webhook {

// A webhook's http:// or https:// URL, checked before anything connects. The URL is given to
// libcurl as written (its query belongs to the endpoint); user:password@ in it is sent as
// HTTP Basic authentication and never printed.
class WebhookUrl
{
public:
    // Throws Error(InvalidArgument) naming what is wrong: another scheme, no host, a bad port,
    // spaces or control characters.
    explicit WebhookUrl(const std::string& spec);

    const std::string& text() const { return m_text; }
    bool tls() const { return m_tls; }
    const std::string& host() const { return m_host; }
    int port() const { return m_port; }
    // "host:port" for messages (an IPv6 host in brackets).
    std::string hostPort() const;

    // The spec as it may be shown: "user:pw@" becomes "user:***@". Works on any text, valid
    // URL or not, so a refusal can name what was given.
    static std::string printable(const std::string& spec);

private:
    std::string m_text;
    bool m_tls = false;
    std::string m_host;
    int m_port = 0;
};

} // namespace delayq::webhook
