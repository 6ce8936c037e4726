#pragma once

#include "seeddesign.h"

#include <delayq/connectionoptions.h>

#include <functional>
#include <string>
#include <vector>

namespace delayq {
class Connection;
}

namespace cli {

struct BenchSettings
{
    long long tasks = 50000;      // push batched and claim+ack
    long long singleTasks = 5000; // push one by one
    int threads = 2;
    int batch = 100;
    long long rate = 1000;       // tasks/s in the lateness phases
    long long durationMs = 3000; // of each lateness phase
    long long seedTasks = 5000;  // claim throughput of each seed design
    bool seeds = true;
    int queues = 1; // the push and claim+ack phases spread over this many queues
};

// One queue of the push and claim+ack phases: where it lives and who drains it.
struct BenchQueue
{
    std::string name;
    std::string node; // host:port of its master (the server itself off a cluster)
    int threads = 1;  // of the claim+ack phase
    long long tasks = 0;
};

struct LatenessFigures
{
    long long count = 0;
    long long p50 = 0;
    long long p99 = 0;
    long long max = 0;
};

struct DesignFigures
{
    std::string label;
    double claimPerSecond = 0;
    LatenessFigures lateness;
};

struct BenchFigures
{
    std::string server; // display URL and Redis version
    double pushBatchedPerSecond = 0;
    double pushSinglePerSecond = 0;
    DesignFigures ours;
    std::vector<DesignFigures> seeds;
    std::vector<BenchQueue> queues; // of the claim+ack phase
    int masters = 1;
    double seconds = 0;
};

// Runs every phase against one server, under a private key prefix that it deletes at the
// end (also when a phase fails).
class Bench
{
public:
    Bench(delayq::ConnectionOptions options, BenchSettings settings,
          std::function<void(const std::string&)> progress);
    ~Bench();

    BenchFigures run();

private:
    // Names the queues of the push and claim+ack phases ("claim" and "single" when there is
    // one of each); on a cluster each new one goes to the master holding the fewest.
    void placeQueues(delayq::Connection& conn, BenchFigures& f);
    std::vector<std::string> pickNames(delayq::Connection& conn, const std::string& stem);
    double pushBatched();
    double pushSingle();
    double claimAck();
    // How many connections listen on a wake channel, on every node of a cluster.
    static long long wakeListeners(delayq::Connection& conn, const std::string& channel);
    LatenessFigures oursLateness();
    double seedThroughput(SeedDesign& design);
    LatenessFigures seedLateness(SeedDesign& design);
    // Pushes at the settings' rate for its duration, calling push(index, dueDelayMs).
    long long paced(const std::function<void(long long, long long)>& push);
    void cleanup();

    delayq::ConnectionOptions m_options;
    BenchSettings m_settings;
    std::function<void(const std::string&)> m_progress;
    std::string m_prefix;
    std::vector<BenchQueue> m_claimQueues;
    std::vector<std::string> m_singleQueues;
};

} // namespace cli
