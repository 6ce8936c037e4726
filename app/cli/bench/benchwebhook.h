#pragma once

#include "bench/benchfigures.h"
#include "bench/servermeter.h"
#include "output/jsonwriter.h"

#include <delayq/connectionoptions.h>
#include <delayq/worker.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace cli {

class BenchDrainClock;

// `delayq bench --webhook`: the webhook target's throughput. A due backlog is drained by
// `threads` one-thread workers (as `delayq bench`'s drain does) delivering to an endpoint in
// this process (BenchEndpoint: libmicrohttpd answering 204 on kept-alive connections), and a
// smaller one by the same workers running exec:true, one process per task, as the anchor.
class BenchWebhook
{
public:
    struct Settings
    {
        long long tasks = 40000;    // the webhook's backlog
        long long execTasks = 2000; // exec:true's (a process per task: far slower)
        int threads = 2;
        std::optional<int> batch; // empty: the worker's default
    };
    struct Figures
    {
        std::string server;
        std::string endpoint;
        PhaseFigures webhook;
        PhaseFigures exec;
        long long requests = 0; // what the endpoint answered
        double seconds = 0;
    };

    BenchWebhook(delayq::ConnectionOptions options, Settings settings,
                 std::function<void(const std::string&)> progress);
    ~BenchWebhook(); // deletes the bench's keys

    Figures run();

    static std::string text(const Settings& settings, const Figures& figures);
    static JsonWriter json(const Settings& settings, const Figures& figures);

private:
    using MakeWorker = std::function<std::unique_ptr<delayq::Worker>(
        const delayq::WorkerOptions&, const delayq::WorkerEventCallback&)>;
    PhaseFigures drain(const std::string& queue, long long tasks, const MakeWorker& make);
    PhaseFigures drainOnce(const std::string& queue, long long tasks, long long leadMs, bool& late,
                           const MakeWorker& make);
    delayq::WorkerOptions workerOptions(const std::string& queue) const;
    void cleanup();

    delayq::ConnectionOptions m_options;
    Settings m_settings;
    std::function<void(const std::string&)> m_progress;
    std::string m_prefix;
    ServerMeter m_meter;
};

} // namespace cli
