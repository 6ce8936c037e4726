#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace delayq {

// A Redis reply copied out of hiredis, so hiredis types stay out of public headers.
// Server error replies are kept as Type::Error values; Connection turns them into
// delayq::Error where the caller asks for it.
struct Reply
{
    enum class Type
    {
        Nil,
        Integer,
        String,
        Status,
        Error,
        Array
    };

    Type type = Type::Nil;
    long long integer = 0;
    std::string str; // String, Status and Error text
    std::vector<Reply> elements;

    bool isNil() const { return type == Type::Nil; }
    bool isError() const { return type == Type::Error; }
    bool isArray() const { return type == Type::Array; }

    // Integer, or a string holding an integer ("12"); throws Error(Protocol) otherwise.
    long long toInteger() const;
    // Same, but nil gives the fallback.
    long long toInteger(long long fallback) const;
    // String or status text; nil gives "".
    const std::string& toString() const;
    std::optional<std::string> toOptionalString() const;
};

} // namespace delayq
