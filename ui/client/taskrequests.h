#pragma once

#include "client/overviewtypes.h"
#include "client/queuetypes.h"
#include "client/tasktypes.h"

#include <vector>

namespace delayq {
class Connection;
class Queue;
struct PushRequest;
} // namespace delayq

namespace delayq::ui {

class TaskQueue;

// The Redis side of the task views (pages, counts, timeline, history, audit) and of a push,
// run on the I/O thread by AdminClient: plain functions of a queue, so AdminClient only
// posts and delivers.
namespace TaskRequests {

// result.total and, for each offset below it, a page of `limit` rows.
void pages(TaskQueue& q, const QList<qint64>& offsets, int limit, PageResult& result);
void counts(delayq::Connection& c, TaskQueue& q, CountsResult& result);
// result.fromMs..toMs in `buckets` bars, read against result.serverNow.
void histogram(TaskQueue& q, int buckets, HistogramResult& result);
// result.fromMinute..toMinute: acked and failed (retried or died) per minute.
void throughput(delayq::Queue& q, qint64 toMinute, ThroughputResult& result);
// The newest `limit` entries of the queue's audit trail.
void audit(delayq::Queue& q, int limit, AuditResult& result);
// spec.count copies (one on a plain key), ids numbered when there are several.
std::vector<delayq::PushRequest> pushRequests(const PushSpec& spec, bool plain);

} // namespace TaskRequests

} // namespace delayq::ui
