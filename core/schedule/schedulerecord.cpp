#include "schedule/schedulerecord.h"

#include <charconv>
#include <vector>

namespace delayq {

namespace {

bool toNumber(const std::string& text, long long& out)
{
    const char* end = text.data() + text.size();
    const auto [at, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && at == end && !text.empty();
}

} // namespace

std::optional<ScheduleInfo> parseScheduleRecord(const std::string& name, const std::string& record)
{
    // Eleven fields before the payload, which may hold '|' itself.
    std::vector<std::string> fields;
    size_t start = 0;
    while (fields.size() < 11) {
        const size_t bar = record.find('|', start);
        if (bar == std::string::npos)
            return std::nullopt;
        fields.push_back(record.substr(start, bar - start));
        start = bar + 1;
    }
    ScheduleInfo info;
    ScheduleRule& r = info.rule;
    long long attempts = 0;
    long long paused = 0;
    if (fields[0] != "1" || !toNumber(fields[1], info.version) || !toNumber(fields[4], r.everyMs) ||
        !toNumber(fields[5], r.anchorMs) || !toNumber(fields[6], r.catchUpMs) ||
        !toNumber(fields[7], attempts) || !toNumber(fields[9], paused) ||
        !toNumber(fields[10], info.updatedMs))
        return std::nullopt;
    r.name = name;
    r.cron = fields[2];
    r.zone = fields[3];
    r.maxAttempts = static_cast<int>(attempts);
    r.backoff = fields[8];
    r.paused = paused != 0;
    r.payload = record.substr(start);
    return info;
}

} // namespace delayq
