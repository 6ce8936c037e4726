#include <delayq/taskhistory.h>

#include "records/taskrecord.h"

#include <string_view>

namespace delayq {

namespace {

std::optional<TaskEvent> parseEvent(std::string_view line)
{
    std::string_view parts[4];
    for (auto& part : parts) {
        const size_t bar = line.find('|');
        if (bar == std::string_view::npos)
            return std::nullopt;
        part = line.substr(0, bar);
        line.remove_prefix(bar + 1);
    }
    const std::optional<long long> at = wholeNumber(parts[0]);
    if (!at || parts[1].empty())
        return std::nullopt;
    TaskEvent event{*at, std::string(parts[1]), std::nullopt, std::string(parts[3]),
                    std::string(line)};
    if (!parts[2].empty()) {
        event.due = wholeNumber(parts[2]);
        if (!event.due)
            return std::nullopt;
    }
    return event;
}

// An event's who and text as the scripts keep them: no line break, and no '|' in who.
std::string cleaned(std::string text, bool inWho)
{
    for (char& c : text)
        if (c == '\n' || c == '\r' || (inWho && c == '|'))
            c = ' ';
    return text;
}

} // namespace

std::vector<TaskEvent> parseTaskEvents(const std::string& stored)
{
    std::vector<TaskEvent> events;
    std::string_view rest = stored;
    while (!rest.empty()) {
        const size_t end = rest.find('\n');
        if (auto event = parseEvent(rest.substr(0, end)))
            events.push_back(std::move(*event));
        if (end == std::string_view::npos)
            break;
        rest.remove_prefix(end + 1);
    }
    return events;
}

std::string formatTaskEvents(const std::vector<TaskEvent>& events)
{
    std::string out;
    for (const TaskEvent& e : events) {
        if (!out.empty())
            out += '\n';
        out += std::to_string(e.at) + '|' + cleaned(e.kind, true) + '|' +
               (e.due ? std::to_string(*e.due) : std::string()) + '|' + cleaned(e.who, true) + '|' +
               cleaned(e.text, false);
    }
    return out;
}

} // namespace delayq
