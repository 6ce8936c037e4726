#include <delayq/reply.h>

#include <delayq/error.h>

#include <charconv>
#include <cmath>

namespace delayq {

long long Reply::toInteger() const
{
    if (type == Type::Integer)
        return integer;
    if (type == Type::String || type == Type::Status) {
        long long value = 0;
        const char* end = str.data() + str.size();
        auto [ptr, ec] = std::from_chars(str.data(), end, value);
        if (ec == std::errc() && ptr == end)
            return value;
        // Redis formats some integral scores as floats ("1.7e12"): accept exact ones.
        try {
            size_t used = 0;
            double d = std::stod(str, &used);
            // Only whole numbers: "1.5" is not silently cut to 1 (NaN fails every test).
            if (used == str.size() && d >= -9.2e18 && d <= 9.2e18 && d == std::floor(d))
                return static_cast<long long>(d);
        } catch (const std::exception&) {
        }
    }
    throw Error(ErrorCode::Protocol, "unexpected reply from Redis: expected a number");
}

long long Reply::toInteger(long long fallback) const
{
    return isNil() ? fallback : toInteger();
}

const std::string& Reply::toString() const
{
    return str;
}

std::optional<std::string> Reply::toOptionalString() const
{
    if (isNil())
        return std::nullopt;
    return str;
}

} // namespace delayq
