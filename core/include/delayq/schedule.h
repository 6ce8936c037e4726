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
    // What a fire does while the previous fire's task is still pending or active: make its
    // task anyway (Allow), or skip the fire, counted in ScheduleInfo::skipped and overlapped.
    enum class Overlap
    {
        Allow,
        Skip
    };
    Overlap overlap = Overlap::Allow;
    // Each fire's task is due up to this much after the fire (jitterOf: the same for every
    // worker), so many schedules on the same time do not all fall due in the same
    // millisecond. The fire, and so the task's id, stays the rule's time. 0 to the shortest
    // gap between the rule's fires, and at most kMaxJitterMs.
    long long jitterMs = 0;

    // Throws Error(InvalidArgument) naming what is wrong (name, cron, zone, every, catch-up,
    // max attempts). Does not check the payload against the queue's limit: Redis does.
    void validate() const;
    // The first fire strictly after afterMs; nullopt when there is none.
    std::optional<long long> nextFire(long long afterMs) const;
    // "cron 0 9 * * 1-5 (Europe/Berlin)" or "every 30s".
    std::string describe() const;
    // The task id of the fire at fireMs.
    std::string taskId(long long fireMs) const;
    // The task id of a run-now request (Schedules::runNow).
    std::string runNowTaskId(const std::string& requestId) const;
    // How far after fireMs its task is due: 0..jitterMs, from a hash of the name and fireMs
    // (fire_jitter in lua/common.lua computes the same).
    long long jitterOf(long long fireMs) const;
    long long dueOf(long long fireMs) const { return fireMs + jitterOf(fireMs); }

    static constexpr long long kMaxCatchUpMs = 7LL * 86'400'000;
    static constexpr long long kMaxJitterMs = 86'400'000;
    // "allow" | "skip", and back (nullopt for any other word).
    static const char* overlapName(Overlap overlap);
    static std::optional<Overlap> parseOverlap(const std::string& word);
    static void validateName(const std::string& name);
    // The jitter against the rule (validate() calls it): not negative, at most kMaxJitterMs,
    // and not longer than the interval or the shortest gap between the cron's fires.
    void validateJitter() const;
};

// A schedule as stored, with what its fires did so far.
struct ScheduleInfo
{
    ScheduleRule rule;
    long long version = 0;             // +1 on every change
    std::optional<long long> nextFire; // none while paused
    long long fired = 0;               // tasks made
    long long skipped = 0;    // fires older than the catch-up window when they were seen, or
                              // skipped by the overlap policy
    long long overlapped = 0; // of those, the fires skipped by the overlap policy
    long long lastFire = 0;   // ms, 0 = never
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
