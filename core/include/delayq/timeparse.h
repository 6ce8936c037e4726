#pragma once

#include <string>
#include <string_view>

namespace delayq {

// "250ms", "30s", "5m", "2h", "1d", "1h30m", "0s" -> ms. A bare number is refused (the unit
// must be said). Negative, empty and overflowing values throw Error(InvalidArgument).
long long parseDuration(std::string_view text);

// ISO 8601 date-time -> ms since the epoch: "2026-12-01T09:30:00", with optional ".mmm",
// optional "Z" / "+08:00" / "-0500" (without one it is local time); ' ' may stand for 'T';
// a date alone is local midnight. The instant must lie in 1970..9999 (UTC). Throws
// Error(InvalidArgument).
long long parseTime(std::string_view text);

// At most the two largest adjacent units, for display: 200000 -> "3m 20s", 90061000 -> "1d 1h",
// 3601000 -> "1h"; under a second "250ms". Negative values get a '-'.
std::string formatDuration(long long ms);

// "2026-12-01 09:30:00.123" in local time, or UTC with a trailing 'Z'.
std::string formatTime(long long ms, bool utc = false);

// "in 3m 20s" / "2m overdue" / "now", relative to nowMs, to the second.
std::string formatRelative(long long ms, long long nowMs);

} // namespace delayq
