#include "webhookurl.h"

#include <delayq/error.h>

#include <curl/curl.h>

#include <memory>

namespace delayq::webhook {

namespace {

[[noreturn]] void refuse(const std::string& spec, const std::string& what)
{
    throw Error(ErrorCode::InvalidArgument,
                "invalid webhook URL " + WebhookUrl::printable(spec) + ": " + what +
                    " (expected http://host[:port]/path or https://host[:port]/path)");
}

// One part of a parsed URL; empty when it is not there.
std::string part(CURLU* url, CURLUPart which, unsigned flags = 0)
{
    char* text = nullptr;
    if (curl_url_get(url, which, &text, flags) != CURLUE_OK || !text)
        return {};
    std::string out(text);
    curl_free(text);
    return out;
}

} // namespace

WebhookUrl::WebhookUrl(const std::string& spec) : m_text(spec)
{
    for (unsigned char c : spec)
        if (c <= 0x20 || c == 0x7f)
            refuse(spec, "it contains a space or a control character (write them as %XX)");
    m_tls = spec.rfind("https://", 0) == 0;
    if (!m_tls && spec.rfind("http://", 0) != 0)
        refuse(spec, "the scheme must be http:// or https://");
    // libcurl would read http:///path as the host "path".
    const size_t authority = spec.find("://") + 3;
    if (authority >= spec.size() || std::string("/?#").find(spec[authority]) != std::string::npos)
        refuse(spec, "it names no host");
    std::unique_ptr<CURLU, void (*)(CURLU*)> url(curl_url(), &curl_url_cleanup);
    if (!url)
        throw Error(ErrorCode::InvalidArgument, "out of memory reading the webhook URL");
    if (const CURLUcode rc = curl_url_set(url.get(), CURLUPART_URL, spec.c_str(), 0);
        rc != CURLUE_OK)
        refuse(spec, curl_url_strerror(rc));
    m_host = part(url.get(), CURLUPART_HOST);
    if (m_host.empty())
        refuse(spec, "it names no host");
    const std::string port = part(url.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
    m_port = port.empty() ? (m_tls ? 443 : 80) : std::stoi(port); // curl checked 0..65535
    if (m_port == 0)
        refuse(spec, "port 0 cannot be connected to");
}

std::string WebhookUrl::hostPort() const
{
    const bool v6 = m_host.find(':') != std::string::npos && m_host.front() != '[';
    return (v6 ? "[" + m_host + "]" : m_host) + ":" + std::to_string(m_port);
}

std::string WebhookUrl::printable(const std::string& spec)
{
    const size_t scheme = spec.find("://");
    if (scheme == std::string::npos)
        return spec;
    const size_t start = scheme + 3;
    const size_t end = spec.find_first_of("/?#", start);
    const size_t at = spec.rfind('@', end == std::string::npos ? std::string::npos : end - 1);
    if (at == std::string::npos || at < start)
        return spec;
    const size_t colon = spec.find(':', start);
    if (colon == std::string::npos || colon > at)
        return spec; // a user without a password
    return spec.substr(0, colon + 1) + "***" + spec.substr(at);
}

} // namespace delayq::webhook
