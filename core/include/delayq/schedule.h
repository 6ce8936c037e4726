#pragma once

#include <optional>
#include <string>
#include <vector>

namespace delayq {

// A recurring task of a native queue (docs/schedules.md): every fire pushes one task, with
// the id "s:NAME:FIRE_MS", due at the fire time.
struct ScheduleRule
{
    std::string name;         // 1..100 of letters, digits, '.', '_', '-'
    std::string cron;         // five fields (delayq/cron.h), or empty for `every`
    std::string zone = "UTC"; // the cron's time zone (tz database name)
    long long everyMs = 0;    // > 0: fires at anchorMs + k * everyMs
    long long anchorMs = 0;   // every: the first fire's time, set when it is added
    std::string payload;      // of every task a fire makes
    int maxAttempts = 0;      // of those tasks; 0 = the queue's
    std::string backoff;      // normalized (Queue::normalizeBackoff); "" = the queue's
    // After downtime, missed fires this close to now fire once each; older ones are skipped
    // and counted. At most 7 days.
    long long catchUpMs = 3'600'000;
    bool paused = false;

    // Throws Error(InvalidArgument) naming what is wrong (name, cron, zone, every, catch-up,
    // max attempts). Does not check the payload against the queue's limit: Redis does.
    void validate() const;
    // The first fire strictly after afterMs; nullopt when there is none.
    std::optional<long long> nextFire(long long afterMs) const;
    // "cron 0 9 * * 1-5 (Europe/Berlin)" or "every 30s".
    std::string describe() const;
    // The task id of the fire at fireMs.
    std::string taskId(long long fireMs) const;

    static constexpr long long kMaxCatchUpMs = 7LL * 86'400'000;
    static void validateName(const std::string& name);
};

// A schedule as stored, with what its fires did so far.
struct ScheduleInfo
{
    ScheduleRule rule;
    long long version = 0;             // +1 on every change
    std::optional<long long> nextFire; // none while paused
    long long fired = 0;               // tasks made
    long long skipped = 0;             // fires older than the catch-up window when they were seen
    long long lastFire = 0;            // ms, 0 = never
    long long updatedMs = 0;
};

// What a worker does with a schedule whose next fire `due` has come, at server time nowMs:
// the fires up to now within the catch-up window (at most maxFires, in order), how many older
// ones it skips, and the fire after those made (nullopt when the rule fires no more). Fires
// in [now - catchUp, now] are made; the window never starts after `due` by less than a second,
// so a tick that is a little late still makes the fire. Skipped cron fires are counted up to
// a million; past that the count says "at least".
struct FirePlan
{
    std::vector<long long> fires;
    long long skipped = 0;
    std::optional<long long> next;
};
FirePlan planFires(const ScheduleRule& rule, long long due, long long nowMs, size_t maxFires = 100);

} // namespace delayq
