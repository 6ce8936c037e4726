#include "records/taskrecord.h"

#include <delayq/reply.h>

#include <charconv>

namespace delayq {

std::optional<long long> wholeNumber(std::string_view text, int base)
{
    long long value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
    if (text.empty() || ec != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

namespace {

// Splits off the text before the next '|' of `rest`; nullopt when there is none.
std::optional<std::string_view> nextField(std::string_view& rest)
{
    const size_t bar = rest.find('|');
    if (bar == std::string_view::npos)
        return std::nullopt;
    std::string_view field = rest.substr(0, bar);
    rest.remove_prefix(bar + 1);
    return field;
}

} // namespace

std::optional<TaskRecord> parseTaskRecord(const std::string& record)
{
    std::string_view rest = record;
    auto created = nextField(rest);
    auto maxAttempts = nextField(rest);
    auto backoff = nextField(rest);
    if (!created || !maxAttempts || !backoff)
        return std::nullopt;
    auto createdMs = wholeNumber(*created, 36);
    auto attempts = wholeNumber(*maxAttempts);
    if (!createdMs || !attempts || *attempts < 0 || *attempts > 1'000'000'000)
        return std::nullopt;
    return TaskRecord{*createdMs, static_cast<int>(*attempts), std::string(*backoff),
                      std::string(rest)};
}

RunEntry parseRunEntry(const std::string& run)
{
    RunEntry entry;
    std::string_view rest = run;
    auto attempts = nextField(rest);
    auto due = nextField(rest);
    auto token = nextField(rest);
    auto claimed = nextField(rest);
    if (!attempts || !due || !token || !claimed)
        return entry;
    auto count = wholeNumber(*attempts);
    entry.attempts = count && *count >= 0 && *count <= 1'000'000'000 ? static_cast<int>(*count) : 0;
    entry.due = wholeNumber(*due);
    entry.token = std::string(*token);
    entry.worker = std::string(rest);
    return entry;
}

void fillTask(Task& task, TaskSet set, const Reply& record, const Reply& run, const Reply& error)
{
    task.state = taskSetName(set);
    task.due = task.score;
    if (!error.isNil())
        task.lastError = error.str;
    if (!run.isNil()) {
        RunEntry entry = parseRunEntry(run.str);
        task.attempts = entry.attempts;
        task.worker = entry.worker;
        // A pending task's due time is its score; the run entry keeps it for the others.
        if (set != TaskSet::Pending && entry.due)
            task.due = *entry.due;
    }
    std::optional<TaskRecord> parsed;
    if (!record.isNil())
        parsed = parseTaskRecord(record.str);
    if (!parsed) {
        task.broken = true;
        if (task.lastError.empty())
            task.lastError = record.isNil()
                                 ? "task data is missing (the id is listed but has no record)"
                                 : "task data is garbled (its record cannot be read)";
        return;
    }
    task.created = parsed->created;
    task.maxAttempts = parsed->maxAttempts;
    task.backoff = std::move(parsed->backoff);
    task.payload = std::move(parsed->payload);
}

void fillExpiry(Task& task, const Reply& own, const Reply& maxAge)
{
    task.expiresAt.reset();
    if (!own.isNil()) {
        if (const auto at = wholeNumber(own.str); at && *at > 0)
            task.expiresAt = *at;
        return;
    }
    const auto age = maxAge.isNil() ? std::nullopt : wholeNumber(maxAge.str);
    if (age && *age > 0 && !task.broken)
        task.expiresAt = task.created + *age;
}

void fillTags(Task& task, const Reply& tag)
{
    task.priority = 0;
    task.group.clear();
    if (tag.isNil())
        return;
    const size_t bar = tag.str.find('|');
    if (bar == std::string::npos)
        return;
    const auto priority = wholeNumber(std::string_view(tag.str).substr(0, bar));
    if (!priority)
        return;
    // Push refuses a priority out of -9..9; anything else stored is shown as none.
    if (*priority >= -9 && *priority <= 9)
        task.priority = static_cast<int>(*priority);
    task.group = tag.str.substr(bar + 1);
}

} // namespace delayq
