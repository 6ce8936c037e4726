#pragma once

#include "seeddesign.h"

#include <delayq/connectionoptions.h>

#include <functional>
#include <string>
#include <vector>

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
    double pushBatched();
    double pushSingle();
    double claimAck();
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
};

} // namespace cli
