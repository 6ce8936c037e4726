#include "bench/servermeter.h"

#include <delayq/error.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace cli {

ServerMeter::ServerMeter(delayq::ConnectionOptions options) : m_connection(std::move(options)) {}

double ServerMeter::cpuSeconds()
{
    waitForPendingFrees();
    return sumOverMasters("cpu", {"used_cpu_user", "used_cpu_sys"});
}

// Redis frees an UNLINKed key of more than 64 elements on a background thread, whose CPU is
// in used_cpu_*: a reading waits until none is pending, so a phase is billed for the frees it
// caused and for none that a cleanup before it left running.
void ServerMeter::waitForPendingFrees()
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (sumOverMasters("memory", {"lazyfree_pending_objects"}) > 0) {
        if (std::chrono::steady_clock::now() > deadline)
            throw delayq::Error(delayq::ErrorCode::Timeout,
                                "Redis was still freeing deleted keys after 10 s");
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

long long ServerMeter::usedMemory()
{
    return static_cast<long long>(sumOverMasters("memory", {"used_memory"}));
}

double ServerMeter::cpuUsPerTask(double since, long long tasks)
{
    if (tasks <= 0)
        return 0;
    return (cpuSeconds() - since) * 1e6 / static_cast<double>(tasks);
}

PhaseFigures ServerMeter::phase(double since, long long tasks, double seconds)
{
    PhaseFigures f;
    f.tasks = tasks;
    f.perSecond = static_cast<double>(tasks) / seconds;
    f.cpuUsPerTask = cpuUsPerTask(since, tasks);
    return f;
}

double ServerMeter::infoField(std::string_view info, std::string_view name)
{
    size_t at = 0;
    while (at < info.size()) {
        size_t end = info.find('\n', at);
        if (end == std::string_view::npos)
            end = info.size();
        std::string_view line = info.substr(at, end - at);
        if (line.size() > name.size() && line.substr(0, name.size()) == name &&
            line[name.size()] == ':') {
            const std::string value(line.substr(name.size() + 1));
            char* parsed = nullptr;
            const double v = std::strtod(value.c_str(), &parsed);
            if (parsed != value.c_str())
                return v;
        }
        at = end + 1;
    }
    throw delayq::Error(delayq::ErrorCode::Protocol,
                        "INFO has no numeric field " + std::string(name));
}

double ServerMeter::sumOverMasters(const std::string& section,
                                   const std::vector<std::string>& fields)
{
    double sum = 0;
    for (const std::string& master : m_connection.masters()) {
        const delayq::Reply r = m_connection.pipelineOn(master, {{"INFO", section}})[0];
        if (r.isError())
            throw delayq::errorFromReply(r.str);
        for (const std::string& field : fields)
            sum += infoField(r.str, field);
    }
    return sum;
}

} // namespace cli
