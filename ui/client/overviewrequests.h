#pragma once

#include "client/overviewtypes.h"
#include "client/queuetypes.h"

#include <QPair>

namespace delayq {
class Connection;
class Queue;
} // namespace delayq

namespace delayq::ui {

// The Redis side of the overview and the queue settings, run on the I/O thread by
// AdminClient: plain functions of a connection, so AdminClient only posts and delivers.
namespace OverviewRequests {

// Every native queue under the prefix in one pipeline (QueueSnapshotReader), their workers in
// a second (to tell a stalled consumer), then the plain keys given (3 O(log n) commands each)
// in a third when there are any.
void read(delayq::Connection& c, const std::string& prefix, const QList<PlainKeyRow>& plainKeys,
          bool withHistory, OverviewResult& result);
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
