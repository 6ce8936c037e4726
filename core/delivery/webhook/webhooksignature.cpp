#include "webhooksignature.h"

#include <delayq/error.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace delayq::webhook {

WebhookSignature::WebhookSignature(const std::string& secret)
{
    static constexpr std::string_view prefix = "whsec_";
    if (secret.rfind(prefix, 0) != 0) {
        m_key = secret;
        return;
    }
    auto key = fromBase64(std::string_view(secret).substr(prefix.size()));
    if (!key || key->empty())
        throw Error(ErrorCode::InvalidArgument,
                    "the webhook secret starts with whsec_, but what follows is not base64 (the "
                    "Standard Webhooks form is whsec_ and the key's bytes in base64)");
    m_key = std::move(*key);
}

std::string WebhookSignature::sign(std::string_view id, std::string_view timestamp,
                                   std::string_view body) const
{
    std::string content;
    content.reserve(id.size() + timestamp.size() + body.size() + 2);
    content.append(id).append(".").append(timestamp).append(".").append(body);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha256(), m_key.data(), static_cast<int>(m_key.size()),
         reinterpret_cast<const unsigned char*>(content.data()), content.size(), mac, &length);
    return "v1," + base64(std::string_view(reinterpret_cast<const char*>(mac), length));
}

std::string WebhookSignature::base64(std::string_view bytes)
{
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    out.resize(static_cast<size_t>(n));
    return out;
}

std::optional<std::string> WebhookSignature::fromBase64(std::string_view text)
{
    // EVP_DecodeBlock takes whole groups of four and counts padding as zero bytes.
    if (text.empty() || text.size() % 4 != 0)
        return std::nullopt;
    size_t padding = 0;
    while (padding < 2 && text[text.size() - 1 - padding] == '=')
        ++padding;
    for (size_t i = 0; i < text.size() - padding; ++i) {
        const char c = text[i];
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                        (c >= '0' && c <= '9') || c == '+' || c == '/';
        if (!ok)
            return std::nullopt;
    }
    std::string out(text.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()),
                                  static_cast<int>(text.size()));
    if (n < 0)
        return std::nullopt;
    out.resize(static_cast<size_t>(n) - padding);
    return out;
}

} // namespace delayq::webhook
