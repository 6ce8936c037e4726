#include <delayq/queuesnapshot.h>

#include "records/taskrecord.h"

#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/shardlayout.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <optional>

namespace delayq {

namespace {

// Commands sent per shard (addShardReads), in the order addShard() reads them: every shard of
// a sharded queue (docs/design.md, "Sharded queues"), and an unsharded queue's one.
constexpr size_t kShardCommands = 9;
// Commands sent for shard 0 before its minute counters: its shard reads, then paused and the
// flow limits, the live workers and the next schedule fire, in the order parse() reads them.
constexpr size_t kBaseCommands = kShardCommands + 3;

// The counters Queue::stats reports, present in every snapshot so readers need no default.
const char* const kCounterNames[] = {"pushed",       "claimed",          "acked",   "retried",
                                     "died",         "cancelled",        "expired", "broken",
                                     "dead_dropped", "expired_unstarted"};

long long number(const Reply& r)
{
    if (r.isNil() || r.str.empty())
        return 0;
    return std::strtoll(r.str.c_str(), nullptr, 10);
}

} // namespace

double QueueSnapshot::deadBoundUse() const
{
    double use = 0;
    if (deadMax > 0)
        use = std::max(use, static_cast<double>(counts.dead) / static_cast<double>(deadMax));
    if (deadMaxBytes > 0)
        use = std::max(use, static_cast<double>(deadBytes) / static_cast<double>(deadMaxBytes));
    return use;
}

long long QueueSnapshot::ackedLastHour() const
{
    return std::accumulate(ackedPerMinute.begin(), ackedPerMinute.end(), 0LL);
}

long long QueueSnapshot::failedLastHour() const
{
    return std::accumulate(failedPerMinute.begin(), failedPerMinute.end(), 0LL);
}

QueueSnapshotReader::QueueSnapshotReader(Connection& connection, std::string prefix)
    : m_connection(connection), m_prefix(std::move(prefix))
{}

std::vector<QueueSnapshot> QueueSnapshotReader::readAll(bool withHistory, int limit)
{
    auto names = Queue::listQueues(m_connection, m_prefix, limit);
    std::sort(names.begin(), names.end());
    return read(names, withHistory);
}

std::vector<QueueSnapshot> QueueSnapshotReader::read(const std::vector<std::string>& names,
                                                     bool withHistory)
{
    m_skipped = 0;
    requireBounded(names.size());
    // The estimate from the clock offset, as `delayq queues` uses: no round trip of its own.
    const long long nowMs = m_connection.serverNowMs();
    const long long currentMinute = nowMs / 60000;
    const std::string now = std::to_string(nowMs);
    const size_t minutes = withHistory ? QueueSnapshot::kMinutes : 0;
    std::vector<Keys> queues;
    std::vector<std::vector<std::string>> layoutReads;
    for (const auto& name : names) {
        try {
            queues.emplace_back(m_prefix, name);
            layoutReads.push_back({"HGET", queues.back().config(), "shard_tags"});
        } catch (const Error&) {
            ++m_skipped; // a name written into the registry by hand that is no queue name
        }
    }
    // A sharded queue's further shards are read too: which they are, first.
    const auto layouts = m_connection.pipeline(layoutReads);
    std::vector<std::vector<std::string>> commands;
    std::vector<size_t> starts;
    std::vector<std::vector<std::string>> tagsOf;
    for (size_t q = 0; q < queues.size(); ++q) {
        const Keys& keys = queues[q];
        starts.push_back(commands.size());
        // Each is O(1) or O(log n) on the queue's size: nothing here reads a task. Shard 0's
        // tasks as every shard's, then what only shard 0 holds.
        addShardReads(commands, keys, now);
        commands.push_back({"HMGET", keys.config(), "paused", "rate", "burst", "cap", "dead_max",
                            "dead_max_bytes", "order", "group_cap", "group_rate"});
        commands.push_back({"ZCOUNT", keys.workers(), "(" + now, "+inf"});
        commands.push_back({"ZRANGE", keys.scheduleNext(), "0", "0", "WITHSCORES"});
        addMinutes(commands, keys, currentMinute, minutes);
        const std::string tags = layouts[q].isError() ? std::string() : layouts[q].str;
        tagsOf.push_back(ShardLayout::fromConfig(keys.queue(), "", tags, "", "").tags);
        for (size_t t = 1; t < tagsOf.back().size(); ++t) {
            const Keys shard(m_prefix, keys.queue(), tagsOf.back()[t]);
            addShardReads(commands, shard, now);
            addMinutes(commands, shard, currentMinute, minutes);
        }
    }
    starts.push_back(commands.size());
    // On a cluster the connection splits this per master and sends every batch before reading.
    const auto replies = m_connection.pipeline(commands);
    std::vector<QueueSnapshot> out;
    out.reserve(queues.size());
    for (size_t i = 0; i < queues.size(); ++i) {
        const Reply* r = &replies[starts[i]];
        if (std::any_of(r, &replies[0] + starts[i + 1],
                        [](const Reply& x) { return x.isError(); })) {
            ++m_skipped; // a key of another type under the queue's name
            continue;
        }
        QueueSnapshot q;
        parse(queues[i].queue(), r, nowMs, withHistory, q);
        r += kBaseCommands + minutes;
        for (size_t t = 1; t < tagsOf[i].size(); ++t, r += kShardCommands + minutes)
            addShard(r, nowMs, withHistory, q);
        q.flow.serverNowMs = nowMs;
        q.flow.paused = q.paused;
        q.flow.dueWaiting = q.counts.dueNow;
        q.flow.activeLive = q.counts.active - q.counts.leaseExpired;
        q.flow.judge();
        out.push_back(std::move(q));
    }
    return out;
}

void QueueSnapshotReader::addShardReads(std::vector<std::vector<std::string>>& commands,
                                        const Keys& keys, const std::string& now)
{
    commands.push_back({"ZCARD", keys.pending()});
    commands.push_back({"ZCOUNT", keys.pending(), "-inf", now});
    commands.push_back({"ZCARD", keys.active()});
    commands.push_back({"ZCARD", keys.dead()});
    commands.push_back({"ZRANGE", keys.pending(), "0", "0", "WITHSCORES"});
    commands.push_back({"HGETALL", keys.stats()});
    commands.push_back({"ZCOUNT", keys.active(), "-inf", now});
    // The last hold of the flow limits (lua/claim.lua), in the hash beside the config.
    const std::string config = keys.config();
    commands.push_back(
        {"HMGET", config.substr(0, config.size() - 6) + "flow", "held_at", "held_by"});
    // The dead tasks' bytes the dead bound counts (lua/common.lua's dead_key).
    commands.push_back({"HGET", keys.deadBound(), "bytes"});
}

void QueueSnapshotReader::addMinutes(std::vector<std::vector<std::string>>& commands,
                                     const Keys& keys, long long currentMinute, size_t minutes)
{
    for (long long m = currentMinute - static_cast<long long>(minutes) + 1;
         minutes > 0 && m <= currentMinute; ++m)
        commands.push_back({"HMGET", keys.minute(m), "acked", "died", "retried"});
}

void QueueSnapshotReader::addShard(const Reply* r, long long nowMs, bool withHistory,
                                   QueueSnapshot& q) const
{
    q.counts.pending += r[0].toInteger();
    q.counts.dueNow += r[1].toInteger();
    q.counts.active += r[2].toInteger();
    q.counts.dead += r[3].toInteger();
    // ZRANGE … WITHSCORES: [member, score]; scores are whole ms, written by Redis as a double.
    if (r[4].elements.size() >= 2)
        q.oldestOverdueMs = std::max(
            q.oldestOverdueMs, std::max(0LL, nowMs - static_cast<long long>(std::strtod(
                                                         r[4].elements[1].str.c_str(), nullptr))));
    for (size_t k = 0; k + 1 < r[5].elements.size(); k += 2)
        q.counters[r[5].elements[k].str] += number(r[5].elements[k + 1]);
    q.counts.leaseExpired += r[6].toInteger();
    // The newest hold of any shard.
    if (r[7].elements.size() >= 2) {
        const long long heldAt = number(r[7].elements[0]);
        if (heldAt > q.flow.heldAtMs) {
            q.flow.heldAtMs = heldAt;
            q.flow.heldBy = r[7].elements[1].isNil() ? std::string() : r[7].elements[1].str;
        }
    }
    q.deadBytes += number(r[8]);
    if (withHistory)
        addMinuteCounters(r + kShardCommands, q);
}

void QueueSnapshotReader::addMinuteCounters(const Reply* r, QueueSnapshot& q)
{
    for (int m = 0; m < QueueSnapshot::kMinutes; ++m) {
        const Reply& h = r[static_cast<size_t>(m)];
        if (h.elements.size() < 3)
            continue;
        q.ackedPerMinute[static_cast<size_t>(m)] += number(h.elements[0]);
        q.failedPerMinute[static_cast<size_t>(m)] += number(h.elements[1]) + number(h.elements[2]);
    }
}

std::vector<QueueSnapshot> QueueSnapshotReader::readPlain(const std::vector<PlainKey>& keys)
{
    m_skipped = 0;
    requireBounded(keys.size());
    const long long nowMs = m_connection.serverNowMs();
    std::vector<std::vector<std::string>> commands;
    commands.reserve(keys.size() * 3);
    for (const auto& [key, unit] : keys) {
        const long long now = unit == PlainQueue::ScoreUnit::Seconds ? nowMs / 1000 : nowMs;
        commands.push_back({"ZCARD", key});
        commands.push_back({"ZCOUNT", key, "-inf", std::to_string(now)});
        commands.push_back({"ZRANGE", key, "0", "0", "WITHSCORES"});
    }
    const auto replies = m_connection.pipeline(commands);
    std::vector<QueueSnapshot> out;
    out.reserve(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
        const Reply* r = &replies[i * 3];
        if (r[0].isError() || r[1].isError() || r[2].isError()) {
            ++m_skipped; // no longer a sorted set
            continue;
        }
        const auto& [key, unit] = keys[i];
        QueueSnapshot q;
        q.name = key;
        if (m_connection.isCluster())
            q.node = m_connection.nodeForKey(key);
        q.counts.pending = r[0].toInteger();
        q.counts.dueNow = r[1].toInteger();
        if (r[2].elements.size() >= 2) {
            const double score = std::strtod(r[2].elements[1].str.c_str(), nullptr);
            const auto earliestMs = static_cast<long long>(
                unit == PlainQueue::ScoreUnit::Seconds ? score * 1000 : score);
            q.oldestOverdueMs = std::max(0LL, nowMs - earliestMs);
        }
        out.push_back(std::move(q));
    }
    return out;
}

void QueueSnapshotReader::requireBounded(size_t count) const
{
    if (count > kMaxQueuesPerCall)
        throw Error(ErrorCode::InvalidArgument,
                    "too many queues for one snapshot: " + std::to_string(count) + " (at most " +
                        std::to_string(kMaxQueuesPerCall) + ")");
}

void QueueSnapshotReader::parse(const std::string& name, const Reply* r, long long nowMs,
                                bool withHistory, QueueSnapshot& q) const
{
    q.name = name;
    if (m_connection.isCluster())
        q.node = m_connection.nodeForKey(Keys(m_prefix, name).pending());
    for (const char* c : kCounterNames)
        q.counters[c] = 0;
    addShard(r, nowMs, false, q);
    const Reply& config = r[kShardCommands];
    const auto text = [&](size_t i) {
        return i < config.elements.size() && !config.elements[i].isNil() ? config.elements[i].str
                                                                         : std::string();
    };
    q.paused = text(0) == "1";
    q.flow.setLimits(text(1), text(2), text(3));
    // Fair order and its group limits: a reader shows the busy groups of such a queue.
    q.flow.setGroupLimits(text(6), text(7), text(8));
    // The dead bound (docs/design/bounds.md): the defaults where unset or garbage, as the
    // scripts read them (lua/common.lua's dead_trim).
    if (const auto max = wholeNumber(text(4)); max && *max >= 0)
        q.deadMax = *max;
    if (const auto max = wholeNumber(text(5)); max && *max >= 0)
        q.deadMaxBytes = *max;
    q.consumers = r[kShardCommands + 1].toInteger();
    const Reply& schedule = r[kShardCommands + 2];
    if (schedule.elements.size() >= 2) {
        q.hasSchedules = true;
        q.scheduleLagMs = std::max(0LL, nowMs - static_cast<long long>(std::strtod(
                                                    schedule.elements[1].str.c_str(), nullptr)));
    }
    if (!withHistory)
        return;
    q.hasHistory = true;
    addMinuteCounters(r + kBaseCommands, q);
}

} // namespace delayq
