#include <delayq/plainkeys.h>

#include "transport/sha1.h"

#include <delayq/error.h>
#include <delayq/keys.h>

namespace delayq {

PlainKeys::PlainKeys(std::string prefix, const std::string& plainKey)
    : m_plainKey(plainKey), m_tag(tagFor(plainKey))
{
    Keys::validatePrefix(prefix);
    if (plainKey.empty() || plainKey.size() > 4096)
        throw Error(ErrorCode::InvalidArgument, "a plain queue key must be 1 to 4096 bytes");
    m_base = keyPrefix(prefix) + m_tag + "}:";
}

std::string PlainKeys::tagFor(const std::string& plainKey)
{
    // A '}' would end the tag early (and "{}" hashes the whole name, splitting the keys over
    // slots); a '{' is safe but confusing to read. Long names make every key long.
    if (plainKey.size() > 200 || plainKey.find_first_of("{}") != std::string::npos)
        return "#sha1:" + sha1Hex(plainKey);
    return plainKey;
}

} // namespace delayq
