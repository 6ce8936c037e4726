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
    // Eleven fields before the payload, which may hold '|' itself; thirteen in a "2|" record
    // (since 2.8: the overlap policy and the jitter).
    const size_t count = record.rfind("2|", 0) == 0 ? 13 : 11;
    std::vector<std::string> fields;
    size_t start = 0;
    while (fields.size() < count) {
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
    if ((fields[0] != "1" && fields[0] != "2") || !toNumber(fields[1], info.version) ||
        !toNumber(fields[4], r.everyMs) || !toNumber(fields[5], r.anchorMs) ||
        !toNumber(fields[6], r.catchUpMs) || !toNumber(fields[7], attempts) ||
        !toNumber(fields[9], paused) || !toNumber(fields[10], info.updatedMs))
        return std::nullopt;
    r.name = name;
    r.cron = fields[2];
    r.zone = fields[3];
    r.maxAttempts = static_cast<int>(attempts);
    r.backoff = fields[8];
    r.paused = paused != 0;
    r.payload = record.substr(start);
    if (count == 13) {
        const std::optional<ScheduleRule::Overlap> overlap = ScheduleRule::parseOverlap(fields[11]);
        if (!overlap || !toNumber(fields[12], r.jitterMs) || r.jitterMs < 0)
            return std::nullopt;
        r.overlap = *overlap;
    }
    return info;
}

} // namespace delayq
