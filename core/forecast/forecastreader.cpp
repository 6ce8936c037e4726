#include <delayq/forecast.h>

#include <delayq/error.h>
#include <delayq/flowstatus.h>
#include <delayq/queuereader.h>

#include "records/taskrecord.h"
#include "schedule/schedulerecord.h"
#include "transport/replychecks.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace delayq {

namespace {

long long number(const Reply& r)
{
    return r.isNil() ? 0 : wholeNumber(r.str).value_or(0);
}

// A sorted set's score as Redis writes it (a double; due times are whole ms).
long long scoreOf(const std::string& text)
{
    return static_cast<long long>(std::llround(std::strtod(text.c_str(), nullptr)));
}

} // namespace

ForecastReader::ForecastReader(QueueReader& reader) : m_reader(reader) {}

Forecast ForecastReader::read(const Options& options)
{
    if (options.horizonMs < kMinHorizonMs || options.horizonMs > kMaxHorizonMs)
        throw Error(ErrorCode::InvalidArgument, "forecast horizon must be from 10s to 7d, not " +
                                                    std::to_string(options.horizonMs) + " ms");
    if (options.buckets < 1 || options.buckets > kMaxBuckets)
        throw Error(ErrorCode::InvalidArgument, "forecast buckets must be 1 to " +
                                                    std::to_string(kMaxBuckets) + ", not " +
                                                    std::to_string(options.buckets));
    if (!std::isfinite(options.statedPerSecond) || options.statedPerSecond < 0)
        throw Error(ErrorCode::InvalidArgument, "a stated capacity must be a positive rate");
    if (options.thresholdMs < 0)
        throw Error(ErrorCode::InvalidArgument, "a forecast threshold cannot be negative");

    Connection& connection = m_reader.connection();
    const size_t shards = m_reader.shardCount();
    Forecast f;
    f.queue = m_reader.name();
    f.horizonMs = options.horizonMs;
    f.thresholdMs = options.thresholdMs;
    // Whole ms per bucket, a multiple of kRefine, the last one ending at or just after the
    // horizon.
    f.bucketMs = (options.horizonMs + options.buckets - 1) / options.buckets;
    f.bucketMs = (f.bucketMs + kRefine - 1) / kRefine * kRefine;
    const long long now = connection.serverNowMs();
    f.fromMs = now;
    const long long toMs = now + f.bucketMs * options.buckets;
    const long long minute = now / 60000;

    // One pipeline: shard 0's settings, live workers and the schedules due within the
    // horizon; then per shard the overdue count, a ZCOUNT per bucket (O(log n) each, however
    // many tasks) and the acked counters of the minutes measured.
    const Keys& first = m_reader.shardKeys(0);
    std::vector<std::vector<std::string>> commands{
        {"HMGET", first.config(), "rate", "burst", "cap", "paused"},
        {"ZCOUNT", first.workers(), "(" + std::to_string(now), "+inf"},
        {"ZRANGE", first.scheduleNext(), "-inf", std::to_string(toMs), "BYSCORE", "LIMIT", "0",
         std::to_string(kMaxSchedules + 1), "WITHSCORES"}};
    constexpr size_t kFixed = 3;
    const size_t perShard = 1 + static_cast<size_t>(options.buckets) + kMeasureMinutes + 2;
    for (size_t s = 0; s < shards; ++s) {
        const Keys& k = m_reader.shardKeys(s);
        commands.push_back({"ZCOUNT", k.pending(), "-inf", std::to_string(now)});
        for (int b = 0; b < options.buckets; ++b)
            commands.push_back({"ZCOUNT", k.pending(), "(" + std::to_string(now + b * f.bucketMs),
                                std::to_string(now + (b + 1) * f.bucketMs)});
        for (long long m = minute - kMeasureMinutes; m <= minute; ++m)
            commands.push_back({"HGET", k.minute(m), "acked"});
        commands.push_back({"HGET", k.stats(), "acked"});
    }
    const auto r = connection.pipeline(commands);
    throwFirstError(r);
    f.commandsSent = static_cast<int64_t>(commands.size());
    f.bucketsRead = static_cast<int64_t>(shards) * options.buckets;

    ForecastInput input;
    input.fromMs = now;
    input.bucketMs = f.bucketMs;
    input.arrivals.assign(static_cast<size_t>(options.buckets), 0);
    std::vector<long long> acked(kMeasureMinutes + 1, 0); // oldest first, this minute last
    long long ackedTotal = 0;
    for (size_t s = 0; s < shards; ++s) {
        const Reply* p = &r[kFixed + s * perShard];
        input.overdue += p[0].toInteger();
        for (size_t b = 0; b < input.arrivals.size(); ++b)
            input.arrivals[b] += p[1 + b].toInteger();
        for (size_t m = 0; m < acked.size(); ++m)
            acked[m] += number(p[1 + input.arrivals.size() + m]);
        ackedTotal += number(p[1 + input.arrivals.size() + acked.size()]);
    }
    f.overdue = input.overdue;
    for (const int64_t a : input.arrivals)
        f.dueInHorizon += a;

    // The schedules' fires within the horizon, each a task due at its fire plus its jitter
    // (ScheduleRule::dueOf); a fire already past and not yet made is overdue.
    const Reply& next = r[2];
    std::vector<std::string> names;
    for (size_t i = 0; i + 1 < next.elements.size() && names.size() < kMaxSchedules; i += 2)
        names.push_back(next.elements[i].toString());
    f.schedulesTruncated = next.elements.size() / 2 > kMaxSchedules;
    if (!names.empty()) {
        std::vector<std::string> get{"HMGET", first.schedules()};
        get.insert(get.end(), names.begin(), names.end());
        const Reply records = connection.command(get);
        size_t fires = 0;
        for (size_t i = 0; i < names.size() && i < records.elements.size(); ++i) {
            if (records.elements[i].isNil())
                continue;
            const auto info = parseScheduleRecord(names[i], records.elements[i].toString());
            if (!info || info->rule.paused)
                continue;
            for (std::optional<long long> at = scoreOf(next.elements[2 * i + 1].toString());
                 at && *at <= toMs; at = info->rule.nextFire(*at)) {
                if (++fires > kMaxFires) {
                    f.schedulesTruncated = true;
                    break;
                }
                const long long due = info->rule.dueOf(*at);
                if (due <= now)
                    ++input.overdue;
                else if (due <= toMs)
                    ++input.arrivals[static_cast<size_t>((due - now - 1) / f.bucketMs)];
                else
                    continue;
                ++f.scheduledInHorizon;
            }
            if (f.schedulesTruncated)
                break;
        }
        ++f.commandsSent;
    }

    // The buckets with the most tasks, read again in sub-buckets (one more pipeline of
    // kRefined x kRefine ZCOUNTs per shard); the schedule fires counted above stay spread.
    const int64_t subMs = f.bucketMs / kRefine;
    std::vector<size_t> heavy;
    for (size_t b = 0; b < input.arrivals.size(); ++b)
        if (input.arrivals[b] > 0)
            heavy.push_back(b);
    std::sort(heavy.begin(), heavy.end(), [&input](size_t a, size_t b) {
        return input.arrivals[a] != input.arrivals[b] ? input.arrivals[a] > input.arrivals[b]
                                                      : a < b;
    });
    if (heavy.size() > static_cast<size_t>(kRefined))
        heavy.resize(kRefined);
    std::vector<std::vector<int64_t>> sub(input.arrivals.size());
    if (!heavy.empty()) {
        std::vector<std::vector<std::string>> fine;
        for (size_t s = 0; s < shards; ++s)
            for (const size_t b : heavy)
                for (int i = 0; i < kRefine; ++i) {
                    const long long start =
                        now + static_cast<long long>(b) * f.bucketMs + i * subMs;
                    fine.push_back({"ZCOUNT", m_reader.shardKeys(s).pending(),
                                    "(" + std::to_string(start), std::to_string(start + subMs)});
                }
        const auto counts = connection.pipeline(fine);
        throwFirstError(counts);
        f.commandsSent += static_cast<int64_t>(fine.size());
        f.bucketsRead += static_cast<int64_t>(fine.size());
        for (const size_t b : heavy)
            sub[b].assign(kRefine, 0);
        size_t at = 0;
        for (size_t s = 0; s < shards; ++s)
            for (const size_t b : heavy)
                for (int i = 0; i < kRefine; ++i)
                    sub[b][static_cast<size_t>(i)] += counts[at++].toInteger();
    }
    // The fine grid: a heavy bucket's own sub-bucket counts, plus what its read did not see
    // (schedule fires, tasks pushed between the two reads) and every other bucket's tasks
    // spread evenly.
    ForecastInput fineInput = input;
    fineInput.bucketMs = subMs;
    fineInput.arrivals.assign(input.arrivals.size() * kRefine, 0);
    for (size_t b = 0; b < input.arrivals.size(); ++b) {
        int64_t rest = input.arrivals[b];
        int64_t* out = &fineInput.arrivals[b * kRefine];
        if (!sub[b].empty())
            for (int i = 0; i < kRefine; ++i) {
                const int64_t n = std::min(rest, sub[b][static_cast<size_t>(i)]);
                out[i] += n;
                rest -= n;
            }
        for (int i = 0; i < kRefine; ++i)
            out[i] += rest / kRefine + (i < rest % kRefine ? 1 : 0);
    }

    // The measured capacity: while tasks wait (the workers take what they can), the acks of
    // the last 60 s (this minute and the previous one's share still inside the window, taken
    // as spread evenly); while none wait the acks only say what was asked, so the best of
    // that and the busiest whole minute of the last kMeasureMinutes.
    const double previousShare = 1.0 - static_cast<double>(now % 60000) / 60000.0;
    const double lastMinute = static_cast<double>(acked[kMeasureMinutes]) +
                              static_cast<double>(acked[kMeasureMinutes - 1]) * previousShare;
    double measured = lastMinute / 60.0;
    if (f.overdue == 0)
        for (size_t m = 0; m < kMeasureMinutes; ++m)
            measured = std::max(measured, static_cast<double>(acked[m]) / 60.0);
    // Since the previous read of this reader, when tasks waited then and now: the acks in
    // between are what the workers could do (the counter is the queue's, every shard's).
    const bool busy = f.overdue > 0;
    const int64_t sincePrevious = now - m_previousAtMs;
    if (busy && m_previousBusy && sincePrevious >= kMinDeltaMs && sincePrevious <= kMaxDeltaMs &&
        ackedTotal >= m_previousAcked)
        measured = static_cast<double>(ackedTotal - m_previousAcked) * 1000.0 /
                   static_cast<double>(sincePrevious);
    if (!m_previousBusy || !busy || sincePrevious >= kMinDeltaMs) {
        // A read sooner than kMinDeltaMs after the last keeps the last as its base.
        m_previousAtMs = now;
        m_previousAcked = ackedTotal;
        m_previousBusy = busy;
    }
    f.measuredPerSecond = measured;
    f.liveWorkers = r[1].toInteger();

    FlowStatus flow;
    const Reply& config = r[0];
    const auto field = [&config](size_t i) {
        return i < config.elements.size() && !config.elements[i].isNil() ? config.elements[i].str
                                                                         : std::string();
    };
    flow.setLimits(field(0), field(1), field(2));
    if (options.statedPerSecond > 0) {
        f.capacityPerSecond = options.statedPerSecond;
        f.capacitySource = "stated";
    } else if (measured > 0) {
        f.capacityPerSecond = measured;
        f.capacitySource = "measured";
    }
    // The rate limit caps whatever else was taken, and stands for the capacity when nothing
    // was measured (the workers are assumed to keep up with it), unless nobody takes the
    // tasks: some overdue, no ack in the last minute, no live worker. Its burst serves at once.
    const double rate = flow.ratePerSecond();
    const bool nobodyTakes = measured <= 0 && f.overdue > 0 && f.liveWorkers == 0;
    const bool rateStands = f.capacityPerSecond == 0 && !nobodyTakes;
    if (rate > 0 && (rateStands || (f.capacityPerSecond > 0 && rate < f.capacityPerSecond))) {
        f.capacityPerSecond = rate;
        f.capacitySource = "rate limit";
        input.burst = static_cast<double>(flow.effectiveBurst());
    }
    if (field(3) == "1") {
        f.capacityPerSecond = 0;
        f.capacitySource = "paused";
    }
    if (f.capacityPerSecond <= 0 && f.capacitySource.empty())
        f.capacitySource = "none";

    fineInput.burst = input.burst;
    fineInput.capacityPerSecond = f.capacityPerSecond;
    const ForecastCurve curve = simulateForecast(fineInput);
    f.peakLatenessMs = curve.peakLatenessMs;
    f.peakAtMs = curve.peakAtMs;
    // Back to the buckets: each with the most lateness within it and the backlog at its end.
    if (!curve.points.empty()) {
        f.curve.reserve(input.arrivals.size() + 1);
        f.curve.push_back(curve.points.front());
        for (size_t b = 0; b < input.arrivals.size(); ++b) {
            ForecastPoint p;
            for (int i = 1; i <= kRefine; ++i) {
                const ForecastPoint& q = curve.points[b * kRefine + static_cast<size_t>(i)];
                p.latenessMs = std::max(p.latenessMs, q.latenessMs);
                p.due += q.due;
                p.atMs = q.atMs;
                p.backlog = q.backlog;
            }
            f.curve.push_back(p);
        }
    }
    f.capacityForThresholdPerSecond = capacityForThreshold(fineInput, options.thresholdMs);
    if (f.capacityPerSecond > 0)
        f.capacityFactor = f.capacityForThresholdPerSecond / f.capacityPerSecond;
    if (f.capacitySource == "measured" && f.liveWorkers > 0) {
        f.perWorkerPerSecond = measured / static_cast<double>(f.liveWorkers);
        f.workersForThreshold = static_cast<int64_t>(
            std::ceil(f.capacityForThresholdPerSecond / f.perWorkerPerSecond - 1e-9));
    }
    return f;
}

} // namespace delayq
