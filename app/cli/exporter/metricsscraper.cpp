#include "exporter/metricsscraper.h"

#include "exporter/prometheustext.h"
#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/queuereader.h>
#include <delayq/workerregistry.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>

namespace cli {

namespace {

// The counters `delayq stats` shows (Queue::stats), each a Prometheus counter of its own: they
// count different events, so a sum over one label would mean nothing.
struct CounterInfo
{
    const char* field;
    const char* help;
};
const CounterInfo kCounters[] = {
    {"pushed", "Tasks pushed (new ids; a replaced id counts again)."},
    {"claimed", "Tasks handed to a worker."},
    {"acked", "Tasks a worker finished (acked)."},
    {"retried", "Tasks a worker failed that were scheduled again after their backoff."},
    {"died", "Tasks moved to the dead letters (attempts spent)."},
    {"cancelled", "Pending tasks cancelled."},
    {"expired", "Leases that ran out (the worker died or hung) and were reaped."},
    {"broken", "Ids whose task data was missing or garbled when due."},
    {"dead_dropped", "Dead tasks the dead bound dropped, oldest first (config dead_max, "
                     "dead_max_bytes)."},
    {"expired_unstarted", "Tasks claimed after their start-by time (push --expires-at, "
                          "--max-age, config max_age): never run, sent to dead or dropped."},
    // Counted by lua/common.lua's bin_trim since layout 2.9; absent from a queue that never
    // dropped one (Queue::stats names only the counters above it).
    {"bin_dropped", "Removed tasks the recycle bin dropped: older than bin_keep, or the oldest "
                    "past bin_max or bin_bytes (no longer restorable). A bin left untouched for "
                    "bin_keep expires whole, uncounted."},
};

// A counter of the snapshot, 0 when the stats hash has no such field yet.
long long counterOf(const delayq::QueueSnapshot& q, const char* field)
{
    const auto it = q.counters.find(field);
    return it == q.counters.end() ? 0 : it->second;
}

} // namespace

MetricsScraper::MetricsScraper(delayq::Connection& connection, std::string prefix,
                               std::vector<std::string> queues)
    : m_connection(connection), m_prefix(std::move(prefix)), m_queues(std::move(queues))
{}

MetricsScraper::Reading MetricsScraper::read()
{
    const std::vector<std::string> names =
        m_queues.empty() ? delayq::Queue::listQueues(m_connection, m_prefix) : m_queues;
    delayq::QueueSnapshotReader reader(m_connection, m_prefix);
    delayq::WorkerRegistry registry(m_connection, m_prefix);
    Reading out;
    out.queues.reserve(names.size());
    for (size_t first = 0; first < names.size(); first += kQueuesPerRoundTrip) {
        const size_t last = std::min(names.size(), first + kQueuesPerRoundTrip);
        const std::vector<std::string> chunk(names.begin() + static_cast<long>(first),
                                             names.begin() + static_cast<long>(last));
        auto snapshots = reader.read(chunk, false);
        out.skipped += reader.skipped();
        std::move(snapshots.begin(), snapshots.end(), std::back_inserter(out.queues));
        for (const auto& worker : registry.read(chunk)) {
            const double age = static_cast<double>(registry.nowMs() - worker.lastSeenMs) / 1000.0;
            auto [it, added] = out.heartbeatAge.emplace(worker.queue, age);
            if (!added)
                it->second = std::min(it->second, age);
        }
    }
    for (const auto& q : out.queues) {
        if (!q.flow.fair)
            continue;
        try {
            delayq::QueueReader queue(m_connection, q.name, m_prefix);
            out.groups.emplace(q.name, queue.busyGroups(kBusiestGroups));
        } catch (const delayq::Error& e) {
            if (e.isUnreachable())
                throw;
            // An ACL keeping the index from this user: no group samples, the rest stays.
        }
    }
    return out;
}

void MetricsScraper::refreshForecasts(const Reading& reading)
{
    const long long now = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now().time_since_epoch())
                              .count();
    std::map<std::string, CachedForecast> kept;
    std::vector<std::pair<long long, std::string>> due; // last read, queue
    for (const auto& q : reading.queues) {
        auto it = m_forecasts.find(q.name);
        if (it != m_forecasts.end())
            kept.emplace(q.name, std::move(it->second));
        const long long readAt = it == m_forecasts.end() ? 0 : kept[q.name].readAtMs;
        if (readAt == 0 || now - readAt >= kForecastEveryMs)
            due.emplace_back(readAt, q.name);
    }
    m_forecasts = std::move(kept);
    std::sort(due.begin(), due.end());
    if (due.size() > kForecastsPerScrape)
        due.resize(kForecastsPerScrape);
    for (const auto& [readAt, name] : due) {
        try {
            delayq::QueueReader queue(m_connection, name, m_prefix);
            m_forecasts[name] = {now, delayq::ForecastReader(queue).read({})};
        } catch (const delayq::Error&) {
            // The queue went or its keys changed type meanwhile: no forecast this time.
            m_forecasts.erase(name);
        }
    }
}

void MetricsScraper::renderQueues(PrometheusText& text, const Reading& reading) const
{
    const auto& queues = reading.queues;
    text.family("delayq_tasks", "gauge",
                "Tasks of a queue by state. 'due' is the part of 'pending' whose due time has "
                "come (not a state of its own: do not add it to the others).");
    for (const auto& q : queues) {
        text.sample({{"queue", q.name}, {"state", "pending"}}, q.counts.pending);
        text.sample({{"queue", q.name}, {"state", "due"}}, q.counts.dueNow);
        text.sample({{"queue", q.name}, {"state", "active"}}, q.counts.active);
        text.sample({{"queue", q.name}, {"state", "dead"}}, q.counts.dead);
    }
    text.family("delayq_leases_expired", "gauge",
                "Active tasks whose lease ran out (server clock) that no reap has taken back yet: "
                "their worker died or hung. Part of state 'active', not a state of its own.");
    for (const auto& q : queues)
        text.sample({{"queue", q.name}}, q.counts.leaseExpired);
    text.family("delayq_oldest_overdue_seconds", "gauge",
                "How late the earliest pending task is (server clock): the schedule lag. 0 when "
                "nothing is overdue.");
    for (const auto& q : queues)
        text.sample({{"queue", q.name}}, static_cast<double>(q.oldestOverdueMs) / 1000.0);
    text.family("delayq_schedule_lag_seconds", "gauge",
                "How late the earliest unfired fire of the queue's schedules is (server clock): "
                "0 while the workers keep up; no sample when the queue has no active schedule.");
    for (const auto& q : queues)
        if (q.hasSchedules)
            text.sample({{"queue", q.name}}, static_cast<double>(q.scheduleLagMs) / 1000.0);
    for (const auto& c : kCounters) {
        text.family(std::string("delayq_tasks_") + c.field + "_total", "counter", c.help);
        for (const auto& q : queues)
            text.sample({{"queue", q.name}}, counterOf(q, c.field));
    }
    // The dead bound (docs/design/bounds.md): how full it is, so an alert fires before the
    // oldest failures start to go.
    text.family("delayq_dead_bytes", "gauge",
                "Bytes of the dead tasks (id, record and last error) the dead bound counts.");
    for (const auto& q : queues)
        text.sample({{"queue", q.name}}, q.deadBytes);
    text.family("delayq_dead_bound_use", "gauge",
                "How full the dead bound is, 0..1: the fuller of dead tasks / dead_max and "
                "dead_bytes / dead_max_bytes. At 1 the oldest dead tasks are dropped. No sample "
                "without a bound.");
    for (const auto& q : queues)
        if (q.deadMax > 0 || q.deadMaxBytes > 0)
            text.sample({{"queue", q.name}}, q.deadBoundUse());
    text.family("delayq_paused", "gauge", "1 when the queue is paused (workers do not claim).");
    for (const auto& q : queues)
        text.sample({{"queue", q.name}}, q.paused ? 1LL : 0LL);
    // The flow limits (issue 51): samples only for the queues that have the limit.
    text.family("delayq_rate_limit_per_second", "gauge",
                "The queue's rate limit: tasks started per second across every worker (a rate "
                "of 3000/1m is 50). No sample without a rate.");
    for (const auto& q : queues)
        if (q.flow.rateTasks > 0)
            text.sample({{"queue", q.name}}, q.flow.ratePerSecond());
    text.family("delayq_rate_limit_burst", "gauge",
                "Tasks the rate lets start at once after a quiet spell. No sample without a rate.");
    for (const auto& q : queues)
        if (q.flow.rateTasks > 0)
            text.sample({{"queue", q.name}}, q.flow.effectiveBurst());
    text.family("delayq_concurrency_cap", "gauge",
                "The queue's cap: tasks active at once across every worker. No sample without a "
                "cap.");
    for (const auto& q : queues)
        if (q.flow.cap > 0)
            text.sample({{"queue", q.name}}, q.flow.cap);
    text.family("delayq_limited", "gauge",
                "1 when the limit (label limit: rate or cap) holds due tasks back now, else 0; a "
                "sample per limit the queue has. A limited queue is late by design, not for want "
                "of consumers.");
    for (const auto& q : queues)
        for (const char* limit : {"rate", "cap"})
            if (std::string(limit) == "rate" ? q.flow.rateTasks > 0 : q.flow.cap > 0)
                text.sample({{"queue", q.name}, {"limit", limit}},
                            q.flow.heldNowBy == limit ? 1LL : 0LL);
    text.family("delayq_limited_due_tasks", "gauge",
                "Due tasks waiting only because a limit holds the queue back now (0 when none "
                "does). A sample per queue with a rate or a cap.");
    for (const auto& q : queues)
        if (q.flow.limited())
            text.sample({{"queue", q.name}}, q.flow.heldNow ? q.flow.dueWaiting : 0LL);
    // Fair order (docs/design/flow.md): samples only for the queues in it.
    text.family("delayq_fair_order", "gauge",
                "1 when the queue hands out its due tasks by group in turn (order fair). No "
                "sample in due order.");
    for (const auto& q : queues)
        if (q.flow.fair)
            text.sample({{"queue", q.name}}, 1LL);
    text.family("delayq_group_cap", "gauge",
                "Fair order's group cap: tasks of one group active at once. No sample without "
                "one.");
    for (const auto& q : queues)
        if (q.flow.fair && q.flow.groupCap > 0)
            text.sample({{"queue", q.name}}, q.flow.groupCap);
    text.family("delayq_group_rate_limit_per_second", "gauge",
                "Fair order's group rate: tasks of one group started per second. No sample "
                "without one.");
    for (const auto& q : queues)
        if (q.flow.fair && q.flow.groupRateTasks > 0)
            text.sample({{"queue", q.name}}, static_cast<double>(q.flow.groupRateTasks) * 1000.0 /
                                                 static_cast<double>(q.flow.groupRateMs));
    text.family("delayq_groups", "gauge",
                "Groups of a queue in fair order by state (label state: in_turn, with due "
                "tasks; at_cap; waiting_for_rate), as delayq stats counts them.");
    for (const auto& [name, g] : reading.groups) {
        text.sample({{"queue", name}, {"state", "in_turn"}}, g.ready);
        text.sample({{"queue", name}, {"state", "at_cap"}}, g.atCap);
        text.sample({{"queue", name}, {"state", "waiting_for_rate"}}, g.atRate);
    }
    text.family("delayq_busy_group_due_tasks", "gauge",
                "Due tasks waiting in each of the busiest groups (at most 5 a queue in fair "
                "order, as delayq stats lists them; group \"\" is the tasks without one).");
    for (const auto& [name, g] : reading.groups)
        for (const auto& group : g.groups)
            text.sample({{"queue", name}, {"group", group.group}}, group.dueWaiting);
    text.family("delayq_busy_group_active_tasks", "gauge",
                "Running tasks (live leases) of each of the busiest groups (the same groups as "
                "delayq_busy_group_due_tasks).");
    for (const auto& [name, g] : reading.groups)
        for (const auto& group : g.groups)
            text.sample({{"queue", name}, {"group", group.group}}, group.active);
    text.family("delayq_workers", "gauge",
                "Workers of the queue whose heartbeat is live (delayq workers): 0 with tasks due "
                "means nobody consumes them.");
    for (const auto& q : queues)
        text.sample({{"queue", q.name}}, q.consumers);
    text.family("delayq_worker_heartbeat_age_seconds", "gauge",
                "Since the freshest heartbeat of any worker of the queue (server clock); no "
                "sample when no worker is listed.");
    for (const auto& [queue, age] : reading.heartbeatAge)
        text.sample({{"queue", queue}}, age);
    // The forecast (issue 54): no sample while no capacity is known (nothing acked lately, no
    // rate limit) or the queue is paused.
    text.family("delayq_forecast_peak_lateness_seconds", "gauge",
                "The highest lateness expected within the next 6 h (due times of pending tasks "
                "and schedule fires served at the measured capacity, capped by the rate limit; "
                "read at most once a minute). 0 when nothing is expected late.");
    for (const auto& [queue, cached] : m_forecasts)
        if (cached.forecast.capacityPerSecond > 0)
            text.sample({{"queue", queue}},
                        static_cast<double>(cached.forecast.peakLatenessMs) / 1000.0);
    text.family("delayq_forecast_peak_at_seconds", "gauge",
                "When the tasks due that late fall due (Unix time, s); the forecast's own time "
                "when nothing is expected late.");
    for (const auto& [queue, cached] : m_forecasts)
        if (cached.forecast.capacityPerSecond > 0)
            text.sample({{"queue", queue}}, static_cast<double>(cached.forecast.peakAtMs) / 1000.0);
    text.family("delayq_forecast_capacity_per_second", "gauge",
                "The capacity the forecast assumed (tasks/s).");
    for (const auto& [queue, cached] : m_forecasts)
        if (cached.forecast.capacityPerSecond > 0)
            text.sample({{"queue", queue}}, cached.forecast.capacityPerSecond);
}

std::string MetricsScraper::scrape()
{
    const std::lock_guard lock(m_mutex);
    const auto start = std::chrono::steady_clock::now();
    PrometheusText text;
    Reading reading;
    std::string error;
    try {
        reading = read();
        refreshForecasts(reading);
    } catch (const delayq::Error& e) {
        error = e.what();
        ++m_failedScrapes;
    }
    noteOutcome(error);
    if (error.empty())
        renderQueues(text, reading);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    text.family("delayq_up", "gauge", "1 when this scrape read Redis, 0 when it could not.");
    text.sample({}, error.empty() ? 1LL : 0LL);
    text.family("delayq_scrape_duration_seconds", "gauge",
                "How long this scrape took to read Redis and render.");
    text.sample({}, took.count());
    text.family("delayq_scrape_errors_total", "counter",
                "Scrapes since the exporter started that could not read Redis.");
    text.sample({}, m_failedScrapes);
    text.family("delayq_scrape_skipped_queues", "gauge",
                "Registered names this scrape skipped: not a queue name, or a key of the wrong "
                "type.");
    text.sample({}, static_cast<long long>(reading.skipped));
    return text.text();
}

void MetricsScraper::noteOutcome(const std::string& error)
{
    if (error == m_lastError)
        return;
    const std::string line =
        error.empty()
            ? "delayq: exporter: reading Redis again\n"
            : "delayq: exporter: cannot read Redis: " + printable(error) + " (delayq_up is 0)\n";
    std::fputs(line.c_str(), stderr);
    m_lastError = error;
}

} // namespace cli
