#pragma once

#include <delayq/connection.h>

#include <map>
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
    // eviction | persistence | version | cluster | memory | clock | role | dead bound (since
    // 2.9: a queue's dead set near its bound, or a bound larger than the memory)
    std::string check;
    std::string server; // host:port
    std::string what;   // what was found
    std::string risk;   // what it risks ("" when ok)
    std::string fix;    // how to fix it ("" when ok)
};

const char* findingLevelName(Finding::Level level);

class Doctor
{
public:
    // prefix: the queues' (for the dead bound check).
    explicit Doctor(Connection& connection, std::string prefix = "dq")
        : m_connection(connection), m_prefix(std::move(prefix))
    {}

    // Every check on every master. sampleMs > 0: used memory is read twice that far apart
    // for the growth rate (the memory check's headroom at the current rate).
    std::vector<Finding> run(long long sampleMs = 1000);
    // The dead bound of every queue under the prefix (docs/design/bounds.md): a warning per
    // queue whose dead set holds 90 % of its bound or more, and per server whose queues' full
    // dead sets (the bound × the queue's average dead task, × kDeadOverhead for Redis's own
    // keeping) would not fit its maxmemory; else one ok. maxmemory: per server, 0 = none.
    std::vector<Finding> deadBounds(const std::map<std::string, long long>& maxmemory);
    // Redis's memory per byte the dead bound counts (id + record + last error), measured by
    // scripts/measure-bounds (docs/design/bounds.md): its hashes, sets and their entries.
    static constexpr double kDeadOverhead = 2.5;
    // The dead task's bytes assumed for a queue with no dead task yet.
    static constexpr long long kTypicalDeadBytes = 300;
    // The eviction policy alone (one INFO memory a master): what `delayq work` checks at start.
    std::vector<Finding> eviction();

private:
    Connection& m_connection;
    std::string m_prefix;
};

} // namespace delayq
