#pragma once

#include <delayq/schedule.h>

#include <optional>
#include <string>

namespace delayq {

// The rule record schedule_put.lua writes (parse_schedule in lua/common.lua):
// "1|version|cron|zone|every ms|anchor ms|catch-up ms|max attempts|backoff|paused|updated ms|
// payload", or since 2.8 "2|" with "overlap|jitter ms|" before the payload. nullopt for garbage.
std::optional<ScheduleInfo> parseScheduleRecord(const std::string& name, const std::string& record);

} // namespace delayq
