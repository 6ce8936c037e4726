#include <delayq/schedule.h>

#include <delayq/cron.h>
#include <delayq/error.h>
#include <delayq/timeparse.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>

namespace delayq {

namespace {

[[noreturn]] void refuseRule(const std::string& what)
{
    throw Error(ErrorCode::InvalidArgument, what);
}

} // namespace

void ScheduleRule::validateName(const std::string& name)
{
    if (name.empty() || name.size() > 100)
        refuseRule("a schedule name must be 1 to 100 characters");
    for (unsigned char c : name)
        if (!std::isalnum(c) && c != '.' && c != '_' && c != '-')
            refuseRule("a schedule name may only hold letters, digits and . _ -");
}

void ScheduleRule::validate() const
{
    validateName(name);
    if (cron.empty() == (everyMs == 0))
        refuseRule("a schedule needs exactly one of a cron expression and an interval (every)");
    if (!cron.empty()) {
        Cron::parse(cron);
        Cron::validateZone(zone);
    } else if (everyMs < 1000 || everyMs > 3650LL * 86'400'000) {
        refuseRule("every must be 1s to 3650d, not " + std::to_string(everyMs) + " ms");
    }
    if (catchUpMs < 0 || catchUpMs > kMaxCatchUpMs)
        refuseRule("the catch-up window must be 0 to 7d");
    if (maxAttempts < 0 || maxAttempts > 1000000000)
        refuseRule("max attempts must be 0 (the queue's) to 1000000000");
    validateJitter();
}

void ScheduleRule::validateJitter() const
{
    if (jitterMs < 0)
        refuseRule("the jitter must not be negative, not " + std::to_string(jitterMs) + " ms");
    if (jitterMs > kMaxJitterMs)
        refuseRule("the jitter must be at most 1d, not " + formatDuration(jitterMs));
    if (jitterMs == 0)
        return;
    if (cron.empty()) {
        if (jitterMs > everyMs)
            refuseRule("the jitter (" + formatDuration(jitterMs) +
                       ") must not be longer than the interval (" + formatDuration(everyMs) + ")");
        return;
    }
    // A fire's task must not be pushed past the next fire: the shortest gap between the
    // cron's fires over the next 100 of them is its period here.
    const Cron parsed = Cron::parse(cron);
    const long long now = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
    std::optional<long long> at = parsed.next(now, zone);
    long long gap = 0;
    for (int i = 0; at && i < 100; ++i) {
        const std::optional<long long> after = parsed.next(*at, zone);
        if (after && (gap == 0 || *after - *at < gap))
            gap = *after - *at;
        at = after;
    }
    if (gap > 0 && jitterMs > gap)
        refuseRule("the jitter (" + formatDuration(jitterMs) +
                   ") must not be longer than the shortest gap between the cron's fires (" +
                   formatDuration(gap) + ")");
}

std::optional<long long> ScheduleRule::nextFire(long long afterMs) const
{
    if (!cron.empty())
        return Cron::parse(cron).next(afterMs, zone);
    if (afterMs < anchorMs)
        return anchorMs;
    return anchorMs + ((afterMs - anchorMs) / everyMs + 1) * everyMs;
}

std::string ScheduleRule::describe() const
{
    if (!cron.empty())
        return "cron " + cron + " (" + zone + ")";
    return "every " + formatDuration(everyMs);
}

std::string ScheduleRule::taskId(long long fireMs) const
{
    return "s:" + name + ":" + std::to_string(fireMs);
}

std::string ScheduleRule::runNowTaskId(const std::string& requestId) const
{
    return "s:" + name + ":run:" + requestId;
}

long long ScheduleRule::jitterOf(long long fireMs) const
{
    if (jitterMs <= 0)
        return 0;
    // FNV-1a, 32 bits, as fire_jitter in lua/common.lua: every worker, and the script that
    // makes the task, agree on each fire's due time.
    std::uint32_t h = 2166136261u;
    for (unsigned char c : name + ":" + std::to_string(fireMs)) {
        h ^= c;
        h *= 16777619u;
    }
    return static_cast<long long>(h % static_cast<std::uint64_t>(jitterMs + 1));
}

const char* ScheduleRule::overlapName(Overlap overlap)
{
    return overlap == Overlap::Skip ? "skip" : "allow";
}

std::optional<ScheduleRule::Overlap> ScheduleRule::parseOverlap(const std::string& word)
{
    if (word == "allow")
        return Overlap::Allow;
    if (word == "skip")
        return Overlap::Skip;
    return std::nullopt;
}

} // namespace delayq

namespace delayq {

FirePlan planFires(const ScheduleRule& rule, long long due, long long nowMs, size_t maxFires)
{
    FirePlan plan;
    const std::optional<Cron> cron =
        rule.cron.empty() ? std::nullopt : std::optional<Cron>(Cron::parse(rule.cron));
    const auto after = [&](long long t) {
        return cron ? cron->next(t, rule.zone) : rule.nextFire(t);
    };
    const long long windowStart = nowMs - std::max(rule.catchUpMs, 1000LL);
    std::optional<long long> t = due;
    if (*t < windowStart) {
        if (!cron) {
            const long long k = (windowStart - *t + rule.everyMs - 1) / rule.everyMs;
            plan.skipped = k;
            t = *t + k * rule.everyMs;
        } else {
            while (t && *t < windowStart && plan.skipped < 1'000'000) {
                ++plan.skipped;
                t = after(*t);
            }
            if (t && *t < windowStart)
                t = after(windowStart - 1);
        }
    }
    while (t && *t <= nowMs && plan.fires.size() < maxFires) {
        plan.fires.push_back(*t);
        t = after(*t);
    }
    plan.next = t;
    return plan;
}

} // namespace delayq
