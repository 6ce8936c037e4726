#pragma once

#include "client/grouptypes.h"
#include "client/plaintypes.h"
#include "client/requesterror.h"
#include <delayq/workerregistry.h>

#include <QList>
#include <QMetaType>
#include <QString>

// The values of the overview requests (OverviewClient: the overview, the server, the timeline
// and the history) that cross from the I/O thread to the GUI.

namespace delayq::ui {

// One line of the overview: a native queue, or a plain sorted set (plain = true), for which
// only pending, due now and oldest overdue apply (it has no active or dead set, no config
// and no counters).
struct OverviewRow
{
    QString name;
    QString server; // a watched server's profile (Alerts → Watch servers); empty: the window's
    bool plain = false;
    QString unit; // plain keys: "ms" | "s"
    QString node; // on a Redis Cluster: the master holding the slot
    qint64 pending = 0;
    qint64 dueNow = 0;
    qint64 oldestOverdueMs = 0;
    qint64 active = 0;
    qint64 dead = 0;
    // The dead bound (docs/design/bounds.md, since 2.9), 0 = none: at most deadMax dead tasks
    // and deadMaxBytes of them; deadBytes now, and how full the fuller of the two is (0..1,
    // QueueSnapshot::deadBoundUse).
    qint64 deadMax = 0;
    qint64 deadMaxBytes = 0;
    qint64 deadBytes = 0;
    double deadBoundUse = 0;
    bool paused = false;
    // While paused: how long since the pause as Redis keeps it (its audit entry, read on the
    // server's clock); -1 when unknown (no pause entry among the latest).
    qint64 pausedForMs = -1;
    qint64 ackedMinute = 0;
    qint64 failedMinute = 0; // died + retried
    qint64 ackedHour = 0;
    qint64 failedHour = 0;
    QList<qint64> ackedSeries; // the last 60 minutes, oldest first
    QList<qint64> failedSeries;
    qint64 consumers = 0; // workers whose heartbeat is live
    delayq::ConsumerState consumerState = delayq::ConsumerState::Ok;
    // While a flow limit holds due tasks back (FlowStatus::heldNow): "rate" | "cap", the rate
    // ("50/s"), the cap and the live leases; limitedBy is empty when none does.
    QString limitedBy;
    QString rate;
    qint64 cap = 0;
    qint64 activeLive = 0;
    // Fair order (docs/design/flow.md): its busiest groups (QueueReader::busyGroups, the first
    // kOverviewGroups), how many groups have due tasks in turn, and how many wait at their cap
    // or rate; groupsRead is false when they could not be read (or the queue is not fair).
    bool fair = false;
    bool groupsRead = false;
    QList<GroupRow> busyGroups;
    qint64 groupsReady = 0;
    qint64 groupsHeld = 0;
    // The lateness forecast's peak (issue 54), read every OverviewPage::kForecastEveryMs
    // rather than at each refresh: forecastKnown is false until one was read (and for a
    // queue whose capacity could not be measured), peakMs 0 when nothing will be late.
    bool forecastKnown = false;
    qint64 forecastPeakMs = 0;
    qint64 forecastPeakAtMs = 0; // server ms
};

struct OverviewResult
{
    // The busiest groups read of each queue in fair order, at each refresh (two round trips
    // a fair queue, bounded whatever its number of groups).
    static constexpr int kOverviewGroups = 3;
    quint64 tag = 0;
    QList<OverviewRow> rows;
    qint64 skipped = 0; // registered names that are no queue, or keys of another type
    RequestError error;
};

// One worker of a queue, from its last heartbeat (WorkerInfo); text already printable.
struct WorkerRow
{
    QString queue;
    QString name;
    QString host;
    QString version;
    QString handler;
    qint64 pid = 0;
    int threads = 0;
    qint64 startedMs = 0;
    qint64 lastSeenMs = 0;
    qint64 held = 0;
    qint64 acked = 0;
    qint64 failed = 0;
    qint64 latenessP99Ms = 0;
    bool live = false;
    bool stalled = false;
    bool plain = false; // a consumer of the plain key `queue` (a forwarder or a pop consumer)
};

struct WorkersResult
{
    quint64 tag = 0;
    // Of every queue under the prefix, then of every plain key with a consumer; live ones
    // first per queue.
    QList<WorkerRow> workers;
    qint64 serverNow = 0;
    RequestError error;
};

struct HistogramResult
{
    quint64 tag = 0;
    QString queue;
    qint64 fromMs = 0;
    qint64 toMs = 0;
    QList<qint64> counts;
    qint64 serverNow = 0;
    // Tasks due at or before serverNow, in the whole set: the exact overdue count.
    qint64 overdue = 0;
    // The bucket that holds serverNow (-1: now is outside the window), and how many of its
    // tasks are due at or before now: the part of that bucket drawn as overdue.
    int nowBucket = -1;
    qint64 nowBucketOverdue = 0;
    qint64 elapsedUs = 0; // time spent on the I/O thread, for the measure mode
    RequestError error;
};

// One point of a lateness forecast (delayq::ForecastPoint): tasks due at atMs (server ms)
// are expected to run latenessMs late, with backlog tasks due and not yet started.
struct ForecastPoint
{
    qint64 atMs = 0;
    qint64 latenessMs = 0;
    qint64 backlog = 0;
};

// The lateness forecast of one queue (delayq::Forecast) for the timeline's line and sentence.
struct ForecastResult
{
    quint64 tag = 0;
    QString queue;
    qint64 fromMs = 0; // the server's now when read
    qint64 horizonMs = 0;
    QList<ForecastPoint> curve; // empty when no capacity could be measured
    qint64 peakLatenessMs = 0;  // 0: nothing expected to be late
    qint64 peakAtMs = 0;
    double capacityPerSecond = 0; // 0: none measured nor stated
    QString capacitySource;       // "measured" | "stated" | "rate limit" | "cap" | "none"
    // The queue's lateness threshold (its oldest-overdue limit; -1: off), and the capacity
    // that keeps the peak under it, as a multiple of capacityPerSecond (0: not asked/none).
    qint64 thresholdMs = -1;
    double capacityFactor = 0;
    qint64 elapsedUs = 0; // time spent on the I/O thread
    RequestError error;
};

struct ThroughputResult
{
    quint64 tag = 0;
    QString queue;
    qint64 fromMinute = 0;
    QList<qint64> acked;
    QList<qint64> failed; // retried + died
    RequestError error;
};

// One node of a Redis Cluster, for the Server view.
struct ServerNodeRow
{
    QString address;
    bool master = false;
    QString masterAddress; // a replica's master
    QString slotRanges;    // "0-5460, 10923" for a master; empty for a replica
    int slotCount = 0;
    bool reachable = false;
};

// One finding of the configuration checks (delayq::Doctor, as `delayq doctor` prints them).
struct ServerCheckRow
{
    enum Level
    {
        Ok,
        Warning,
        Problem
    };
    Level level = Ok;
    QString check;  // eviction | persistence | version | cluster | memory | clock | role
    QString server; // host:port
    QString what;
    QString risk; // "" when ok
    QString fix;  // "" when ok
};

// One shard of the queue open in the window, for the Server view (QueueReader::shardKeys).
struct ShardRow
{
    int index = 0;
    QString tag;         // the hash tag of its keys: the queue's name for shard 0
    QString node;        // the master serving it (the server's address when not on a cluster)
    qint64 pending = -1; // -1: the count could not be read
    qint64 active = -1;
    qint64 dead = -1;
    bool retired = false; // at or past the queue's shard count: still read, no new tasks
};

// A change of the queue's shard count under way (delayq::MoveProgress).
struct ShardMoveRow
{
    bool moving = false;
    int from = 1;
    int to = 1;
    qint64 moved = 0;
    int shard = 0; // the shard being looked through, of `shards`
    int shards = 1;
    int pass = 1;
};

struct ServerResult
{
    quint64 tag = 0;
    bool cluster = false;
    QString displayUrl;
    QList<ServerNodeRow> nodes; // empty when not a cluster
    QList<ServerCheckRow> checks;
    QString checksError; // the checks could not run (a managed server denying INFO): why
    QString queue;       // the native queue whose shards were asked for; empty: none
    QList<ShardRow> shards;
    ShardMoveRow move;
    QString shardsError; // the shards could not be read: why
    RequestError error;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::OverviewResult)
Q_DECLARE_METATYPE(delayq::ui::HistogramResult)
Q_DECLARE_METATYPE(delayq::ui::ThroughputResult)
Q_DECLARE_METATYPE(delayq::ui::ForecastResult)
Q_DECLARE_METATYPE(delayq::ui::ServerResult)
Q_DECLARE_METATYPE(delayq::ui::WorkersResult)
