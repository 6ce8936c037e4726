#include <delayq/forecast.h>

#include <algorithm>
#include <cmath>

namespace delayq {

// A fluid queue: within a bucket the arrivals and the service are spread evenly, tasks are
// served first due first, so the last task due in a bucket waits for the backlog left at the
// bucket's end (backlog / capacity). A rate limit's burst is credit that serves at once and
// refills at the capacity while nothing waits, up to the burst (its token bucket).
ForecastCurve simulateForecast(const ForecastInput& input)
{
    ForecastCurve out;
    out.peakAtMs = input.fromMs;
    if (!(input.capacityPerSecond > 0) || input.bucketMs <= 0)
        return out;
    const double perMs = input.capacityPerSecond / 1000.0;
    const double burst = std::max(0.0, input.burst);
    const auto lateness = [perMs](double backlog) {
        return static_cast<int64_t>(std::llround(backlog / perMs));
    };
    double credit = burst;
    double backlog = static_cast<double>(std::max<int64_t>(0, input.overdue));
    const double first = std::min(backlog, credit);
    backlog -= first;
    credit -= first;
    out.points.reserve(input.arrivals.size() + 1);
    const auto add = [&](int64_t atMs, int64_t due) {
        ForecastPoint p;
        p.atMs = atMs;
        p.backlog = static_cast<int64_t>(std::llround(backlog));
        p.latenessMs = lateness(backlog);
        p.due = due;
        if (p.latenessMs > out.peakLatenessMs) {
            out.peakLatenessMs = p.latenessMs;
            out.peakAtMs = atMs;
        }
        out.points.push_back(p);
    };
    add(input.fromMs, std::max<int64_t>(0, input.overdue));
    const double perBucket = perMs * static_cast<double>(input.bucketMs);
    for (size_t k = 0; k < input.arrivals.size(); ++k) {
        const double arriving = static_cast<double>(std::max<int64_t>(0, input.arrivals[k]));
        const double available = credit + perBucket;
        const double waiting = backlog + arriving;
        const double served = std::min(waiting, available);
        backlog = waiting - served;
        credit = std::min(burst, available - served);
        add(input.fromMs + static_cast<int64_t>(k + 1) * input.bucketMs,
            std::max<int64_t>(0, input.arrivals[k]));
    }
    return out;
}

double capacityForThreshold(ForecastInput input, int64_t thresholdMs)
{
    int64_t total = std::max<int64_t>(0, input.overdue);
    for (const int64_t a : input.arrivals)
        total += std::max<int64_t>(0, a);
    if (total == 0 || input.bucketMs <= 0)
        return 0;
    const auto fits = [&](double capacity) {
        input.capacityPerSecond = capacity;
        return simulateForecast(input).peakLatenessMs <= std::max<int64_t>(0, thresholdMs);
    };
    double lo = 0;
    double hi = std::max(1.0, input.capacityPerSecond);
    // Enough to serve everything within a millisecond fits any threshold; the doubling stops
    // well before (2^64 tasks/s).
    for (int i = 0; i < 64 && !fits(hi); ++i) {
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > hi * 0.005) {
        const double mid = (lo + hi) / 2;
        (fits(mid) ? hi : lo) = mid;
    }
    return hi;
}

} // namespace delayq
