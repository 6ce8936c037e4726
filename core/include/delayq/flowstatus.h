#pragma once

#include <delayq/timeparse.h>

#include <algorithm>
#include <charconv>
#include <string>

namespace delayq {

// What a queue's flow limits (its rate and cap, docs/design/flow.md) are doing now, for stats,
// the exporter and the app's Overview: QueueReader::flowStatus().
struct FlowStatus
{
    long long serverNowMs = 0;
    // The limits as configured (0 = none): rateTasks per rateMs, burst (0 = rateTasks), cap.
    long long rateTasks = 0;
    long long rateMs = 0;
    long long burst = 0;
    long long cap = 0;
    // Fair order (docs/design/flow.md) and its per-group limits: groupCap (0 = none) and the
    // group rate, groupRateTasks per groupRateMs (0 = none; its burst is groupRateTasks).
    bool fair = false;
    long long groupCap = 0;
    long long groupRateTasks = 0;
    long long groupRateMs = 0;
    bool paused = false;
    // The most recent claim a limit held back (any shard): "rate" | "cap", and when (server
    // ms); "" and 0 when none has yet.
    std::string heldBy;
    long long heldAtMs = 0;
    // Held back now: a limit held a due task within the last max(2 s, 2 x the rate's
    // interval), or the cap is taken by live leases while tasks are due; never while paused,
    // nothing is due, or the limit named is off. heldNowBy: "rate" | "cap" ("" when not held).
    bool heldNow = false;
    std::string heldNowBy;
    // Due tasks waiting (pending, due at or before now) and live leases (active, deadline
    // after now), summed over the shards.
    long long dueWaiting = 0;
    long long activeLive = 0;
    // Tasks started in the last 60 s, estimated from the per-minute "claimed" counters: the
    // current minute's and the share of the previous minute still inside the window.
    long long startsPerMinute = 0;

    // The limits from the config's stored values ("N/MS", burst, cap; lua/config.lua). Garbage
    // reads as no limit, as the scripts read it.
    void setLimits(const std::string& rate, const std::string& burstValue,
                   const std::string& capValue)
    {
        const auto whole = [](const std::string& text) {
            long long n = 0;
            const char* end = text.data() + text.size();
            const auto [at, ec] = std::from_chars(text.data(), end, n);
            return ec == std::errc() && at == end && n > 0 ? n : 0LL;
        };
        const size_t slash = rate.find('/');
        rateTasks = slash == std::string::npos ? 0 : whole(rate.substr(0, slash));
        rateMs = slash == std::string::npos ? 0 : whole(rate.substr(slash + 1));
        if (rateTasks == 0 || rateMs == 0)
            rateTasks = rateMs = 0;
        burst = whole(burstValue);
        cap = whole(capValue);
    }

    // Fair order's settings from the config's stored order, group_cap and group_rate, read as
    // the scripts read them (garbage: none).
    void setGroupLimits(const std::string& order, const std::string& groupCapValue,
                        const std::string& groupRate)
    {
        FlowStatus read;
        read.setLimits(groupRate, {}, groupCapValue);
        fair = order == "fair";
        groupCap = read.cap;
        groupRateTasks = read.rateTasks;
        groupRateMs = read.rateMs;
    }

    // Sets heldNow and heldNowBy from the other fields (serverNowMs the time they were read).
    // A claim held back by the rate retries when the next token comes (within the interval),
    // so a hold older than two intervals (at least 2 s) means the workers stopped finding it
    // held; a full cap holds whatever is due until a lease ends, however long ago the last
    // claim looked (the workers sleep until an ack wakes them).
    void judge()
    {
        heldNowBy.clear();
        if (!paused && dueWaiting > 0) {
            const long long window = std::max(2000LL, 2 * rateMs);
            const bool recent = heldAtMs > 0 && serverNowMs - heldAtMs <= window;
            if (recent && heldBy == "rate" && rateTasks > 0)
                heldNowBy = "rate";
            else if (recent && heldBy == "cap" && cap > 0)
                heldNowBy = "cap";
            else if (cap > 0 && activeLive >= cap)
                heldNowBy = "cap";
        }
        heldNow = !heldNowBy.empty();
    }

    bool limited() const { return rateTasks > 0 || cap > 0; }
    long long effectiveBurst() const { return burst > 0 ? burst : rateTasks; }
    // Tasks per second the rate allows (0 without one).
    double ratePerSecond() const
    {
        return rateTasks > 0 && rateMs > 0 ? static_cast<double>(rateTasks) * 1000.0 / rateMs : 0;
    }
    // The rate as people write it: "50/s", "3000/m", "2/h", "5/250ms", "1/1m 30s"; "" when off.
    static std::string rateText(long long tasks, long long ms)
    {
        if (tasks <= 0 || ms <= 0)
            return {};
        const std::string n = std::to_string(tasks) + "/";
        if (ms == 1000)
            return n + "s";
        if (ms == 60000)
            return n + "m";
        if (ms == 3600000)
            return n + "h";
        return n + formatDuration(ms);
    }
    std::string rateText() const { return rateText(rateTasks, rateMs); }
};

} // namespace delayq
