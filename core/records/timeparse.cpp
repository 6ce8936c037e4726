#include <delayq/timeparse.h>

#include "records/valuechecks.h"

#include <delayq/error.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <ctime>

namespace delayq {

namespace {

[[noreturn]] void badDuration(std::string_view text, const std::string& why)
{
    throw Error(ErrorCode::InvalidArgument, "invalid duration '" + std::string(text.substr(0, 64)) +
                                                "': " + why +
                                                " (examples: 250ms, 30s, 5m, 2h, 1d, 1h30m)");
}

[[noreturn]] void badTime(std::string_view text, const std::string& why)
{
    throw Error(ErrorCode::InvalidArgument,
                "invalid time '" + std::string(text.substr(0, 64)) + "': " + why +
                    " (expected ISO 8601 like 2026-12-01T09:30:00, 2026-12-01T09:30:00Z or "
                    "2026-12-01T09:30:00+08:00)");
}

// Reads exactly `digits` digits at pos.
bool readDigits(std::string_view s, size_t& pos, int digits, int& out)
{
    if (pos + digits > s.size())
        return false;
    int v = 0;
    for (int i = 0; i < digits; ++i) {
        char c = s[pos + i];
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    out = v;
    pos += digits;
    return true;
}

long long daysFromCivil(long long y, unsigned m, unsigned d)
{
    // Howard Hinnant's days_from_civil: proleptic Gregorian, no time zone involved.
    y -= m <= 2;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<long long>(doe) - 719468;
}

int daysInMonth(int y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return 29;
    return days[m - 1];
}

long long localToMs(std::string_view text, int year, int month, int day, int hour, int minute,
                    int second)
{
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    tm.tm_isdst = -1;
    errno = 0;
    std::time_t t = std::mktime(&tm);
    // -1 is also one second before the epoch, which the range check refuses anyway.
    if (t == static_cast<std::time_t>(-1) && errno != 0)
        badTime(text, "it is not a valid local time");
    return static_cast<long long>(t) * 1000;
}

// The parts of an ISO-8601 time as written, before any zone is applied.
struct WrittenTime
{
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, millis = 0;
    bool hasOffset = false; // Z or +HH:MM given; else the local zone applies
    long long offsetMinutes = 0;
};

void readDate(std::string_view text, size_t& pos, WrittenTime& t)
{
    if (!readDigits(text, pos, 4, t.year) || pos >= text.size() || text[pos++] != '-' ||
        !readDigits(text, pos, 2, t.month) || pos >= text.size() || text[pos++] != '-' ||
        !readDigits(text, pos, 2, t.day))
        badTime(text, "the date must be YYYY-MM-DD");
    if (t.year < 1970 || t.year > 9999)
        badTime(text, "the year must be from 1970 to 9999");
    if (t.month < 1 || t.month > 12)
        badTime(text, "the month must be 01 to 12");
    if (t.day < 1 || t.day > daysInMonth(t.year, t.month))
        badTime(text, "that day does not exist in that month");
}

// Up to 9 digits are accepted, the first 3 kept: the queue stores milliseconds.
void readFraction(std::string_view text, size_t& pos, WrittenTime& t)
{
    int digits = 0;
    t.millis = 0;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
        if (digits < 3)
            t.millis = t.millis * 10 + (text[pos] - '0');
        ++digits;
        ++pos;
    }
    if (digits == 0 || digits > 9)
        badTime(text, "the fraction of a second must have 1 to 9 digits");
    for (int d = digits; d < 3; ++d)
        t.millis *= 10;
}

void readClock(std::string_view text, size_t& pos, WrittenTime& t)
{
    if (!readDigits(text, pos, 2, t.hour) || pos >= text.size() || text[pos++] != ':' ||
        !readDigits(text, pos, 2, t.minute))
        badTime(text, "the time must be HH:MM or HH:MM:SS");
    if (pos < text.size() && text[pos] == ':') {
        ++pos;
        if (!readDigits(text, pos, 2, t.second))
            badTime(text, "the seconds must be two digits");
    }
    if (pos < text.size() && (text[pos] == '.' || text[pos] == ',')) {
        ++pos;
        readFraction(text, pos, t);
    }
    if (t.hour > 23 || t.minute > 59 || t.second > 59)
        badTime(text, "hours must be 00-23, minutes and seconds 00-59");
}

void readOffset(std::string_view text, size_t& pos, WrittenTime& t)
{
    if (pos >= text.size())
        return;
    const char sign = text[pos];
    if (sign == 'Z' || sign == 'z') {
        t.hasOffset = true;
        ++pos;
    } else if (sign == '+' || sign == '-') {
        ++pos;
        int oh = 0, om = 0;
        if (!readDigits(text, pos, 2, oh))
            badTime(text, "the offset must be +HH:MM");
        if (pos < text.size() && text[pos] == ':')
            ++pos;
        if (!readDigits(text, pos, 2, om) || oh > 23 || om > 59)
            badTime(text, "the offset must be +HH:MM");
        t.hasOffset = true;
        t.offsetMinutes = (oh * 60 + om) * (sign == '-' ? -1 : 1);
    }
}

} // namespace

long long parseDuration(std::string_view text)
{
    if (text.empty())
        badDuration(text, "it is empty");
    if (text.size() > 64)
        badDuration(text, "it is too long");
    if (text[0] == '-')
        badDuration(text, "it is negative");
    long long total = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        if (!std::isdigit(static_cast<unsigned char>(text[pos])))
            badDuration(text, "expected a number");
        long long value = 0;
        while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
            if (value > (LLONG_MAX - 9) / 10)
                badDuration(text, "the number is too large");
            value = value * 10 + (text[pos] - '0');
            ++pos;
        }
        size_t unitStart = pos;
        while (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos])))
            ++pos;
        std::string_view unit = text.substr(unitStart, pos - unitStart);
        long long factor = 0;
        if (unit == "ms")
            factor = 1;
        else if (unit == "s")
            factor = 1000;
        else if (unit == "m")
            factor = 60'000;
        else if (unit == "h")
            factor = 3'600'000;
        else if (unit == "d")
            factor = 86'400'000;
        else if (unit.empty())
            badDuration(text, "a unit is missing (ms, s, m, h or d)");
        else
            badDuration(text, "unknown unit '" + std::string(unit) + "'");
        // Ten years is far beyond any delay a queue should hold; it also keeps sums in range.
        const long long limit = 3650LL * 86'400'000;
        if (value > limit / factor || total + value * factor > limit)
            badDuration(text, "it is longer than 3650 days");
        total += value * factor;
    }
    return total;
}

long long parseTime(std::string_view text)
{
    if (text.empty())
        badTime(text, "it is empty");
    if (text.size() > 40)
        badTime(text, "it is too long");
    size_t pos = 0;
    WrittenTime t;
    readDate(text, pos, t);
    if (pos < text.size()) {
        if (text[pos] != 'T' && text[pos] != 't' && text[pos] != ' ')
            badTime(text, "expected 'T' between the date and the time");
        ++pos;
        readClock(text, pos, t);
        readOffset(text, pos, t);
        if (pos != text.size())
            badTime(text, "unexpected text at the end");
    }
    long long result = 0;
    if (t.hasOffset) {
        long long days =
            daysFromCivil(t.year, static_cast<unsigned>(t.month), static_cast<unsigned>(t.day));
        long long seconds =
            days * 86400 + t.hour * 3600 + t.minute * 60 + t.second - t.offsetMinutes * 60;
        result = seconds * 1000 + t.millis;
    } else {
        result = localToMs(text, t.year, t.month, t.day, t.hour, t.minute, t.second) + t.millis;
    }
    // The year check is on the written date; an offset or the local zone can still push the
    // instant out of the range the queue stores.
    if (result < 0)
        badTime(text, "it is before 1970-01-01T00:00:00Z");
    if (result > kLatestDueMs)
        badTime(text, "it is after 9999-12-31T23:59:59.999Z");
    return result;
}

std::string formatDuration(long long ms)
{
    if (ms < 0)
        return "-" + formatDuration(-ms);
    if (ms < 1000)
        return std::to_string(ms) + "ms";
    long long s = ms / 1000;
    struct Unit
    {
        long long seconds;
        const char* name;
    };
    static const Unit units[] = {{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}};
    std::string out;
    int parts = 0;
    for (const auto& u : units) {
        if (s >= u.seconds && parts < 2) {
            if (!out.empty())
                out += ' ';
            out += std::to_string(s / u.seconds) + u.name;
            s %= u.seconds;
            ++parts;
        } else if (parts > 0) {
            ++parts; // only two adjacent units: "1d 2h", never "1d 0h 5s"
        }
    }
    return out;
}

std::string formatTime(long long ms, bool utc)
{
    long long seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
    int millis = static_cast<int>(ms - seconds * 1000);
    std::time_t t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    if (utc)
        gmtime_r(&t, &tm);
    else
        localtime_r(&t, &tm);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d %02d:%02d:%02d.%03d%s", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis,
                  utc ? "Z" : "");
    return buffer;
}

std::string formatRelative(long long ms, long long nowMs)
{
    long long diff = ms - nowMs;
    if (diff > -1000 && diff < 1000)
        return "now";
    if (diff > 0)
        return "in " + formatDuration(diff / 1000 * 1000);
    return formatDuration((-diff) / 1000 * 1000) + " overdue";
}

} // namespace delayq
