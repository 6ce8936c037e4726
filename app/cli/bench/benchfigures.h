#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cli {

struct BenchSettings
{
    long long tasks = 50000;      // push batched and claim+ack
    long long singleTasks = 5000; // push one by one
    int threads = 2;
    // Tasks per claim: empty means the worker's own default (WorkerOptions), so the bench
    // measures what `delayq work` does untuned, whatever that default becomes.
    std::optional<int> batch;
    long long rate = 1000;          // tasks/s in the lateness phases
    long long durationMs = 3000;    // of each lateness phase
    long long seedTasks = 5000;     // claim throughput of each seed design
    long long drainTasks = 40000;   // due backlog drained by `threads` one-thread workers
    long long memoryTasks = 100000; // pending tasks whose memory is measured
    bool seeds = true;
    int queues = 1; // the push and claim+ack phases spread over this many queues
    // Events kept per task in the task-history phases (the same push, claim+ack and memory on a
    // queue with the history setting on); 0 skips them.
    int historyEvents = 10;
};

// The batch the workers run with: --batch, else the worker's default.
int effectiveBatch(const BenchSettings& settings);

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

// Throughput of a phase and what it cost the Redis servers: used_cpu_user + used_cpu_sys
// (INFO cpu) after minus before, summed over the masters, divided by the phase's tasks.
struct PhaseFigures
{
    long long tasks = 0;
    double perSecond = 0;
    double cpuUsPerTask = 0;
    // A drain only: from the moment its backlog fell due to the first task finished, ms
    // (what noticing the due work cost: a sleep, a poll). -1 elsewhere.
    double firstMs = -1;
};

// used_memory (INFO memory) after minus before filling a queue with pending tasks.
struct MemoryFigures
{
    long long tasks = 0;
    long long payloadBytes = 0;
    double bytesPerTask = 0;
};

struct DesignFigures
{
    std::string label;
    std::string kind; // "delayq", "range_then_rem", "lua_pop": stable names for scripts
    PhaseFigures claim;
    std::optional<PhaseFigures> drain; // delayq and the Lua pop
    LatenessFigures lateness;
    double latenessCpuUsPerTask = 0; // push, take and idle polling at the lateness rate
    MemoryFigures memory;
};

// The push, claim+ack and memory phases again on one queue with task history on.
struct HistoryFigures
{
    int events = 0; // the queue's history setting; 0: not run
    PhaseFigures push;
    PhaseFigures claim;
    MemoryFigures memory;
};

struct BenchFigures
{
    std::string server; // display URL and Redis version
    PhaseFigures pushBatched;
    PhaseFigures pushSingle;
    DesignFigures ours;
    HistoryFigures history;
    std::vector<DesignFigures> seeds;
    std::vector<BenchQueue> queues; // of the claim+ack phase
    int masters = 1;
    double seconds = 0;
};

// p50, p99 and max of the values (nearest rank).
LatenessFigures latenessOf(std::vector<long long> values);
// The payload of the throughput and lateness phases (about 60 bytes, each one distinct).
std::string benchPayload(long long i);
// The payload of the memory phases: exactly kMemoryPayloadBytes, each one distinct (a seed
// design's member is the payload itself).
constexpr long long kMemoryPayloadBytes = 18;
std::string memoryPayload(long long i);
// Half the tasks are due at once (the wake path), half 100-500 ms ahead (the timer path).
long long benchDueDelay(long long i);
// Calls push(index, dueDelayMs) at `rate` a second for durationMs; returns how many.
long long pacedPushes(long long rate, long long durationMs,
                      const std::function<void(long long, long long)>& push);

} // namespace cli
