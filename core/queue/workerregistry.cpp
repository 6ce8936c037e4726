#include <delayq/workerregistry.h>

#include "records/taskrecord.h"

#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/plainkeys.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>

namespace delayq {

namespace {

// "a|b|c" split at the first `count - 1` bars: the last field keeps any bar it holds.
std::vector<std::string> splitBars(const std::string& text, size_t count)
{
    std::vector<std::string> out;
    size_t from = 0;
    while (out.size() + 1 < count) {
        const size_t bar = text.find('|', from);
        if (bar == std::string::npos)
            break;
        out.push_back(text.substr(from, bar - from));
        from = bar + 1;
    }
    out.push_back(text.substr(from));
    return out;
}

// Fields of the stored record, in order (docs/protocol.md, "Workers").
constexpr size_t kRecordFields = 13;

} // namespace

std::string workerRecordText(const WorkerInfo& info)
{
    const auto n = [](long long v) { return std::to_string(v) + "|"; };
    return n(info.startedMs) + n(info.intervalMs) + n(info.pid) + n(info.threads) + n(info.held) +
           n(info.acked) + n(info.failed) + n(info.lastAckMs) + n(info.latenessP99Ms) +
           info.version + "|" + info.handler + "|" + info.host;
}

bool parseWorkerRecord(const std::string& stored, WorkerInfo& info)
{
    const auto f = splitBars(stored, kRecordFields);
    if (f.size() != kRecordFields)
        return false;
    long long n[10];
    for (size_t i = 0; i < 10; ++i) {
        const std::optional<long long> number = wholeNumber(f[i]);
        if (!number)
            return false;
        n[i] = *number;
    }
    info.lastSeenMs = n[0];
    info.startedMs = n[1];
    info.intervalMs = n[2];
    info.pid = n[3];
    info.threads = static_cast<int>(n[4]);
    info.held = n[5];
    info.acked = n[6];
    info.failed = n[7];
    info.lastAckMs = n[8];
    info.latenessP99Ms = n[9];
    info.version = f[10];
    info.handler = f[11];
    info.host = f[12];
    return true;
}

bool WorkerInfo::stalled(long long nowMs) const
{
    return live && held > 0 && nowMs - std::max(startedMs, lastAckMs) >= WorkerRegistry::kStalledMs;
}

ConsumerState consumerState(const QueueSnapshot& queue, const std::vector<WorkerInfo>& workers,
                            long long nowMs)
{
    // A limit that holds due tasks back now proves someone claims them (a claim noted the
    // hold within the last seconds, or live leases fill the cap): late by design, not
    // unconsumed, even when the claimer keeps no heartbeat (a client in another language).
    if (queue.consumers == 0 && queue.counts.dueNow > 0 && !queue.paused && !queue.flow.heldNow)
        return ConsumerState::NoConsumer;
    const bool stalled = std::any_of(workers.begin(), workers.end(), [&](const WorkerInfo& w) {
        return w.queue == queue.name && w.stalled(nowMs);
    });
    return stalled ? ConsumerState::Stalled : ConsumerState::Ok;
}

const char* consumerStateName(ConsumerState state)
{
    switch (state) {
    case ConsumerState::NoConsumer:
        return "no_consumer";
    case ConsumerState::Stalled:
        return "stalled";
    case ConsumerState::Ok:
        break;
    }
    return "ok";
}

WorkerRegistry::WorkerRegistry(Connection& connection, std::string prefix)
    : m_connection(connection), m_prefix(std::move(prefix))
{}

std::vector<WorkerInfo> WorkerRegistry::read(const std::vector<std::string>& queues)
{
    std::vector<Registry> registries;
    for (const auto& queue : queues) {
        std::optional<Keys> keys;
        try {
            keys.emplace(m_prefix, queue);
        } catch (const Error&) {
            continue; // a name written into the registry by hand that is no queue name
        }
        registries.push_back({queue, keys->workers(), keys->workerRecords()});
    }
    return readRegistries(registries, false);
}

std::vector<WorkerInfo> WorkerRegistry::readPlain(const std::vector<std::string>& plainKeys)
{
    std::vector<Registry> registries;
    for (const auto& key : plainKeys) {
        std::optional<PlainKeys> keys;
        try {
            keys.emplace(m_prefix, key);
        } catch (const Error&) {
            continue;
        }
        registries.push_back({key, keys->workers(), keys->workerRecords()});
    }
    return readRegistries(registries, true);
}

std::vector<std::string> WorkerRegistry::plainKeysWithWorkers(Connection& connection,
                                                              const std::string& prefix)
{
    const Reply r = connection.command({"SMEMBERS", PlainKeys::plainKeys(prefix)});
    if (r.isError())
        throw errorFromReply(r.str);
    std::vector<std::string> keys;
    for (const auto& e : r.elements)
        keys.push_back(e.str);
    std::sort(keys.begin(), keys.end());
    return keys;
}

std::vector<WorkerInfo> WorkerRegistry::readRegistries(const std::vector<Registry>& registries,
                                                       bool plain)
{
    std::vector<std::vector<std::string>> commands;
    for (const auto& r : registries) {
        commands.push_back({"ZRANGE", r.workers, "0", "-1", "WITHSCORES"});
        commands.push_back({"HGETALL", r.records});
    }
    m_nowMs = m_connection.serverNowMs();
    const auto replies = m_connection.pipeline(commands);
    std::vector<WorkerInfo> out;
    for (size_t q = 0; q < registries.size(); ++q) {
        const Reply& scores = replies[2 * q];
        const Reply& records = replies[2 * q + 1];
        if (scores.isError() || records.isError())
            continue; // a key of another type under the registry's name
        std::map<std::string, long long> liveUntil;
        for (size_t k = 0; k + 1 < scores.elements.size(); k += 2)
            liveUntil[scores.elements[k].str] =
                static_cast<long long>(std::strtod(scores.elements[k + 1].str.c_str(), nullptr));
        for (size_t i = 0; i + 1 < records.elements.size(); i += 2) {
            WorkerInfo info;
            info.queue = registries[q].name;
            info.plain = plain;
            info.name = records.elements[i].str;
            if (!parseWorkerRecord(records.elements[i + 1].str, info))
                continue;
            const auto until = liveUntil.find(info.name);
            info.liveUntilMs = until == liveUntil.end() ? 0 : until->second;
            info.live = info.liveUntilMs > m_nowMs;
            // Gone for longer than heartbeat.lua keeps it: the next beat removes it.
            if (m_nowMs - info.liveUntilMs > kGoneKeptIntervals * info.intervalMs)
                continue;
            out.push_back(std::move(info));
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const WorkerInfo& a, const WorkerInfo& b) {
        if (a.queue != b.queue)
            return a.queue < b.queue;
        if (a.live != b.live)
            return a.live;
        return a.name < b.name;
    });
    return out;
}

} // namespace delayq
