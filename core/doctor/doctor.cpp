#include <delayq/doctor.h>

#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/queuesnapshot.h>
#include <delayq/timeparse.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

namespace delayq {

namespace {

using Fields = std::map<std::string, std::string>;
using Level = Finding::Level;

// INFO's "key:value" lines.
Fields parseInfo(const std::string& text)
{
    Fields out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const size_t colon = line.find(':');
        if (colon != std::string::npos && line[0] != '#')
            out[line.substr(0, colon)] = line.substr(colon + 1);
    }
    return out;
}

long long number(const Fields& f, const std::string& key, long long fallback = 0)
{
    const auto it = f.find(key);
    if (it == f.end() || it->second.empty())
        return fallback;
    return std::strtoll(it->second.c_str(), nullptr, 10);
}

std::string text(const Fields& f, const std::string& key)
{
    const auto it = f.find(key);
    return it == f.end() ? std::string() : it->second;
}

std::string bytes(long long n)
{
    char out[32];
    if (n >= 1LL << 30)
        std::snprintf(out, sizeof out, "%.1f GiB", static_cast<double>(n) / (1LL << 30));
    else if (n >= 1LL << 20)
        std::snprintf(out, sizeof out, "%.1f MiB", static_cast<double>(n) / (1LL << 20));
    else
        std::snprintf(out, sizeof out, "%lld KiB", n / 1024);
    return out;
}

Finding finding(Level level, const char* check, const std::string& server, std::string what,
                std::string risk = {}, std::string fix = {})
{
    return {level, check, server, std::move(what), std::move(risk), std::move(fix)};
}

Finding evictionFinding(const std::string& server, const Fields& f)
{
    const std::string policy = text(f, "maxmemory_policy");
    if (policy == "noeviction" || policy.empty())
        return finding(Level::Ok, "eviction", server,
                       "maxmemory-policy noeviction: a full server refuses writes (OOM), which "
                       "delayq reports; it never deletes a task");
    const std::string fix = "CONFIG SET maxmemory-policy noeviction (and in redis.conf), or give "
                            "delayq a Redis of its own";
    if (policy.rfind("volatile-", 0) == 0)
        return finding(Level::Warning, "eviction", server, "maxmemory-policy " + policy,
                       "under memory pressure Redis deletes keys with an expiry: delayq's "
                       "per-minute counters (the charts' history), not tasks",
                       fix);
    return finding(Level::Problem, "eviction", server, "maxmemory-policy " + policy,
                   "under memory pressure Redis deletes any key, a queue's tasks included, "
                   "silently",
                   fix);
}

// save: the "save" setting (CONFIG GET), nullopt when CONFIG is not allowed.
Finding persistenceFinding(const std::string& server, const Fields& f,
                           const std::optional<std::string>& save)
{
    const bool aof = number(f, "aof_enabled") == 1;
    const long long changes = number(f, "rdb_changes_since_last_save");
    const long long lastSave = number(f, "rdb_last_save_time");
    if (aof)
        return finding(Level::Ok, "persistence", server,
                       "AOF on: a restart loses at most the last second of changes (appendfsync "
                       "everysec) or none (always)");
    const std::string fix = "CONFIG SET appendonly yes (and in redis.conf)";
    if (save && save->empty())
        return finding(Level::Problem, "persistence", server,
                       "no AOF and no RDB snapshots (save \"\")", "a restart loses every task",
                       fix);
    return finding(Level::Warning, "persistence", server,
                   "RDB snapshots only (" + (save ? "save " + *save + ", " : std::string()) +
                       std::to_string(changes) + " changes since the last one" +
                       (lastSave > 0 ? "" : ", none taken yet") + ")",
                   "a restart loses the changes since the last snapshot: tasks pushed, acks "
                   "undone (tasks run again)",
                   fix);
}

Finding versionFinding(const std::string& server, const Fields& f)
{
    const std::string version = text(f, "redis_version");
    int major = 0;
    int minor = 0;
    std::sscanf(version.c_str(), "%d.%d", &major, &minor);
    if (major > 6 || (major == 6 && minor >= 2))
        return finding(Level::Ok, "version", server, "Redis " + version);
    return finding(Level::Problem, "version", server, "Redis " + version,
                   "delayq's scripts use commands of Redis 6.2 (ZMSCORE, ZRANGE BYSCORE): they "
                   "fail here",
                   "upgrade to Redis 6.2 or later (Debian 12 ships 7.0)");
}

Finding roleFinding(const std::string& server, const Fields& f)
{
    if (text(f, "role") != "slave")
        return finding(Level::Ok, "role", server, "a master");
    return finding(Level::Problem, "role", server, "a replica (read-only)",
                   "every push, claim and ack is refused (READONLY)",
                   "connect to the master, or through Sentinel (redis+sentinel://)");
}

Finding memoryFinding(const std::string& server, const Fields& first, const Fields& second,
                      long long sampleMs)
{
    const long long used = number(second, "used_memory");
    const long long limit = number(second, "maxmemory");
    const long long system = number(second, "total_system_memory");
    const long long cap = limit > 0 ? limit : system;
    const std::string of =
        limit > 0 ? "maxmemory " + bytes(limit) : "no maxmemory; the machine has " + bytes(system);
    std::string what = bytes(used) + " used of " + (cap > 0 ? of : "an unknown limit");
    if (cap <= 0)
        return finding(Level::Ok, "memory", server, what);
    std::string risk;
    if (sampleMs > 0) {
        const double perSecond =
            static_cast<double>(used - number(first, "used_memory")) * 1000.0 / sampleMs;
        if (perSecond > 1024) {
            const long long fullInMs =
                static_cast<long long>(static_cast<double>(cap - used) / perSecond * 1000.0);
            what += ", growing " + bytes(static_cast<long long>(perSecond)) + "/s: full in " +
                    formatDuration(std::max(0LL, fullInMs));
            if (fullInMs < 3'600'000)
                risk = "full within the hour at this rate";
        } else {
            what += ", not growing over " + formatDuration(sampleMs);
        }
    }
    if (used * 10 >= cap * 9)
        risk = "over 90 % full" + (risk.empty() ? std::string() : ", " + risk);
    if (risk.empty())
        return finding(Level::Ok, "memory", server, what);
    return finding(Level::Warning, "memory", server, what,
                   risk + (limit > 0 ? ": then writes are refused, or keys evicted under an "
                                       "eviction policy"
                                     : ": then the machine runs out of memory"),
                   "raise maxmemory, drain or purge queues, or add memory");
}

} // namespace

const char* findingLevelName(Finding::Level level)
{
    switch (level) {
    case Level::Ok:
        return "ok";
    case Level::Warning:
        return "warning";
    case Level::Problem:
        return "problem";
    }
    return "?";
}

std::vector<Finding> Doctor::deadBounds(const std::map<std::string, long long>& maxmemory)
{
    std::vector<Finding> out;
    QueueSnapshotReader reader(m_connection, m_prefix);
    std::map<std::string, double> footprint; // per server: the queues' full dead sets
    size_t queues = 0;
    const std::string anyServer = maxmemory.empty() ? std::string() : maxmemory.begin()->first;
    for (const QueueSnapshot& q : reader.readAll(false)) {
        ++queues;
        const std::string server = q.node.empty() ? anyServer : q.node;
        const long long deadBytes = q.deadBytes;
        const double use = q.deadBoundUse();
        if (use >= 0.9)
            out.push_back(finding(
                Level::Warning, "dead bound", server,
                "queue " + q.name + ": dead holds " + std::to_string(q.counts.dead) + " tasks, " +
                    bytes(deadBytes) + ", " + std::to_string(static_cast<int>(use * 100)) +
                    " % of its bound (dead_max " +
                    (q.deadMax > 0 ? std::to_string(q.deadMax) : "off") + ", dead_max_bytes " +
                    (q.deadMaxBytes > 0 ? bytes(q.deadMaxBytes) : "off") + ")",
                "the oldest dead tasks are dropped from here on (counted in dead_dropped)",
                "requeue or delete the dead tasks you need (fix what fails them first), or "
                "raise dead_max / dead_max_bytes"));
        // A full dead set: the bound in tasks at the queue's average dead task, or the
        // bound in bytes, whichever is less; none without either.
        const double average =
            q.counts.dead > 0 ? static_cast<double>(deadBytes) / static_cast<double>(q.counts.dead)
                              : static_cast<double>(kTypicalDeadBytes);
        double full = -1;
        if (q.deadMax > 0)
            full = static_cast<double>(q.deadMax) * average;
        if (q.deadMaxBytes > 0 && (full < 0 || q.deadMaxBytes < full))
            full = static_cast<double>(q.deadMaxBytes);
        if (full < 0) {
            out.push_back(finding(Level::Warning, "dead bound", server,
                                  "queue " + q.name + ": dead_max and dead_max_bytes are off",
                                  "failures are kept until someone removes them: a failing "
                                  "consumer can fill the memory",
                                  "delayq config " + q.name + " dead_max 100000"));
            continue;
        }
        footprint[server] += full * kDeadOverhead;
    }
    for (const auto& [server, need] : footprint) {
        const auto limit = maxmemory.find(server);
        if (limit == maxmemory.end() || limit->second <= 0 ||
            need <= static_cast<double>(limit->second))
            continue;
        out.push_back(finding(
            Level::Warning, "dead bound", server,
            "the dead sets of its queues, full to their bounds, would take about " +
                bytes(static_cast<long long>(need)) + " (bound × average dead task × " +
                std::to_string(kDeadOverhead).substr(0, 3) +
                " for Redis's keeping); maxmemory is " + bytes(limit->second),
            "Redis fills up before the bounds drop anything: then pushes are refused (OOM)",
            "lower dead_max or dead_max_bytes (delayq config QUEUE dead_max_bytes 64MB), or "
            "raise maxmemory"));
    }
    if (out.empty())
        out.push_back(finding(Level::Ok, "dead bound", anyServer,
                              std::to_string(queues) +
                                  " queues: every dead set under 90 % of its bound, every "
                                  "bound within maxmemory"));
    return out;
}

std::vector<Finding> Doctor::eviction()
{
    std::vector<Finding> out;
    for (const std::string& master : m_connection.masters()) {
        const auto r = m_connection.pipelineOn(master, {{"INFO", "memory"}});
        if (r[0].isError())
            throw errorFromReply(r[0].str);
        out.push_back(evictionFinding(master, parseInfo(r[0].toString())));
    }
    return out;
}

std::vector<Finding> Doctor::run(long long sampleMs)
{
    const std::vector<std::string> masters = m_connection.masters();
    std::vector<Fields> first;
    for (const std::string& master : masters) {
        const auto r = m_connection.pipelineOn(master, {{"INFO", "memory"}});
        first.push_back(r[0].isError() ? Fields{} : parseInfo(r[0].toString()));
    }
    if (sampleMs > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(sampleMs));
    std::vector<Finding> out;
    std::map<std::string, long long> maxmemory;
    for (size_t i = 0; i < masters.size(); ++i) {
        const std::string& server = masters[i];
        const auto before = std::chrono::system_clock::now();
        const auto r =
            m_connection.pipelineOn(server, {{"INFO", "all"}, {"TIME"}, {"CONFIG", "GET", "save"}});
        const auto after = std::chrono::system_clock::now();
        if (r[0].isError())
            throw errorFromReply(r[0].str);
        const Fields f = parseInfo(r[0].toString());
        out.push_back(evictionFinding(server, f));
        // CONFIG is often renamed or denied on managed servers: then INFO alone says what it can.
        std::optional<std::string> save;
        if (!r[2].isError() && r[2].elements.size() == 2)
            save = r[2].elements[1].toString();
        out.push_back(persistenceFinding(server, f, save));
        out.push_back(versionFinding(server, f));
        out.push_back(roleFinding(server, f));
        out.push_back(memoryFinding(server, first[i], f, sampleMs));
        if (number(f, "cluster_enabled") == 1) {
            const Fields c =
                parseInfo(m_connection.pipelineOn(server, {{"CLUSTER", "INFO"}})[0].toString());
            const long long slots = number(c, "cluster_slots_ok");
            out.push_back(slots == 16384 && text(c, "cluster_state") == "ok"
                              ? finding(Level::Ok, "cluster", server, "all 16384 slots served")
                              : finding(Level::Problem, "cluster", server,
                                        "cluster_state " + text(c, "cluster_state") + ", " +
                                            std::to_string(slots) + " of 16384 slots served",
                                        "queues in the slots not served cannot be reached",
                                        "fix the cluster (redis-cli --cluster fix / check)"));
        }
        // The server's clock against this machine's, half the round trip taken off.
        if (r[1].isArray() && r[1].elements.size() == 2) {
            const long long serverMs =
                r[1].elements[0].toInteger() * 1000 + r[1].elements[1].toInteger() / 1000;
            const auto mid = before + (after - before) / 2;
            const long long localMs =
                std::chrono::duration_cast<std::chrono::milliseconds>(mid.time_since_epoch())
                    .count();
            const long long skew = serverMs - localMs;
            const std::string what = "the server's clock is " +
                                     formatDuration(skew < 0 ? -skew : skew) +
                                     (skew < 0 ? " behind" : " ahead of") + " this machine's";
            out.push_back(std::abs(skew) < 1000
                              ? finding(Level::Ok, "clock", server, what)
                              : finding(Level::Warning, "clock", server, what,
                                        "due times are the server's: this machine shows them "
                                        "off by as much, and a client that uses its own clock "
                                        "pushes tasks early or late",
                                        "run NTP (systemd-timesyncd or chrony) on both"));
        }
        maxmemory[server] = number(f, "maxmemory");
    }
    // The queues' dead bounds; a read-only user that may not read them still gets the rest.
    try {
        for (auto& f : deadBounds(maxmemory))
            out.push_back(std::move(f));
    } catch (const Error& e) {
        if (e.isUnreachable())
            throw;
    }
    return out;
}

} // namespace delayq
