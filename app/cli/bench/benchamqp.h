#pragma once

#include "bench/benchfigures.h"
#include "output/jsonwriter.h"

#include <delayq/connectionoptions.h>

#include <functional>
#include <optional>
#include <string>

namespace cli {

// delayq bench --amqp URL: the broker's own confirmed-publish ceiling beside a due backlog
// drained by the worker through the amqp:// target, in one run. Both publish the same
// messages (body, properties, headers) to one private durable queue through the default
// exchange, on as many connections as the worker has threads, with the same window of
// publishes in flight per confirm round (the worker's largest claim). The queue and the
// Redis keys (under a private prefix) are deleted at the end.
struct AmqpBenchSettings
{
    std::string url;          // the broker; its exchange and routing_key are not used
    long long tasks = 50000;  // published by each of the two phases
    int threads = 2;          // the worker's threads, and the ceiling's connections
    std::optional<int> batch; // empty: the worker's default, as delayq work
};

struct AmqpBenchFigures
{
    std::string server; // Redis
    std::string broker; // printable: no password
    int window = 0;     // publishes in flight per confirm round
    long long messageBytes = 0;
    PhaseFigures ceiling; // tasks/s of the plain confirmed publisher
    PhaseFigures delayq;  // from due in Redis to the last confirm, Redis CPU per task
};

class AmqpBench
{
public:
    AmqpBench(delayq::ConnectionOptions options, AmqpBenchSettings settings,
              std::function<void(const std::string&)> progress);
    ~AmqpBench();

    AmqpBenchFigures run();

private:
    PhaseFigures ceiling();
    PhaseFigures drainOnce(long long leadMs, bool& late);
    void fill(long long dueAtMs);
    // Declares, purges or deletes the private queue on the broker.
    void brokerQueue(const char* what);
    void cleanup();

    delayq::ConnectionOptions m_options;
    AmqpBenchSettings m_settings;
    std::function<void(const std::string&)> m_progress;
    std::string m_prefix; // of the Redis keys, and the broker queue's name
    std::string m_spec;   // the target: the URL's broker, the default exchange, our queue
    int m_window = 200;
};

class Context;
// delayq bench --amqp URL [--amqp-tasks N] (with --threads and --batch).
int runAmqpBench(Context& ctx, const BenchSettings& s, const delayq::ConnectionOptions& options);

std::string amqpBenchText(const AmqpBenchSettings& settings, const AmqpBenchFigures& figures);
JsonWriter amqpBenchJson(const AmqpBenchSettings& settings, const AmqpBenchFigures& figures);

} // namespace cli
