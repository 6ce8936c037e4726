// libFuzzer target: the Redis URL parser. Any input must either parse into sane options
// or be refused with Error(InvalidArgument); the shown URL never depends on the password or
// the key's passphrase; and urlWithoutPassword() parses back to the same server and TLS
// options (rediss:// ?ca= ?ca_dir= ?cert= ?key= ?sni= ?insecure=).
#include <delayq/connectionoptions.h>
#include <delayq/error.h>

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string url(reinterpret_cast<const char*>(data), size);
    try {
        auto options = delayq::ConnectionOptions::fromUrl(url);
        if (options.port < 1 || options.port > 65535 || options.db < 0)
            std::abort();
        if (options.unixSocket.empty() && options.host.empty())
            std::abort();
        for (const auto& node : options.sentinel.nodes)
            if (node.host.empty() || node.port < 1 || node.port > 65535)
                std::abort();
        if (options.sentinel.enabled() && options.sentinel.masterName.empty())
            std::abort();
        // What is stored (the URL less its passwords) reads back as itself.
        if (delayq::ConnectionOptions::fromUrl(options.urlWithoutPassword()).urlWithoutPassword() !=
            options.urlWithoutPassword())
            std::abort();
        // The shown URL must not depend on the password at all, nor on the sentinels' one.
        auto other = options;
        other.password = options.password.empty() ? "" : "a-different-secret";
        other.sentinel.password = options.sentinel.password.empty() ? "" : "another-secret";
        other.tls.keyPassphrase = "a-passphrase";
        if (options.displayUrl() != other.displayUrl())
            std::abort();
        // Every TLS form starts "rediss" (rediss://, rediss+sentinel://, rediss+cluster://).
        if (options.tls.enabled != (url.rfind("rediss", 0) == 0))
            std::abort();
        const auto back = delayq::ConnectionOptions::fromUrl(options.urlWithoutPassword());
        if (!(back.tls == options.tls) || back.host != options.host || back.port != options.port ||
            back.db != options.db || back.user != options.user ||
            back.unixSocket != options.unixSocket || !back.password.empty())
            std::abort();
    } catch (const delayq::Error& e) {
        if (e.code() != delayq::ErrorCode::InvalidArgument)
            std::abort();
    }
    return 0;
}
