#pragma once

#include <delayq/connection.h>
#include <delayq/forecast.h>
#include <delayq/groupload.h>
#include <delayq/queuesnapshot.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace cli {

class PrometheusText;

// What `delayq exporter` serves at /metrics: every native queue under a prefix (or the ones
// named), read with one pipeline per scrape, rendered in the Prometheus text format.
// Thread-safe: the HTTP threads call scrape() concurrently, and the one Connection (which
// belongs to one thread at a time) is only used under the mutex.
class MetricsScraper
{
public:
    // queues empty: every queue registered under the prefix, discovered at each scrape.
    MetricsScraper(delayq::Connection& connection, std::string prefix,
                   std::vector<std::string> queues);

    // Never throws for Redis errors: a scrape that cannot read Redis says delayq_up 0.
    std::string scrape();

    // Queues read per pipeline: 12 commands each (10 of the snapshot, 2 of the worker
    // registry), so one write stays a few tens of KiB.
    static constexpr size_t kQueuesPerRoundTrip = 250;
    // The lateness forecast (docs/design/forecast.md) costs about 220 commands a queue
    // (120 buckets of 6 h and 80 finer ones, per shard), so a queue's is read again at most once a
    // minute and a scrape reads at most this many, oldest first; the others are served from the
    // last.
    static constexpr long long kForecastEveryMs = 60'000;
    static constexpr size_t kForecastsPerScrape = 20;
    // The busiest groups exported of a queue in fair order (QueueReader::busyGroups: two round
    // trips of plain reads a fair queue, bounded whatever its number of groups), so a queue's
    // group series stay few.
    static constexpr int kBusiestGroups = 5;

private:
    // One scrape's reading: the queues, and per queue with a worker listed the age of its
    // freshest heartbeat (s).
    struct Reading
    {
        std::vector<delayq::QueueSnapshot> queues;
        std::map<std::string, double> heartbeatAge;
        // Of each queue in fair order whose groups could be read.
        std::map<std::string, delayq::GroupLoads> groups;
        size_t skipped = 0;
    };
    // Throws delayq::Error when Redis cannot be read at all.
    Reading read();
    void renderQueues(PrometheusText& text, const Reading& reading) const;
    // Reads the forecasts due again (kForecastEveryMs, kForecastsPerScrape) of the queues
    // read, and forgets those of queues no longer there.
    void refreshForecasts(const Reading& reading);
    void noteOutcome(const std::string& error);

    std::mutex m_mutex;
    delayq::Connection& m_connection;
    std::string m_prefix;
    std::vector<std::string> m_queues;
    long long m_failedScrapes = 0;
    struct CachedForecast
    {
        long long readAtMs = 0; // steady clock
        delayq::Forecast forecast;
    };
    std::map<std::string, CachedForecast> m_forecasts;
    std::string m_lastError; // what was printed last, so an outage is said once, not per scrape
};

} // namespace cli
