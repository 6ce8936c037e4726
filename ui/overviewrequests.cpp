#include "overviewrequests.h"

#include "taskrows.h"
#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/queuesnapshot.h>

#include <algorithm>
#include <cstdlib>

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
    row.paused = s.paused;
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

void readPlain(delayq::Connection& c, const QList<PlainKeyRow>& keys, OverviewResult& result)
{
    const long long nowMs = c.serverNowMs();
    std::vector<std::vector<std::string>> commands;
    for (const auto& k : keys) {
        const std::string key = TaskRows::bytes(k.key);
        const long long now = k.unit == QLatin1String("s") ? nowMs / 1000 : nowMs;
        commands.push_back({"ZCARD", key});
        commands.push_back({"ZCOUNT", key, "-inf", std::to_string(now)});
        commands.push_back({"ZRANGE", key, "0", "0", "WITHSCORES"});
    }
    const auto replies = c.pipeline(commands);
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const auto* r = &replies[static_cast<size_t>(i) * 3];
        if (r[0].isError() || r[1].isError() || r[2].isError()) {
            ++result.skipped; // no longer a sorted set
            continue;
        }
        OverviewRow row;
        row.name = keys[i].key;
        row.plain = true;
        row.unit = keys[i].unit;
        if (c.isCluster())
            row.node = TaskRows::text(c.nodeForKey(TaskRows::bytes(keys[i].key)));
        row.pending = r[0].toInteger();
        row.dueNow = r[1].toInteger();
        if (r[2].elements.size() >= 2) {
            const double score = std::strtod(r[2].elements[1].str.c_str(), nullptr);
            const auto earliestMs =
                static_cast<long long>(keys[i].unit == QLatin1String("s") ? score * 1000 : score);
            row.oldestOverdueMs = std::max(0LL, nowMs - earliestMs);
        }
        result.rows.append(row);
    }
}

} // namespace

void OverviewRequests::read(delayq::Connection& c, const std::string& prefix,
                            const QList<PlainKeyRow>& plainKeys, bool withHistory,
                            OverviewResult& result)
{
    delayq::QueueSnapshotReader reader(c, prefix);
    for (const auto& s : reader.readAll(withHistory))
        result.rows.append(rowOf(s));
    result.skipped = static_cast<qint64>(reader.skipped());
    if (!plainKeys.isEmpty())
        readPlain(c, plainKeys, result);
}

void OverviewRequests::readConfig(delayq::Connection& c, const std::string& prefix,
                                  QueueConfigResult& result)
{
    delayq::Queue q(c, TaskRows::bytes(result.queue), prefix);
    const delayq::QueueConfig config = q.config();
    result.maxAttempts = config.maxAttempts;
    result.backoff = TaskRows::text(config.backoff);
    result.leaseMs = config.leaseMs;
    result.maxPayload = config.maxPayload;
    result.paused = config.paused;
}

void OverviewRequests::writeConfig(delayq::Connection& c, const std::string& prefix,
                                   const QList<QPair<QString, QString>>& values,
                                   QueueConfigResult& result)
{
    delayq::Queue q(c, TaskRows::bytes(result.queue), prefix);
    for (const auto& [key, value] : values)
        delayq::Queue::normalizeConfig(key.toStdString(), value.toStdString());
    for (const auto& [key, value] : values)
        q.setConfig(key.toStdString(), value.toStdString());
    result.written = true;
    readConfig(c, prefix, result);
}

} // namespace delayq::ui
