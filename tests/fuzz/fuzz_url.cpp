// libFuzzer target: the Redis URL parser. Any input must either parse into sane options
// or be refused with Error(InvalidArgument); and the shown URL never depends on the password.
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
        // The shown URL must not depend on the password at all.
        auto other = options;
        other.password = options.password.empty() ? "" : "a-different-secret";
        if (options.displayUrl() != other.displayUrl())
            std::abort();
    } catch (const delayq::Error& e) {
        if (e.code() != delayq::ErrorCode::InvalidArgument)
            std::abort();
    }
    return 0;
}
