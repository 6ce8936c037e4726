#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace delayq::webhook {

// Signs requests the Standard Webhooks way (https://www.standardwebhooks.com/): the
// webhook-signature header is "v1," + base64(HMAC-SHA256(key, "<id>.<timestamp>.<body>")).
// The key is the secret's bytes as given, or, for a secret written "whsec_<base64>" (the
// spec's serialization), the bytes the base64 after the prefix decodes to.
class WebhookSignature
{
public:
    // An empty secret signs nothing. Throws Error(InvalidArgument) for a "whsec_" secret whose
    // rest is not base64 or decodes to nothing.
    explicit WebhookSignature(const std::string& secret);

    bool enabled() const { return !m_key.empty(); }
    // The header's value: "v1,<base64>".
    std::string sign(std::string_view id, std::string_view timestamp, std::string_view body) const;

    static std::string base64(std::string_view bytes);
    // Standard base64 with its padding; nullopt for anything else.
    static std::optional<std::string> fromBase64(std::string_view text);

private:
    std::string m_key;
};

} // namespace delayq::webhook
