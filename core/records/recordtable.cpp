#include <delayq/recordtable.h>

#include <delayq/error.h>
#include <delayq/keys.h>

#include <charconv>

namespace delayq {

namespace {

constexpr long long kPrime = 2147483647; // 2^31 - 1

long long wholeField(const std::optional<std::string>& value, long long fallback, const char* name)
{
    if (!value)
        return fallback;
    long long n = 0;
    const char* end = value->data() + value->size();
    const auto [at, ec] = std::from_chars(value->data(), end, n);
    if (ec != std::errc() || at != end || n < 0)
        throw Error(ErrorCode::Protocol, std::string("the record table's '") + name +
                                             "' is not a whole number: '" + *value + "'");
    return n;
}

} // namespace

std::vector<std::string> RecordTable::fields()
{
    return {"base", "level", "split", "migrated"};
}

RecordTable RecordTable::fromFields(const std::vector<std::optional<std::string>>& values)
{
    if (values.size() != 4)
        throw Error(ErrorCode::Protocol, "unexpected reply shape reading the record table");
    RecordTable t;
    if (values[0])
        t.base = wholeField(values[0], 0, "base");
    t.level = wholeField(values[1], 0, "level");
    t.split = wholeField(values[2], 0, "split");
    t.migrated = wholeField(values[3], kLegacyBuckets, "migrated");
    // Lua makes base * 2^level a double; past 2^62 neither side has a bucket to name.
    if (t.base && (*t.base < 1 || t.level > 40 || (*t.base << t.level) >> t.level != *t.base))
        throw Error(ErrorCode::Protocol, "the record table's size is out of range");
    return t;
}

long long RecordTable::idHash(std::string_view id)
{
    // In Lua every step is below 2^53 (h < 2^31, times 31^4 < 2^20, plus the bytes), so its
    // doubles are exact and `%` of two such positive numbers is the integers' remainder.
    long long h = 0;
    for (size_t i = 0; i < id.size(); i += 4) {
        long long b[4] = {0, 0, 0, 0};
        for (size_t k = 0; k < 4 && i + k < id.size(); ++k)
            b[k] = static_cast<unsigned char>(id[i + k]);
        h = ((((h * 31 + b[0]) * 31 + b[1]) * 31 + b[2]) * 31 + b[3]) % kPrime;
    }
    return h;
}

long long RecordTable::legacyBucket(std::string_view id)
{
    // string.byte(id, -4, -1): the last four bytes, fewer for a shorter id, the missing ones
    // at the end counted 0.
    long long b[4] = {0, 0, 0, 0};
    const size_t take = std::min<size_t>(4, id.size());
    for (size_t k = 0; k < take; ++k)
        b[k] = static_cast<unsigned char>(id[id.size() - take + k]);
    return ((((b[0] * 31 + b[1]) * 31 + b[2]) * 31 + b[3])) % kLegacyBuckets;
}

long long RecordTable::tableBucket(long long hash) const
{
    const long long size = base.value_or(1) << level;
    long long b = hash % size;
    if (b < split)
        b = hash % (size * 2);
    return b;
}

std::vector<std::string> RecordTable::keysOf(const Keys& keys, std::string_view id) const
{
    const std::string prefix = keys.dataPrefix();
    if (!base)
        return {prefix + std::to_string(legacyBucket(id))};
    std::vector<std::string> out;
    if (migrated < kLegacyBuckets) {
        const long long lb = legacyBucket(id);
        if (lb > migrated)
            return {prefix + std::to_string(lb)};
        if (lb == migrated)
            out.push_back(prefix + std::to_string(lb));
    }
    out.push_back(prefix + "g:" + std::to_string(tableBucket(idHash(id))));
    return out;
}

} // namespace delayq
