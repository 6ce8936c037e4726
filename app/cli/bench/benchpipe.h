#pragma once

#include "bench/benchfigures.h"
#include "output/jsonwriter.h"

#include <delayq/connectionoptions.h>

#include <functional>
#include <optional>
#include <string>

namespace cli {

// delayq bench --pipe: one due backlog drained through pipe:CMD with a trivial consumer,
// beside the same drain with exec:true (a process a task) and with the in-process ack
// handler (the worker's own ceiling), in one run, under a private key prefix it deletes.
struct PipeBenchSettings
{
    long long tasks = 100000;   // drained by ack and by pipe:
    long long execTasks = 2000; // drained by exec:true (about 1 ms of process start each)
    int threads = 2;            // of the one worker
    std::optional<int> batch;   // empty: the worker's default, as delayq work
    std::string consumer;       // empty: the built-in one (builtinConsumer())
};

struct PipeBenchFigures
{
    std::string server;
    std::string consumer; // the command run
    PhaseFigures ack;
    PhaseFigures pipe;
    PhaseFigures exec;
};

class PipeBench
{
public:
    PipeBench(delayq::ConnectionOptions options, PipeBenchSettings settings,
              std::function<void(const std::string&)> progress);
    ~PipeBench();

    PipeBenchFigures run();

    // A Python loop that reads what is there (up to 1 MiB) and acks each line with one write.
    static std::string builtinConsumer();

private:
    enum class Mode
    {
        Ack,
        Pipe,
        Exec
    };
    PhaseFigures drain(Mode mode, long long tasks);
    void fill(const std::string& queue, long long tasks);
    void cleanup();

    delayq::ConnectionOptions m_options;
    PipeBenchSettings m_settings;
    std::function<void(const std::string&)> m_progress;
    std::string m_prefix;
    std::string m_consumer;
};

class Context;
// delayq bench --pipe (its own options: --pipe-tasks, --exec-tasks, --consumer).
int runPipeBench(Context& ctx, const BenchSettings& s, const delayq::ConnectionOptions& options);

std::string pipeBenchText(const PipeBenchSettings& settings, const PipeBenchFigures& figures);
JsonWriter pipeBenchJson(const PipeBenchSettings& settings, const PipeBenchFigures& figures);

} // namespace cli
