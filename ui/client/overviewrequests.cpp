#include "client/overviewrequests.h"

#include "client/membertext.h"
#include "client/taskrows.h"
#include <delayq/auditlog.h>
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/forecast.h>
#include <delayq/queue.h>
#include <delayq/queuereader.h>
#include <delayq/queuesnapshot.h>
#include <delayq/shardmover.h>
#include <delayq/workerregistry.h>

#include <algorithm>
#include <map>
#include <optional>

namespace delayq::ui {

namespace {

OverviewRow rowOf(const delayq::QueueSnapshot& s)
{
    OverviewRow row;
    row.name = TaskRows::text(s.name);
    row.node = TaskRows::text(s.node);
    row.pending = s.counts.pending;
    row.dueNow = s.counts.dueNow;
    row.oldestOverdueMs = s.oldestOverdueMs;
    row.active = s.counts.active;
    row.dead = s.counts.dead;
    row.deadMax = s.deadMax;
    row.deadMaxBytes = s.deadMaxBytes;
    row.deadBytes = s.deadBytes;
    row.deadBoundUse = s.deadBoundUse();
    row.paused = s.paused;
    row.consumers = s.consumers;
    if (s.flow.heldNow) {
        row.limitedBy = QString::fromStdString(s.flow.heldNowBy);
        row.rate = QString::fromStdString(s.flow.rateText());
        row.cap = s.flow.cap;
        row.activeLive = s.flow.activeLive;
    }
    if (s.hasHistory) {
        row.ackedMinute = s.ackedLastMinute();
        row.failedMinute = s.failedLastMinute();
        row.ackedHour = s.ackedLastHour();
        row.failedHour = s.failedLastHour();
        row.ackedSeries = QList<qint64>(s.ackedPerMinute.begin(), s.ackedPerMinute.end());
        row.failedSeries = QList<qint64>(s.failedPerMinute.begin(), s.failedPerMinute.end());
    }
    return row;
}

// How long ago the queue was paused, as its audit trail says: the newest pause or resume
// among the latest entries (a paused queue gets few: nothing is claimed or acked). -1 when
// none is there (trimmed, or paused without an audit entry).
qint64 pausedFor(delayq::Connection& c, const std::string& prefix, const std::string& queue,
                 qint64 serverNowMs)
{
    constexpr int kEntriesRead = 100;
    delayq::AuditLog log(c, delayq::Keys(prefix, queue));
    try {
        for (const auto& entry : log.read(0, kEntriesRead)) {
            if (entry.action == "resume")
                return -1;
            if (entry.action == "pause")
                return std::max<qint64>(0, serverNowMs - entry.timeMs);
        }
    } catch (const delayq::Error& e) {
        // An ACL that keeps the audit from this user must not cost the overview: the pause
        // is then counted from when the app first saw it.
        if (e.code() != delayq::ErrorCode::NoPermission)
            throw;
    }
    return -1;
}

// What each worker of `queue` holds now: its active tasks, counted by the worker that claimed
// them. For the workers that are gone: their last beat's count goes stale once a reap takes
// their tasks back. nullopt when the active set is too large to read here.
std::optional<std::map<std::string, qint64>>
heldNow(delayq::Connection& c, const std::string& prefix, const std::string& queue)
{
    constexpr long long kMaxActive = 20000;
    constexpr long long kPage = 1000;
    delayq::Queue q(c, queue, prefix);
    const long long active = q.size(delayq::TaskSet::Active);
    if (active > kMaxActive)
        return std::nullopt;
    std::map<std::string, qint64> held;
    for (long long offset = 0; offset < active; offset += kPage)
        for (const delayq::Task& t : q.page(delayq::TaskSet::Active, offset, kPage))
            ++held[t.worker];
    return held;
}

// The forecast's model spreads each bucket's arrivals evenly over it, so a burst due at one
// instant reads up to a bucket's service less late than it will be: at the default 120
// buckets over 6 h (3 minutes each) a rate of 5/s hides 900 tasks of a burst. The app reads
// the most buckets the reader takes (21.6 s each over 6 h): 1,000 ZCOUNTs a shard, pipelined.
delayq::ForecastReader::Options forecastOptions()
{
    delayq::ForecastReader::Options options;
    options.buckets = delayq::ForecastReader::kMaxBuckets;
    return options;
}

// The queue's forecast peak: a queue the forecast cannot read (an ACL keeping its counters
// from this user) keeps forecastKnown false rather than costing the overview.
void readForecastPeak(delayq::Connection& c, const std::string& prefix, const std::string& queue,
                      OverviewRow& row)
{
    try {
        delayq::QueueReader q(c, queue, prefix);
        const delayq::Forecast f = delayq::ForecastReader(q).read(forecastOptions());
        row.forecastKnown = f.capacityPerSecond > 0;
        row.forecastPeakMs = f.peakLatenessMs;
        row.forecastPeakAtMs = f.peakAtMs;
    } catch (const delayq::Error& e) {
        if (e.isUnreachable())
            throw;
    }
}

// A queue in fair order: its busiest groups, read with plain commands as `delayq stats` and the
// Groups tab read them. A queue whose index cannot be read (an ACL keeping its keys from this
// user) keeps groupsRead false rather than costing the overview.
void readBusyGroups(delayq::Connection& c, const std::string& prefix, const std::string& queue,
                    OverviewRow& row)
{
    try {
        delayq::QueueReader q(c, queue, prefix);
        const delayq::GroupLoads loads = q.busyGroups(OverviewResult::kOverviewGroups);
        row.fair = loads.fair; // changed since the snapshot: as read now
        row.groupsRead = loads.fair;
        row.groupsReady = loads.ready;
        row.groupsHeld = loads.atCap + loads.atRate;
        for (const auto& g : loads.groups)
            row.busyGroups.append(
                GroupRow{TaskRows::text(g.group), g.dueWaiting, g.active, g.atCap, g.atRate});
    } catch (const delayq::Error& e) {
        if (e.isUnreachable())
            throw;
    }
}

void readPlain(delayq::QueueSnapshotReader& reader, const QList<PlainKeyRow>& keys,
               OverviewResult& result)
{
    std::vector<delayq::QueueSnapshotReader::PlainKey> wanted;
    std::map<std::string, const PlainKeyRow*> byBytes;
    for (const auto& k : keys) {
        const std::string key = MemberText::toBytes(k.key);
        wanted.emplace_back(key, k.unit == QLatin1String("s")
                                     ? delayq::PlainQueue::ScoreUnit::Seconds
                                     : delayq::PlainQueue::ScoreUnit::Milliseconds);
        byBytes.emplace(key, &k);
    }
    for (const auto& s : reader.readPlain(wanted)) {
        const PlainKeyRow& asked = *byBytes.at(s.name);
        OverviewRow row;
        row.name = asked.key;
        row.plain = true;
        row.unit = asked.unit;
        row.node = TaskRows::text(s.node);
        row.pending = s.counts.pending;
        row.dueNow = s.counts.dueNow;
        row.oldestOverdueMs = s.oldestOverdueMs;
        result.rows.append(row);
    }
    result.skipped += static_cast<qint64>(reader.skipped());
}

} // namespace

void OverviewRequests::read(delayq::Connection& c, const std::string& prefix,
                            const QList<PlainKeyRow>& plainKeys, bool withHistory,
                            bool withForecast, OverviewResult& result)
{
    delayq::QueueSnapshotReader reader(c, prefix);
    const auto snapshots = reader.readAll(withHistory);
    std::vector<std::string> names;
    for (const auto& s : snapshots)
        names.push_back(s.name);
    delayq::WorkerRegistry registry(c, prefix);
    const auto workers = registry.read(names);
    for (const auto& s : snapshots) {
        OverviewRow row = rowOf(s);
        row.consumerState = delayq::consumerState(s, workers, registry.nowMs());
        if (row.paused)
            row.pausedForMs = pausedFor(c, prefix, s.name, registry.nowMs());
        if (withForecast)
            readForecastPeak(c, prefix, s.name, row);
        row.fair = s.flow.fair;
        if (row.fair)
            readBusyGroups(c, prefix, s.name, row);
        result.rows.append(row);
    }
    result.skipped = static_cast<qint64>(reader.skipped());
    if (!plainKeys.isEmpty())
        readPlain(reader, plainKeys, result);
}

void OverviewRequests::readForecast(delayq::QueueReader& q, qint64 thresholdMs, qint64 horizonMs,
                                    ForecastResult& result)
{
    delayq::ForecastReader::Options options = forecastOptions();
    if (horizonMs > 0)
        options.horizonMs = horizonMs;
    // No threshold: the factor is not asked for (a zero threshold would ask for no lateness).
    options.thresholdMs = thresholdMs >= 0 ? thresholdMs : options.thresholdMs;
    const delayq::Forecast f = delayq::ForecastReader(q).read(options);
    result.fromMs = f.fromMs;
    result.horizonMs = f.horizonMs;
    for (const delayq::ForecastPoint& p : f.curve)
        result.curve.append({p.atMs, p.latenessMs, p.backlog});
    result.peakLatenessMs = f.peakLatenessMs;
    result.peakAtMs = f.peakAtMs;
    result.capacityPerSecond = f.capacityPerSecond;
    result.capacitySource = QString::fromStdString(f.capacitySource);
    result.thresholdMs = thresholdMs;
    result.capacityFactor = thresholdMs >= 0 ? f.capacityFactor : 0;
}

void OverviewRequests::readWorkers(delayq::Connection& c, const std::string& prefix,
                                   WorkersResult& result)
{
    auto names = delayq::Queue::listQueues(c, prefix);
    delayq::WorkerRegistry registry(c, prefix);
    auto workers = registry.read(names);
    // Plain keys' consumers (their own registries, listed in PlainKeys::plainKeys).
    const auto plain = registry.readPlain(delayq::WorkerRegistry::plainKeysWithWorkers(c, prefix));
    workers.insert(workers.end(), plain.begin(), plain.end());
    // A gone worker's beat said what it held then; its tasks may have been reaped since.
    // Read once per queue, a queue too large to read (nullopt) included.
    std::map<std::string, std::optional<std::map<std::string, qint64>>> heldByQueue;
    for (const auto& w : workers)
        if (!w.live && !w.plain && w.held > 0 && !heldByQueue.count(w.queue))
            heldByQueue[w.queue] = heldNow(c, prefix, w.queue);
    for (const auto& w : workers) {
        WorkerRow row;
        row.queue = TaskRows::text(w.queue);
        row.name = TaskRows::text(w.name);
        row.host = TaskRows::text(w.host);
        row.version = TaskRows::text(w.version);
        row.handler = TaskRows::text(w.handler);
        row.pid = w.pid;
        row.threads = w.threads;
        row.startedMs = w.startedMs;
        row.lastSeenMs = w.lastSeenMs;
        row.held = w.held;
        if (const auto it = heldByQueue.find(w.queue);
            !w.plain && !w.live && it != heldByQueue.end() && it->second)
            row.held = it->second->count(w.name) ? it->second->at(w.name) : 0;
        row.acked = w.acked;
        row.failed = w.failed;
        row.latenessP99Ms = w.latenessP99Ms;
        row.live = w.live;
        row.stalled = w.stalled(registry.nowMs());
        row.plain = w.plain;
        result.workers.append(row);
    }
    result.serverNow = registry.nowMs();
}

void OverviewRequests::readShards(delayq::Queue& q, ServerResult& result)
{
    const delayq::ShardLayout layout = q.reloadLayout();
    delayq::Connection& c = q.connection();
    std::vector<std::vector<std::string>> reads;
    for (size_t s = 0; s < layout.tags.size(); ++s) {
        const delayq::Keys& keys = q.shardKeys(s);
        for (const std::string& key : {keys.pending(), keys.active(), keys.dead()})
            reads.push_back({"ZCARD", key});
    }
    const auto sizes = c.pipeline(reads);
    const auto count = [&](size_t i) -> qint64 {
        return i < sizes.size() && !sizes[i].isError() ? sizes[i].toInteger() : -1;
    };
    for (size_t s = 0; s < layout.tags.size(); ++s) {
        ShardRow row;
        row.index = static_cast<int>(s);
        row.tag = TaskRows::text(layout.tags[s]);
        row.node = TaskRows::text(c.nodeForKey(q.shardKeys(s).pending()));
        row.pending = count(3 * s);
        row.active = count(3 * s + 1);
        row.dead = count(3 * s + 2);
        row.retired = row.index >= layout.count;
        result.shards.append(row);
    }
    if (!layout.moving())
        return;
    const delayq::MoveProgress p = delayq::ShardMover(q).progress();
    result.move.moving = !p.finished;
    result.move.from = p.from;
    result.move.to = p.to;
    result.move.moved = p.moved;
    result.move.shard = p.shard;
    result.move.shards = p.shards;
    result.move.pass = p.pass;
}

void OverviewRequests::readConfig(delayq::Queue& q, QueueConfigResult& result)
{
    const delayq::QueueConfig config = q.config();
    result.maxAttempts = config.maxAttempts;
    result.backoff = TaskRows::text(config.backoff);
    result.leaseMs = config.leaseMs;
    result.maxPayload = config.maxPayload;
    result.history = config.history;
    result.paused = config.paused;
    result.rateTasks = config.rateTasks;
    result.rateMs = config.rateMs;
    result.burst = config.burst;
    result.cap = config.cap;
    result.fair = config.fair;
    result.groupCap = config.groupCap;
    result.deadMax = config.deadMax;
    result.deadMaxBytes = config.deadMaxBytes;
    result.maxAgeMs = config.maxAgeMs;
    result.expiredToDrop = config.expiredToDrop;
    result.groupRateTasks = config.groupRateTasks;
    result.groupRateMs = config.groupRateMs;
    result.dedupWindowMs = config.dedupWindowMs;
    result.dedupMax = config.dedupMax;
    result.binKeepMs = config.binKeepMs;
    result.binMax = config.binMax;
    result.binBytes = config.binBytes;
}

void OverviewRequests::writeConfig(delayq::Queue& q, const QList<QPair<QString, QString>>& values,
                                   QueueConfigResult& result)
{
    // One call: every value checked before any is written, one audit entry for them all.
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& [key, value] : values)
        pairs.emplace_back(key.toStdString(), value.toStdString());
    q.setConfig(pairs);
    result.written = true;
    readConfig(q, result);
}

} // namespace delayq::ui
