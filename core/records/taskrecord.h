#pragma once

#include <delayq/task.h>

#include <optional>
#include <string>
#include <string_view>

namespace delayq {

struct Reply;

// The stored forms of a task in layout 2 (docs/design.md, "Redis key layout"), read the way
// lua/common.lua's parse_record and parse_run read them.
struct TaskRecord
{
    long long created = 0;
    int maxAttempts = 0;
    std::string backoff;
    std::string payload;
};

struct RunEntry
{
    int attempts = 0;
    std::optional<long long> due;
    std::string token;
    std::string worker;
};

// A whole number in `base` filling all of `text`; nullopt for anything else.
std::optional<long long> wholeNumber(std::string_view text, int base = 10);

// nullopt when the record is garbage.
std::optional<TaskRecord> parseTaskRecord(const std::string& record);
// Garbage reads as 0 attempts and no due time, as the scripts read it.
RunEntry parseRunEntry(const std::string& run);

// Fills a Task read from `set` with the given score from its record, run entry and last error
// (each a string or nil reply); marks it broken when the record is missing or garbled.
void fillTask(Task& task, TaskSet set, const Reply& record, const Reply& run, const Reply& error);
// Fills a Task's priority and group from its fl:tags entry "PRIORITY|GROUP" (a string or nil
// reply), as lua/common.lua's fair_tag reads it: nil or garbage reads as 0 and no group.
void fillTags(Task& task, const Reply& tag);
// Fills a Task's expiresAt (since 2.9) from its own start-by entry (lua/common.lua's
// expires_key: ms, "0" = never; nil = none) and the queue's max_age (nil or ms), as claim
// reads them: its own entry, else created + max_age; none for a broken task.
void fillExpiry(Task& task, const Reply& own, const Reply& maxAge);

} // namespace delayq
