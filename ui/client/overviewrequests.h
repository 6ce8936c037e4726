#pragma once

#include "client/overviewtypes.h"
#include "client/queuetypes.h"

#include <QPair>

namespace delayq {
class Connection;
class Queue;
class QueueReader;
} // namespace delayq

namespace delayq::ui {

// The Redis side of the overview and the queue settings, run on the I/O thread by
// AdminClient: plain functions of a connection, so AdminClient only posts and delivers.
namespace OverviewRequests {

// Every native queue under the prefix in one pipeline (QueueSnapshotReader), their workers in
// a second (to tell a stalled consumer), then the plain keys given (3 O(log n) commands each)
// in a third when there are any. withForecast: each native queue's forecast peak too (one
// ForecastReader read a queue: a bounded pipeline of ZCOUNTs whatever its size).
void read(delayq::Connection& c, const std::string& prefix, const QList<PlainKeyRow>& plainKeys,
          bool withHistory, bool withForecast, OverviewResult& result);
// The queue's lateness forecast over the next horizonMs (ForecastReader's defaults
// otherwise), with the capacity that keeps it under thresholdMs (-1: no threshold).
void readForecast(delayq::QueueReader& q, qint64 thresholdMs, qint64 horizonMs,
                  ForecastResult& result);
// Every worker of every queue under the prefix (WorkerRegistry: two commands a queue).
void readWorkers(delayq::Connection& c, const std::string& prefix, WorkersResult& result);
// The queue's shards, each with its node and its pending, active and dead counts (one ZCARD
// pipeline), and the reshard under way if there is one.
void readShards(delayq::Queue& q, ServerResult& result);
void readConfig(delayq::Queue& q, QueueConfigResult& result);
// One Queue::setConfig call: each value is checked before any is written, so a refused
// one changes nothing, and the values that changed make one audit entry.
void writeConfig(delayq::Queue& q, const QList<QPair<QString, QString>>& values,
                 QueueConfigResult& result);

} // namespace OverviewRequests

} // namespace delayq::ui
