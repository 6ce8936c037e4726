// `delayq forecast QUEUE` (issue 54, docs/design/forecast.md): the expected lateness over
// the next hours, its peak and the capacity that keeps it under a threshold.
#include "commands/commands.h"
#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/forecast.h>
#include <delayq/queue.h>
#include <delayq/timeparse.h>

#include <cmath>
#include <cstdio>

namespace cli {

namespace {

// "50/s", "3000/m", "2/h", "5/250ms", "12.5/s", or a bare number (per second): tasks/s.
double parseCapacity(const std::string& text)
{
    const auto refuse = [&text]() -> double {
        throw UsageError("--capacity: give tasks per interval, e.g. 50/s, 3000/m or 12.5/s, not '" +
                         printable(text.substr(0, 64)) + "'");
    };
    const size_t slash = text.find('/');
    const std::string count = text.substr(0, slash);
    if (count.empty() || count.find_first_not_of("0123456789.") != std::string::npos)
        return refuse();
    char* end = nullptr;
    const double n = std::strtod(count.c_str(), &end);
    if (end != count.c_str() + count.size() || !std::isfinite(n) || !(n > 0))
        return refuse();
    long long ms = 1000;
    if (slash != std::string::npos) {
        std::string interval = text.substr(slash + 1);
        if (interval == "s" || interval == "m" || interval == "h" || interval == "ms")
            interval = "1" + interval;
        try {
            ms = delayq::parseDuration(interval);
        } catch (const delayq::Error&) {
            return refuse();
        }
        if (ms < 1)
            return refuse();
    }
    return n * 1000.0 / static_cast<double>(ms);
}

std::string rate(double perSecond)
{
    char text[32];
    std::snprintf(text, sizeof text, perSecond >= 100 ? "%.0f/s" : "%.3g/s", perSecond);
    return text;
}

// To the second; the date only when it is not the day of nowMs: "09:04:00".
std::string when(long long ms, long long nowMs)
{
    const std::string text = delayq::formatTime(ms).substr(0, 19);
    return text.substr(0, 10) == delayq::formatTime(nowMs).substr(0, 10) ? text.substr(11) : text;
}

std::string late(long long ms)
{
    return ms <= 0 ? "-" : delayq::formatDuration(ms < 1000 ? ms : ms / 1000 * 1000);
}

// "peak 11m late at 09:04; 3.2× the measured capacity keeps it under 1m".
std::string summary(const delayq::Forecast& f)
{
    if (f.capacityPerSecond <= 0) {
        const long long waiting = f.overdue + f.dueInHorizon + f.scheduledInHorizon;
        if (f.capacitySource == "paused")
            return "the queue is paused: nothing is served, " + std::to_string(waiting) +
                   " tasks due within " + delayq::formatDuration(f.horizonMs);
        return "no capacity known (nothing acked in the last " +
               std::to_string(delayq::ForecastReader::kMeasureMinutes) +
               " minutes): give one with --capacity N/s";
    }
    std::string s;
    if (f.peakLatenessMs <= 0)
        s = "nothing expected late within " + delayq::formatDuration(f.horizonMs);
    else
        s = "peak " + late(f.peakLatenessMs) + " late at " + when(f.peakAtMs, f.fromMs);
    if (f.peakLatenessMs > f.thresholdMs && f.capacityFactor > 0) {
        char factor[32];
        std::snprintf(factor, sizeof factor, "%.1f", f.capacityFactor);
        s += std::string("; ") + factor + "\u00d7 the " + f.capacitySource + " capacity (" +
             rate(f.capacityForThresholdPerSecond) + ") keeps it under " +
             delayq::formatDuration(f.thresholdMs);
        if (f.workersForThreshold > f.liveWorkers)
            s += " (" + std::to_string(f.workersForThreshold - f.liveWorkers) +
                 " more workers at " + rate(f.perWorkerPerSecond) + " each)";
    }
    return s;
}

void writeJson(Context& ctx, const delayq::Forecast& f)
{
    JsonWriter j;
    j.beginObject()
        .field("queue", f.queue)
        .field("server_now", static_cast<long long>(f.fromMs))
        .field("horizon_ms", static_cast<long long>(f.horizonMs))
        .field("bucket_ms", static_cast<long long>(f.bucketMs))
        .field("capacity_per_second", f.capacityPerSecond)
        .field("capacity_source", f.capacitySource)
        .field("measured_per_second", f.measuredPerSecond)
        .field("live_workers", static_cast<long long>(f.liveWorkers))
        .field("overdue", static_cast<long long>(f.overdue))
        .field("due_in_horizon", static_cast<long long>(f.dueInHorizon))
        .field("scheduled_in_horizon", static_cast<long long>(f.scheduledInHorizon))
        .field("schedules_truncated", f.schedulesTruncated)
        .field("peak_lateness_ms", static_cast<long long>(f.peakLatenessMs))
        .field("peak_at", static_cast<long long>(f.peakAtMs))
        .field("threshold_ms", static_cast<long long>(f.thresholdMs))
        .field("capacity_for_threshold_per_second", f.capacityForThresholdPerSecond)
        .field("capacity_factor", f.capacityFactor)
        .field("per_worker_per_second", f.perWorkerPerSecond)
        .field("workers_for_threshold", static_cast<long long>(f.workersForThreshold))
        .field("buckets_read", static_cast<long long>(f.bucketsRead))
        .field("commands", static_cast<long long>(f.commandsSent))
        .field("summary", summary(f))
        .key("curve")
        .beginArray();
    for (const auto& p : f.curve)
        j.beginObject()
            .field("at", static_cast<long long>(p.atMs))
            .field("due", static_cast<long long>(p.due))
            .field("backlog", static_cast<long long>(p.backlog))
            .field("lateness_ms", static_cast<long long>(p.latenessMs))
            .endObject();
    j.endArray().endObject();
    ctx.printJson(j);
}

} // namespace

int runForecast(Context& ctx)
{
    ctx.args().parse(
        {{"horizon", true}, {"capacity", true}, {"threshold", true}, {"buckets", true}}, 1, 1);
    delayq::ForecastReader::Options o;
    o.horizonMs = ctx.args().duration("horizon", o.horizonMs);
    if (o.horizonMs < delayq::ForecastReader::kMinHorizonMs ||
        o.horizonMs > delayq::ForecastReader::kMaxHorizonMs)
        throw UsageError("--horizon: from 10s to 7d, not " + delayq::formatDuration(o.horizonMs));
    o.thresholdMs = ctx.args().duration("threshold", o.thresholdMs);
    o.buckets = static_cast<int>(
        ctx.args().number("buckets", 1, delayq::ForecastReader::kMaxBuckets, o.buckets));
    if (ctx.args().has("capacity"))
        o.statedPerSecond = parseCapacity(ctx.args().value("capacity"));
    delayq::Queue queue = ctx.queue();
    const delayq::Forecast f = delayq::ForecastReader(queue).read(o);
    if (ctx.json()) {
        writeJson(ctx, f);
        return ExitOk;
    }
    std::string out = "queue " + printable(f.queue) + ": " + std::to_string(f.overdue) +
                      " overdue, " + std::to_string(f.dueInHorizon) + " pending and " +
                      std::to_string(f.scheduledInHorizon) + " from schedules due within " +
                      delayq::formatDuration(f.horizonMs) + "\n";
    if (f.capacityPerSecond > 0)
        out += "capacity " + rate(f.capacityPerSecond) + " (" + f.capacitySource +
               (f.measuredPerSecond > 0 && f.capacitySource != "measured"
                    ? "; measured " + rate(f.measuredPerSecond)
                    : "") +
               "; " + std::to_string(f.liveWorkers) + " live workers)\n";
    // The rows where something falls due or waits; the quiet stretches between are left out.
    TextTable table({"TIME", "DUE", "BACKLOG", "EXPECTED LATENESS"});
    for (const auto& p : f.curve)
        if (p.due > 0 || p.backlog > 0)
            table.addRow({when(p.atMs, f.fromMs), std::to_string(p.due), std::to_string(p.backlog),
                          late(p.latenessMs)});
    if (table.rowCount() > 0)
        out += table.render();
    if (f.schedulesTruncated)
        out += "(more schedules fire than the forecast reads: it counts the first " +
               std::to_string(delayq::ForecastReader::kMaxSchedules) + " schedules, " +
               std::to_string(delayq::ForecastReader::kMaxFires) + " fires)\n";
    out += summary(f) + "\n";
    ctx.print(out);
    return ExitOk;
}

} // namespace cli
