#pragma once

#include <delayq/plainqueue.h>
#include <delayq/schedule.h>
#include <delayq/task.h>

#include <string>
#include <string_view>

namespace delayq {

// One task, or one plain member, as a line of an export file (JSON Lines, docs/cli.md "Export
// and import"), written and read with nlohmann-json. Shared by the CLI and the app so both
// write the one format; kept out of delayq_core so the installed library needs no JSON.
// A payload or member that is valid UTF-8 is written as text, any other as base64 with
// "payload_encoding"/"member_encoding": "base64", so every byte comes back.
class TaskLine
{
public:
    static std::string fromTask(const Task& task);
    // Throws Error(InvalidArgument) naming what is wrong: not JSON, a missing or mistyped
    // field, bad base64. The values are not range-checked here (TaskImport::check does).
    static Task toTask(std::string_view line);

    static std::string fromMember(const PlainQueue::Member& member);
    // The member and its score (as text Redis reads back to the same number).
    static PlainQueue::Member toMember(std::string_view line);

    // A queue's schedule (docs/schedules.md) as a line of the same file: an object whose
    // "schedule" is its name. isSchedule tells such a line from a task's without a full parse
    // error; toSchedule throws Error(InvalidArgument) as toTask does (the rule is checked by
    // ScheduleRule::validate, not here).
    static std::string fromSchedule(const ScheduleRule& rule);
    static bool isSchedule(std::string_view line);
    static ScheduleRule toSchedule(std::string_view line);

    static bool isUtf8(std::string_view text);
    static std::string base64(std::string_view data);
    // nullopt when `text` is not padded base64 of the standard alphabet.
    static std::optional<std::string> fromBase64(std::string_view text);
};

} // namespace delayq
