#include "records/valuechecks.h"

#include "records/taskrecord.h"

#include <delayq/error.h>
#include <delayq/flowstatus.h>
#include <delayq/timeparse.h>

#include <cctype>
#include <string_view>

namespace delayq {

namespace {

// The longest lease, as for the lease_ms config: a week.
constexpr long long kMaxLeaseMs = 7LL * 86'400'000;

} // namespace

void checkDelay(long long delayMs, long long nowMs)
{
    if (delayMs < 0)
        throw Error(ErrorCode::InvalidArgument, "the delay must not be negative");
    if (delayMs > kLatestDueMs - nowMs)
        throw Error(ErrorCode::InvalidArgument, "the delay reaches past the year 9999");
}

void checkFairTag(int priority, const std::string& group)
{
    if (priority < -9 || priority > 9)
        throw Error(ErrorCode::InvalidArgument,
                    "priority " + std::to_string(priority) + " is out of range: -9 to 9");
    if (group.size() > 128)
        throw Error(ErrorCode::InvalidArgument,
                    "a group is at most 128 bytes, this one is " + std::to_string(group.size()));
    for (const char c : group)
        if (!std::isalnum(static_cast<unsigned char>(c)) &&
            std::string_view("_.:@/-").find(c) == std::string_view::npos)
            throw Error(ErrorCode::InvalidArgument,
                        "a group holds letters, digits and _.:@/- only (a tenant, a customer "
                        "or an order id), not '" +
                            std::string(1, c) + "'");
}

void checkDueAt(long long dueAtMs)
{
    if (dueAtMs < 0 || dueAtMs > kLatestDueMs)
        throw Error(ErrorCode::InvalidArgument, "the due time must be between 1970 and 9999");
}

void checkLease(long long leaseMs)
{
    if (leaseMs < 0 || leaseMs > kMaxLeaseMs)
        throw Error(ErrorCode::InvalidArgument,
                    "the lease must be 0 (the queue's lease_ms) to 7 days, in ms");
}

std::string normalizeBackoff(const std::string& text)
{
    if (text.empty())
        return "";
    auto refuse = [&](const std::string& why) {
        throw Error(ErrorCode::InvalidArgument,
                    "invalid backoff '" + text.substr(0, 64) + "': " + why +
                        " (expected a list like 5s,20s,30s or exp:BASE:MAX like exp:1s:5m)");
    };
    if (text.size() > 512)
        refuse("it is too long");
    if (text.rfind("exp:", 0) == 0) {
        std::string rest = text.substr(4);
        auto colon = rest.find(':');
        if (colon == std::string::npos)
            refuse("exp needs a base and a maximum");
        long long base = 0, max = 0;
        try {
            base = parseDuration(rest.substr(0, colon));
            max = parseDuration(rest.substr(colon + 1));
        } catch (const Error& e) {
            refuse(e.what());
        }
        if (base <= 0 || max < base)
            refuse("the base must be above 0 and the maximum at least the base");
        return "exp:" + std::to_string(base) + ":" + std::to_string(max);
    }
    std::string out;
    size_t start = 0;
    int count = 0;
    while (start <= text.size()) {
        size_t comma = text.find(',', start);
        std::string part = text.substr(start, comma == std::string::npos ? comma : comma - start);
        long long ms = 0;
        try {
            ms = parseDuration(part);
        } catch (const Error& e) {
            refuse(e.what());
        }
        if (++count > 32)
            refuse("at most 32 steps");
        if (!out.empty())
            out += ',';
        out += std::to_string(ms);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out;
}

namespace {

// "off" or "none" as "0" (the setting is not in force), else make(): the value checked.
template <typename Make> std::string offOr(const std::string& value, Make make)
{
    if (value == "off" || value == "none")
        return "0";
    return make();
}

// A size in bytes: a whole number, or one with k, m or g (KB, MB, GB, KiB, ...: all powers of
// 1024, as Redis's maxmemory reads them), from 0 to max. off: what 'off' does, for the refusal.
std::string byteSize(const std::string& key, const std::string& value, long long max,
                     const std::string& off = "no bound")
{
    size_t digits = 0;
    while (digits < value.size() && std::isdigit(static_cast<unsigned char>(value[digits])))
        ++digits;
    std::string unit = value.substr(digits);
    for (char& c : unit)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    long long scale = 0;
    if (unit.empty() || unit == "b")
        scale = 1;
    else if (unit == "k" || unit == "kb" || unit == "kib")
        scale = 1024;
    else if (unit == "m" || unit == "mb" || unit == "mib")
        scale = 1024 * 1024;
    else if (unit == "g" || unit == "gb" || unit == "gib")
        scale = 1024 * 1024 * 1024;
    const std::optional<long long> n =
        digits > 0 && digits <= 13 ? wholeNumber(value.substr(0, digits)) : std::nullopt;
    if (scale == 0 || !n || *n > max / scale)
        throw Error(ErrorCode::InvalidArgument, key + " must be a size in bytes from 0 to " +
                                                    std::to_string(max) +
                                                    ", e.g. 67108864, 64MB or 1GB ('off' for " +
                                                    off + "), not '" + value.substr(0, 64) + "'");
    return std::to_string(*n * scale);
}

// A rate as "N/MS": "50/s", "50/1s", "3000/1m", "5/250ms"; "off" or "none" as "0".
std::string normalizeRate(const std::string& value)
{
    return offOr(value, [&] {
        const size_t slash = value.find('/');
        auto refuse = [&](const std::string& why) -> std::string {
            throw Error(ErrorCode::InvalidArgument, "rate '" + value.substr(0, 64) + "': " + why);
        };
        if (value == "0" || value.rfind("0/", 0) == 0)
            return refuse("a rate of 0 would start nothing: pause the queue instead, or use "
                          "'off' for no limit");
        if (slash == std::string::npos)
            return refuse("give tasks per interval, e.g. 50/s or 3000/1m ('off' for no limit)");
        const std::optional<long long> n = wholeNumber(value.substr(0, slash));
        if (!n || *n < 1 || *n > 1000000)
            return refuse("the number of tasks must be a whole number from 1 to 1000000");
        std::string interval = value.substr(slash + 1);
        if (interval == "s" || interval == "m" || interval == "h" || interval == "ms")
            interval = "1" + interval;
        long long ms = 0;
        try {
            ms = parseDuration(interval);
        } catch (const Error& e) {
            return refuse(std::string("the interval: ") + e.what());
        }
        if (ms < 1 || ms > 86'400'000)
            return refuse("the interval must be from 1ms to 24h");
        return std::to_string(*n) + "/" + std::to_string(ms);
    });
}

} // namespace

std::string normalizeConfigValue(const std::string& key, const std::string& value)
{
    auto number = [&](long long min, long long max) {
        const std::optional<long long> n = wholeNumber(value);
        if (!n || *n < min || *n > max)
            throw Error(ErrorCode::InvalidArgument, key + " must be a whole number from " +
                                                        std::to_string(min) + " to " +
                                                        std::to_string(max));
        return std::to_string(*n);
    };
    auto durationMs = [&](long long min, long long max) {
        const std::optional<long long> whole = wholeNumber(value);
        const long long n = whole ? *whole : parseDuration(value);
        if (n < min || n > max)
            throw Error(ErrorCode::InvalidArgument, key + " must be from " + formatDuration(min) +
                                                        " to " + formatDuration(max));
        return std::to_string(n);
    };
    std::string stored;
    if (key == "max_attempts")
        stored = number(1, 1000000);
    else if (key == "backoff")
        stored = value.empty() ? throw Error(ErrorCode::InvalidArgument, "backoff is empty")
                               : normalizeBackoff(value);
    else if (key == "lease_ms")
        stored = durationMs(100, kMaxLeaseMs);
    else if (key == "max_payload")
        stored = number(1, 512LL * 1024 * 1024);
    else if (key == "audit_len")
        stored = number(1, 1000000);
    else if (key == "history")
        stored = number(0, 100);
    else if (key == "order") {
        if (value != "due" && value != "fair")
            throw Error(ErrorCode::InvalidArgument,
                        "order must be 'due' (due time only) or 'fair' (groups in turn, then "
                        "priority, then due time)");
        stored = value;
    } else if (key == "group_cap")
        stored = offOr(value, [&] {
            if (value == "0")
                throw Error(ErrorCode::InvalidArgument,
                            "a group cap of 0 would run nothing: use 'off' for no cap");
            return number(1, 1000000);
        });
    else if (key == "rate" || key == "group_rate")
        stored = normalizeRate(value);
    else if (key == "dedup_window")
        stored = offOr(value, [&] { return durationMs(1000, 366LL * 24 * 3600 * 1000); });
    else if (key == "dedup_max")
        stored = number(1, 100000000);
    else if (key == "bin_keep") // the recycle bin (docs/design/bin.md): 0 or off turns it off
        stored = offOr(value, [&] { return durationMs(0, 30LL * 24 * 3600 * 1000); });
    else if (key == "bin_max")
        stored = offOr(value, [&] { return number(0, 10000000); });
    else if (key == "bin_bytes") // as dead_max_bytes: 67108864, 64MB, 1GB
        stored = offOr(value, [&] {
            return byteSize(key, value, 4LL * 1024 * 1024 * 1024, "no recycle bin");
        });
    else if (key == "dead_max") // dead tasks bounded (docs/design/bounds.md): 0 or off = none
        stored = offOr(value, [&] { return number(0, 1000000000); });
    else if (key == "dead_max_bytes")
        stored = offOr(value, [&] { return byteSize(key, value, 1LL << 40); });
    else if (key == "max_age") // expiry (docs/design/bounds.md): 0 or off = none
        stored = offOr(value, [&] { return durationMs(1000, 3650LL * 24 * 3600 * 1000); });
    else if (key == "expired_to") {
        if (value != "dead" && value != "drop")
            throw Error(ErrorCode::InvalidArgument,
                        "expired_to must be 'dead' (kept in dead with the reason) or 'drop' "
                        "(forgotten, only counted)");
        stored = value;
    } else if (key == "burst")
        stored = offOr(value, [&] { return number(1, 1000000); });
    else if (key == "cap")
        stored = offOr(value, [&] {
            if (value == "0")
                throw Error(ErrorCode::InvalidArgument,
                            "a cap of 0 would run nothing: pause the queue instead, or use 'off' "
                            "for no cap");
            return number(1, 1000000);
        });
    else if (key == "paused") {
        if (value == "1" || value == "true" || value == "yes")
            stored = "1";
        else if (value == "0" || value == "false" || value == "no")
            stored = "0";
        else
            throw Error(ErrorCode::InvalidArgument, "paused must be 1 or 0 (true or false)");
    } else if (key == "shards")
        throw Error(ErrorCode::InvalidArgument,
                    "shards is not set like the other settings: 'delayq reshard QUEUE --shards N' "
                    "changes it and moves the tasks to their new shards");
    else
        throw Error(ErrorCode::InvalidArgument,
                    "unknown config key '" + key.substr(0, 64) +
                        "' (known: max_attempts, backoff, lease_ms, max_payload, paused, "
                        "audit_len, history, rate, burst, cap, order, group_cap, group_rate, "
                        "dedup_window, dedup_max, bin_keep, bin_max, bin_bytes, dead_max, "
                        "dead_max_bytes, max_age, expired_to)");
    return stored;
}

std::string groupShareProblem(const std::string& key, const std::string& stored, size_t shards)
{
    if (shards < 2 || stored == "0" || (key != "group_cap" && key != "group_rate"))
        return {};
    const auto slash = stored.find('/');
    const std::optional<long long> n = wholeNumber(
        key == "group_rate" && slash != std::string::npos ? stored.substr(0, slash) : stored);
    const auto s = static_cast<long long>(shards);
    if (!n || *n >= s)
        return {};
    if (key == "group_cap")
        return "a group cap of " + stored + " is below " + std::to_string(shards) +
               " shards: a group's tasks sit in every shard and each shard runs its share of "
               "the group cap, so " +
               std::to_string(shards) + " shards need a group cap of at least " +
               std::to_string(shards) + "; order per key (group cap 1) needs a queue of one shard";
    // A burst of N split over S shards: each shard's below one task would never start one.
    const long long ms = wholeNumber(stored.substr(slash + 1)).value_or(1000);
    const long long times = (s + *n - 1) / *n;
    return "a group rate of " + FlowStatus::rateText(*n, ms) + " lets a group start " +
           std::to_string(*n) + " at once, fewer than " + std::to_string(shards) +
           " shards: each shard runs its share of a group's rate and burst, so " +
           std::to_string(shards) + " shards need at least " + std::to_string(shards) +
           " tasks an interval (e.g. " + FlowStatus::rateText(*n * times, ms * times) +
           " for the same rate)";
}

std::string rateShareProblem(const std::string& rate, const std::string& burst, size_t shards,
                             const std::string& queue)
{
    const auto slash = rate.find('/');
    if (shards < 2 || slash == std::string::npos)
        return {};
    const std::optional<long long> n = wholeNumber(rate.substr(0, slash));
    const long long most = wholeNumber(burst).value_or(0) > 0 ? *wholeNumber(burst) : n.value_or(0);
    const auto s = static_cast<long long>(shards);
    if (!n || *n < 1 || most >= s)
        return {};
    return "a burst of " + std::to_string(most) + " is below " + std::to_string(shards) +
           " shards: each shard keeps its share of the rate and of the burst, and a share below "
           "one task never starts one; set a burst of at least " +
           std::to_string(shards) + " (delayq config " + queue + " burst " + std::to_string(shards) + ")";
}

} // namespace delayq
