#include "webhooksettings.h"

#include <delayq/error.h>

#include <algorithm>
#include <cctype>
#include <unistd.h>

namespace delayq::webhook {

namespace {

[[noreturn]] void refuse(const std::string& what)
{
    throw Error(ErrorCode::InvalidArgument, what);
}

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// RFC 9110's token characters, the only ones a header name may hold.
bool isTokenChar(unsigned char c)
{
    return std::isalnum(c) ||
           std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

std::string checkedMethod(const std::string& given)
{
    if (given == "POST" || given == "PUT" || given == "PATCH")
        return given;
    refuse("the webhook method must be POST, PUT or PATCH (the payload is the request's body), "
           "not '" +
           given.substr(0, 32) + "'");
}

// Checks one "Name: value" header; true when it names Content-Type.
bool checkHeader(const std::string& header)
{
    for (unsigned char c : header)
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            refuse("a webhook header holds a control character or a line break");
    const size_t colon = header.find(':');
    const std::string name = header.substr(0, colon);
    if (colon == std::string::npos || name.empty() ||
        !std::all_of(name.begin(), name.end(), [](unsigned char c) { return isTokenChar(c); }))
        // Only what stands before a space: the value may be a credential.
        refuse("a webhook header must be 'Name: value', the name of letters, digits and "
               "-_.!#$%&'*+^`|~ (got '" +
               header.substr(0, std::min<size_t>(64, header.find_first_of(" \t"))) + "…')");
    const std::string key = lower(name);
    static const std::vector<std::string> ours = {"content-length", "transfer-encoding", "host",
                                                  "connection", "expect"};
    if (std::find(ours.begin(), ours.end(), key) != ours.end() || key.rfind("webhook-", 0) == 0 ||
        key.rfind("delayq-", 0) == 0)
        refuse("the webhook header " + name.substr(0, 64) +
               " is set by delayq itself (the webhook-* and delayq-* headers, Host, "
               "Content-Length, Transfer-Encoding, Connection and Expect)");
    return key == "content-type";
}

} // namespace

WebhookSettings WebhookSettings::from(const std::string& spec, const DeliveryOptions& options)
{
    WebhookSettings s{WebhookUrl(spec),
                      checkedMethod(options.httpMethod),
                      options.httpHeaders,
                      false,
                      options.httpTimeoutMs,
                      options.httpCaFile,
                      WebhookSignature(options.signingSecret),
                      options.queue};
    for (const std::string& header : s.headers)
        s.ownContentType = checkHeader(header) || s.ownContentType;
    if (s.timeoutMs < 1 || s.timeoutMs > 86'400'000)
        refuse("the webhook timeout must be from 1 ms to 24 h");
    if (!s.caFile.empty() && !s.url.tls())
        refuse("a CA file applies to https:// webhooks only");
    if (!s.caFile.empty() && ::access(s.caFile.c_str(), R_OK) != 0)
        refuse("cannot read the webhook's CA file '" + s.caFile.substr(0, 200) + "'");
    return s;
}

} // namespace delayq::webhook
