#pragma once

#include <bitset>
#include <optional>
#include <string>

namespace delayq {

// A five-field cron expression, "minute hour day-of-month month day-of-week", read as Vixie
// cron reads it: `*`, lists, ranges and steps (`1,15`, `9-17`, `*/10`, `10-50/20`), month and
// weekday names (jan..dec, sun..sat), 0 or 7 for Sunday, and @yearly, @monthly, @weekly,
// @daily and @hourly. When both day fields are restricted a day matches either of them.
//
// Times are matched on the wall clock of a time zone of the tz database (Debian's tzdata,
// through Howard Hinnant's date/tz). Daylight saving (docs/schedules.md): a wall-clock time
// that does not exist (spring forward) fires once, at the instant the clocks jump; one that
// happens twice (autumn) fires once, at its first occurrence.
class Cron
{
public:
    // Throws Error(InvalidArgument) naming the field and what is wrong with it, also for an
    // expression that can never fire (`0 0 30 2 *`).
    static Cron parse(const std::string& text);
    // Throws Error(InvalidArgument) for a zone name the tz database does not know.
    static void validateZone(const std::string& zone);

    const std::string& text() const { return m_text; }
    // The first matching time strictly after afterMs (ms since the epoch) in `zone`; nullopt
    // when there is none within 5 years. Throws Error(InvalidArgument) for an unknown zone.
    std::optional<long long> next(long long afterMs, const std::string& zone) const;

    // Whether the wall-clock date and time match (month 1..12, weekday 0 = Sunday).
    bool matchesDay(int month, int day, int weekday) const;
    bool matchesTime(int hour, int minute) const;

private:
    std::string m_text;
    std::bitset<60> m_minutes;
    std::bitset<24> m_hours;
    std::bitset<32> m_days;   // 1..31
    std::bitset<13> m_months; // 1..12
    std::bitset<7> m_weekdays;
    bool m_daysRestricted = false;
    bool m_weekdaysRestricted = false;
};

} // namespace delayq
