#pragma once

#include "bench/benchfigures.h"
#include "bench/servermeter.h"

#include <delayq/connectionoptions.h>

#include <functional>
#include <string>
#include <vector>

namespace delayq {
class Connection;
struct WorkerOptions;
} // namespace delayq

namespace cli {

// Deletes every key under the bench's private prefix, on every master (one server: just it).
// Each bench mode's clean-up.
void removeBenchKeys(const delayq::ConnectionOptions& options, const std::string& prefix);

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
    PhaseFigures pushBatched();
    PhaseFigures pushSingle();
    PhaseFigures claimAck();
    // A due backlog of drainTasks on one queue, drained by `threads` one-thread workers (as
    // that many `delayq work` processes would).
    PhaseFigures drain();
    // One drain whose backlog falls due leadMs from now; late: it fell due before the
    // workers were ready.
    PhaseFigures drainOnce(long long leadMs, bool& late);
    // A worker of one thread on `queue` with the worker's defaults, stopping once it is empty.
    delayq::WorkerOptions workerOptions(const std::string& queue) const;
    // Runs the workers until each finds its queue empty; `expected` tasks should be acked.
    PhaseFigures runWorkers(const std::vector<delayq::WorkerOptions>& options, long long expected);
    // How many connections listen on a wake channel, on every node of a cluster.
    static long long wakeListeners(delayq::Connection& conn, const std::string& channel);
    LatenessFigures oursLateness(double& cpuUsPerTask);
    // Pending tasks due in a day filled into `queue`: used_memory after minus before, per task.
    MemoryFigures memory(const std::string& queue = "memory");
    // Push, claim+ack and memory on queues whose history setting is on.
    HistoryFigures withHistory();
    void cleanup();

    delayq::ConnectionOptions m_options;
    BenchSettings m_settings;
    std::function<void(const std::string&)> m_progress;
    std::string m_prefix;
    ServerMeter m_meter;
    std::vector<BenchQueue> m_claimQueues;
    std::vector<std::string> m_singleQueues;
};

} // namespace cli
