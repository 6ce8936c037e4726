#pragma once

#include "bench/benchfigures.h"

#include <delayq/connection.h>

#include <string>
#include <string_view>

namespace cli {

// What the Redis servers have spent so far, summed over every master (one server: itself),
// so that a phase's cost is the difference of two readings. Replicas are left out: they
// are not what a queue's commands wait for.
class ServerMeter
{
public:
    explicit ServerMeter(delayq::ConnectionOptions options);

    // used_cpu_user + used_cpu_sys of INFO cpu, seconds, once no freed key is pending.
    double cpuSeconds();
    // used_memory of INFO memory, bytes.
    long long usedMemory();
    // Server CPU since the reading `since`, in µs per task (0 with no task).
    double cpuUsPerTask(double since, long long tasks);
    // A phase that did `tasks` in `seconds`, with its server CPU since the reading `since`.
    PhaseFigures phase(double since, long long tasks, double seconds);

    // A numeric field of an INFO reply ("name:value" lines); throws Error when it is missing.
    static double infoField(std::string_view info, std::string_view name);

private:
    void waitForPendingFrees();
    double sumOverMasters(const std::string& section, const std::vector<std::string>& fields);

    delayq::Connection m_connection;
};

} // namespace cli
