#pragma once

#include <delayq/connection.h>

#include <string>
#include <vector>

namespace delayq {

// What a Redis server's configuration risks for delayq's queues, each with how to fix it
// (`delayq doctor`, the warning line of `delayq work`; docs/cli.md "doctor"). Reads only
// (INFO, TIME and CLUSTER INFO), on every master of a cluster.
struct Finding
{
    enum class Level
    {
        Ok,
        Warning, // works, with a risk the operator should know of
        Problem  // tasks can be lost, or delayq cannot work
    };
    Level level = Level::Ok;
    std::string check;  // eviction | persistence | version | cluster | memory | clock | role
    std::string server; // host:port
    std::string what;   // what was found
    std::string risk;   // what it risks ("" when ok)
    std::string fix;    // how to fix it ("" when ok)
};

const char* findingLevelName(Finding::Level level);

class Doctor
{
public:
    explicit Doctor(Connection& connection) : m_connection(connection) {}

    // Every check on every master. sampleMs > 0: used memory is read twice that far apart
    // for the growth rate (the memory check's headroom at the current rate).
    std::vector<Finding> run(long long sampleMs = 1000);
    // The eviction policy alone (one INFO memory a master): what `delayq work` checks at start.
    std::vector<Finding> eviction();

private:
    Connection& m_connection;
};

} // namespace delayq
