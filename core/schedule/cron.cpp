#include <delayq/cron.h>

#include <delayq/error.h>

#include <date/tz.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <sstream>
#include <vector>

namespace delayq {

namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;

// Days the search looks ahead: 8 years reach past any gap between two leap days (2096-2104).
constexpr int kHorizonDays = 8 * 366;

struct FieldSpec
{
    const char* name;
    int lo;
    int hi;
    // Names for the values lo.. (months from 1, weekdays from 0), or null.
    const std::array<const char*, 12>* names;
};

const std::array<const char*, 12> kMonthNames = {"jan", "feb", "mar", "apr", "may", "jun",
                                                 "jul", "aug", "sep", "oct", "nov", "dec"};
const std::array<const char*, 12> kWeekdayNames = {
    "sun", "mon", "tue", "wed", "thu", "fri", "sat", nullptr, nullptr, nullptr, nullptr, nullptr};

const FieldSpec kFields[5] = {{"minute", 0, 59, nullptr},
                              {"hour", 0, 23, nullptr},
                              {"day-of-month", 1, 31, nullptr},
                              {"month", 1, 12, &kMonthNames},
                              {"day-of-week", 0, 7, &kWeekdayNames}};

[[noreturn]] void refuse(const FieldSpec& field, const std::string& what)
{
    throw Error(ErrorCode::InvalidArgument, std::string("cron field ") + field.name + ": " + what);
}

int parseValue(const std::string& text, const FieldSpec& field)
{
    if (!text.empty() &&
        std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); })) {
        if (text.size() > 2 || std::stoi(text) < field.lo || std::stoi(text) > field.hi)
            refuse(field, "'" + text + "' is out of range " + std::to_string(field.lo) + "-" +
                              std::to_string(field.hi));
        return std::stoi(text);
    }
    if (field.names && text.size() == 3) {
        std::string lower = text;
        for (char& c : lower)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (size_t i = 0; i < field.names->size(); ++i)
            if ((*field.names)[i] && lower == (*field.names)[i])
                return static_cast<int>(i) + (field.lo == 1 ? 1 : 0);
    }
    refuse(field,
           "'" + text + "' is not a number" +
               (field.names ? std::string(" or a ") + (field.lo == 1 ? "month name (jan..dec)"
                                                                     : "weekday name (sun..sat)")
                            : std::string()));
}

// One comma-separated element: *, N, N-M, each with an optional /STEP; sets its values.
void parseElement(const std::string& element, const FieldSpec& field, std::vector<bool>& values)
{
    std::string range = element;
    int step = 1;
    if (const size_t slash = element.find('/'); slash != std::string::npos) {
        range = element.substr(0, slash);
        const std::string stepText = element.substr(slash + 1);
        if (stepText.empty() || stepText.size() > 2 ||
            !std::all_of(stepText.begin(), stepText.end(),
                         [](unsigned char c) { return std::isdigit(c); }) ||
            std::stoi(stepText) < 1)
            refuse(field, "the step in '" + element + "' must be a number from 1 to 99");
        step = std::stoi(stepText);
    }
    int lo = field.lo;
    int hi = field.hi;
    if (range != "*") {
        const size_t dash = range.find('-');
        lo = parseValue(range.substr(0, dash), field);
        if (dash != std::string::npos)
            hi = parseValue(range.substr(dash + 1), field);
        else if (step == 1)
            hi = lo; // a single value; "N/STEP" runs from N to the end, as in Vixie cron
        if (lo > hi)
            refuse(field, "the range '" + range + "' runs backwards");
    }
    for (int v = lo; v <= hi; v += step)
        values[static_cast<size_t>(v)] = true;
}

std::vector<bool> parseField(const std::string& text, const FieldSpec& field)
{
    std::vector<bool> values(static_cast<size_t>(field.hi) + 1, false);
    size_t start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        const std::string element = text.substr(start, comma - start);
        if (element.empty())
            refuse(field, "'" + text + "' has an empty list element");
        parseElement(element, field, values);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return values;
}

template <size_t N> std::bitset<N> toBits(const std::vector<bool>& values)
{
    std::bitset<N> bits;
    for (size_t i = 0; i < values.size() && i < N; ++i)
        bits[i] = values[i];
    return bits;
}

std::string expand(const std::string& text)
{
    static const std::pair<const char*, const char*> kMacros[] = {
        {"@yearly", "0 0 1 1 *"}, {"@annually", "0 0 1 1 *"}, {"@monthly", "0 0 1 * *"},
        {"@weekly", "0 0 * * 0"}, {"@daily", "0 0 * * *"},    {"@midnight", "0 0 * * *"},
        {"@hourly", "0 * * * *"}};
    for (const auto& [name, fields] : kMacros)
        if (text == name)
            return fields;
    if (!text.empty() && text[0] == '@')
        throw Error(ErrorCode::InvalidArgument,
                    "cron '" + text +
                        "': unknown shortcut (known: @yearly, @annually, "
                        "@monthly, @weekly, @daily, @midnight, @hourly)");
    return text;
}

const date::time_zone* findZone(const std::string& zone)
{
    if (zone.empty() || zone.size() > 64)
        throw Error(ErrorCode::InvalidArgument,
                    "a time zone must be a tz database name such as UTC or Europe/Berlin");
    try {
        return date::locate_zone(zone);
    } catch (const std::exception&) {
        throw Error(ErrorCode::InvalidArgument,
                    "unknown time zone '" + zone +
                        "' (a tz database name such as UTC or Europe/Berlin; the names are "
                        "the files under /usr/share/zoneinfo, from Debian's tzdata)");
    }
}

// A wall-clock minute as an instant (ms): the first of two in autumn, the moment of the jump
// for one skipped in spring.
long long toInstant(const date::time_zone* zone, date::local_seconds wallClock)
{
    const date::local_info info = zone->get_info(wallClock);
    if (info.result == date::local_info::nonexistent)
        return std::chrono::duration_cast<milliseconds>(info.first.end.time_since_epoch()).count();
    return std::chrono::duration_cast<milliseconds>(wallClock.time_since_epoch() -
                                                    info.first.offset)
        .count();
}

} // namespace

Cron Cron::parse(const std::string& given)
{
    const std::string text = expand(given);
    std::istringstream in(text);
    std::vector<std::string> fields;
    for (std::string f; in >> f;)
        fields.push_back(f);
    if (fields.size() != 5)
        throw Error(ErrorCode::InvalidArgument,
                    "cron '" + given + "': expected 5 fields (minute hour day-of-month month " +
                        "day-of-week), found " + std::to_string(fields.size()));
    Cron cron;
    cron.m_text = given;
    cron.m_minutes = toBits<60>(parseField(fields[0], kFields[0]));
    cron.m_hours = toBits<24>(parseField(fields[1], kFields[1]));
    cron.m_days = toBits<32>(parseField(fields[2], kFields[2]));
    cron.m_months = toBits<13>(parseField(fields[3], kFields[3]));
    const std::vector<bool> weekdays = parseField(fields[4], kFields[4]);
    for (size_t d = 0; d < 7; ++d)
        cron.m_weekdays[d] = weekdays[d] || (d == 0 && weekdays[7]);
    // Vixie cron's rule: a day field that starts with '*' leaves the day to the other one.
    cron.m_daysRestricted = fields[2][0] != '*';
    cron.m_weekdaysRestricted = fields[4][0] != '*';
    // 28 years hold every weekday of every date, 29 February included.
    date::sys_days day = date::year(2000) / 1 / 1;
    bool fires = false;
    for (int i = 0; i < 28 * 366 && !fires; ++i, day += date::days(1)) {
        const date::year_month_day ymd(day);
        fires = cron.matchesDay(static_cast<int>(unsigned(ymd.month())),
                                static_cast<int>(unsigned(ymd.day())),
                                static_cast<int>(date::weekday(day).c_encoding()));
    }
    if (!fires)
        throw Error(ErrorCode::InvalidArgument,
                    "cron '" + given + "' never fires: no month it names has that day");
    return cron;
}

void Cron::validateZone(const std::string& zone)
{
    findZone(zone);
}

bool Cron::matchesDay(int month, int day, int weekday) const
{
    if (!m_months[static_cast<size_t>(month)])
        return false;
    const bool dayMatch = m_days[static_cast<size_t>(day)];
    const bool weekdayMatch = m_weekdays[static_cast<size_t>(weekday)];
    if (m_daysRestricted && m_weekdaysRestricted)
        return dayMatch || weekdayMatch;
    return dayMatch && weekdayMatch;
}

bool Cron::matchesTime(int hour, int minute) const
{
    return m_hours[static_cast<size_t>(hour)] && m_minutes[static_cast<size_t>(minute)];
}

std::optional<long long> Cron::next(long long afterMs, const std::string& zoneName) const
{
    const date::time_zone* zone = findZone(zoneName);
    const date::sys_time<milliseconds> after{milliseconds(afterMs)};
    const auto start = date::floor<minutes>(zone->to_local(after));
    date::local_days day = date::floor<date::days>(start);
    int fromMinute = static_cast<int>((start - day).count());
    for (int i = 0; i < kHorizonDays; ++i, day += date::days(1), fromMinute = 0) {
        const date::year_month_day ymd(day);
        if (!matchesDay(static_cast<int>(unsigned(ymd.month())),
                        static_cast<int>(unsigned(ymd.day())),
                        static_cast<int>(date::weekday(day).c_encoding())))
            continue;
        for (int h = fromMinute / 60; h < 24; ++h) {
            if (!m_hours[static_cast<size_t>(h)])
                continue;
            for (int m = h == fromMinute / 60 ? fromMinute % 60 : 0; m < 60; ++m) {
                if (!m_minutes[static_cast<size_t>(m)])
                    continue;
                const long long at =
                    toInstant(zone, date::local_seconds(day) + hours(h) + minutes(m));
                if (at > afterMs)
                    return at;
            }
        }
    }
    return std::nullopt;
}

} // namespace delayq
