#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace delayq {

class QueueReader;

// The expected lateness of a queue over the next hours (issue 54, docs/design/forecast.md):
// the due times of its pending tasks and of its schedules' fires, served first due first at
// a capacity measured from recent acks or stated by the operator, capped by its flow limits.

// One point of the curve: tasks due at atMs (server ms) are expected to run latenessMs late,
// with backlog tasks due and not yet served at that moment.
struct ForecastPoint
{
    int64_t atMs = 0;
    int64_t latenessMs = 0;
    int64_t backlog = 0;
    // Tasks falling due in the bucket that ends at atMs (pending and schedule fires; for the
    // first point, at atMs == fromMs, the tasks already overdue).
    int64_t due = 0;
};

// What the forecast read, and what it concluded.
struct Forecast
{
    std::string queue;
    int64_t fromMs = 0;    // server now when read
    int64_t horizonMs = 0; // the curve covers [fromMs, fromMs + horizonMs]
    int64_t bucketMs = 0;  // width of a bucket of due times
    // fromMs first, then the end of each bucket; empty when capacityPerSecond is 0. A
    // point's latenessMs is the most of any task due within its bucket, its backlog the one
    // left at its end (the model runs on kRefine sub-buckets of each bucket).
    std::vector<ForecastPoint> curve;
    // The highest lateness of the curve and the due time of the tasks that have it (the
    // earliest such point); 0 and fromMs when nothing is expected to be late.
    int64_t peakLatenessMs = 0;
    int64_t peakAtMs = 0;
    // Tasks per second assumed, and where it came from: "stated" (the operator's),
    // "measured" (recent acks), "rate limit" (the queue's rate, below the other or standing
    // for it when there is none); with capacityPerSecond 0 and no curve: "paused", or
    // "none" when nothing was measured, stated or limited. The concurrency cap is not a rate:
    // it only shows in the measured acks (docs/design/forecast.md).
    double capacityPerSecond = 0;
    std::string capacitySource;
    // What was measured (0 when no acks were seen recently), for the sentence "N× the
    // measured capacity", and the live workers at the time.
    double measuredPerSecond = 0;
    int64_t liveWorkers = 0;
    // The smallest capacity (tasks/s) that keeps the peak at or under thresholdMs, and that
    // as a multiple of capacityPerSecond (0 when capacityPerSecond is 0).
    int64_t thresholdMs = 0;
    double capacityForThresholdPerSecond = 0;
    double capacityFactor = 0;
    // When the capacity is the measured one and workers are live: what one worker did
    // (measuredPerSecond / liveWorkers), and how many workers in all would give
    // capacityForThresholdPerSecond at that rate each (0 otherwise). A rate limit is not
    // raised by more workers, so then both stay 0.
    double perWorkerPerSecond = 0;
    int64_t workersForThreshold = 0;
    // The inputs read: overdue tasks, pending tasks due within the horizon, tasks the
    // schedules' fires will make within it, and what the read cost.
    int64_t overdue = 0;
    int64_t dueInHorizon = 0;
    int64_t scheduledInHorizon = 0;
    int64_t bucketsRead = 0;  // ZCOUNTs of the pending sets (every shard's, both passes)
    int64_t commandsSent = 0; // every Redis command of the read
    // True when schedules or their fires were left out because there were more than the
    // read takes (ForecastReader::kMaxSchedules, kMaxFires).
    bool schedulesTruncated = false;
};

// The fluid model alone (no Redis): pure, so it is unit-tested with tables.
struct ForecastInput
{
    int64_t fromMs = 0;
    int64_t bucketMs = 1000;
    int64_t overdue = 0;           // due at or before fromMs
    std::vector<int64_t> arrivals; // tasks due in (fromMs + k*bucketMs, fromMs + (k+1)*bucketMs]
    double capacityPerSecond = 0;
    // Tasks that can be served at once beyond the capacity (a rate limit's burst); refills at
    // the capacity while the queue is idle, up to this.
    double burst = 0;
};

// The curve, peak and peak time (Forecast's curve, peakLatenessMs, peakAtMs) of serving the
// arrivals first due first at the capacity. Capacity <= 0: an empty curve.
struct ForecastCurve
{
    std::vector<ForecastPoint> points;
    int64_t peakLatenessMs = 0;
    int64_t peakAtMs = 0;
};
ForecastCurve simulateForecast(const ForecastInput& input);
// The smallest capacity (tasks/s, to within 1 %) whose peak is at most thresholdMs;
// 0 when nothing is due.
double capacityForThreshold(ForecastInput input, int64_t thresholdMs);

// Reads a queue's forecast inputs with a bounded number of commands (buckets ZCOUNTs per
// shard, pipelined, plus a fixed few), whatever the queue's size. Synchronous, like
// QueueReader. Throws Error (InvalidArgument for a bad horizon, bucket count or capacity).
class ForecastReader
{
public:
    static constexpr int kDefaultBuckets = 120;
    // Each bucket is cut into this many sub-buckets for the model: the kRefined buckets with
    // the most tasks are read again as such (a second pipeline), the others' tasks are taken
    // as spread evenly over them. A burst within one bucket is then placed to a
    // kRefine-th of the bucket, not smeared over it (docs/design/forecast.md).
    static constexpr int kRefine = 20;
    static constexpr int kRefined = 4;
    static constexpr int kMaxBuckets = 1000;
    static constexpr int64_t kMinHorizonMs = 10'000;
    static constexpr int64_t kMaxHorizonMs = 7LL * 86'400'000;
    // Minutes of acks looked at for the measured capacity.
    static constexpr int kMeasureMinutes = 15;
    // Schedules due within the horizon read at most, and fires counted at most.
    static constexpr size_t kMaxSchedules = 1000;
    static constexpr size_t kMaxFires = 100'000;

    struct Options
    {
        int64_t horizonMs = 6LL * 3'600'000;
        int buckets = kDefaultBuckets;
        // > 0: the operator's capacity (tasks/s), used instead of the measured one (the flow
        // limits still cap it).
        double statedPerSecond = 0;
        int64_t thresholdMs = 60'000;
    };

    explicit ForecastReader(QueueReader& reader);

    // A reader kept between reads (the app's, a loop's) measures the capacity over the time
    // since its previous read when tasks waited at both (5 s to 2 min apart), so it follows a
    // change of the workers within seconds; otherwise over the last minute's acks.
    Forecast read(const Options& options);

    static constexpr int64_t kMinDeltaMs = 5'000;
    static constexpr int64_t kMaxDeltaMs = 120'000;

private:
    QueueReader& m_reader;
    // The previous read: server ms, the queue's acked counter, and whether tasks waited.
    int64_t m_previousAtMs = 0;
    int64_t m_previousAcked = 0;
    bool m_previousBusy = false;
};

} // namespace delayq
