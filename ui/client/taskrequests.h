#pragma once

#include "client/overviewtypes.h"
#include "client/queuetypes.h"
#include "client/tasktypes.h"

#include <vector>

namespace delayq {
class Connection;
class Queue;
class TaskQueue;
struct PushRequest;
} // namespace delayq

namespace delayq::ui {

// The Redis side of the task views (pages, counts, timeline, history, audit) and of a push,
// run on the I/O thread by AdminClient: plain functions of a queue, so AdminClient only
// posts and delivers.
class TaskRequests
{
public:
    // result.total and, for each offset below it, a page of `limit` rows.
    static void pages(delayq::TaskQueue& q, const QList<qint64>& offsets, int limit,
                      PageResult& result);
    static void counts(delayq::Connection& c, delayq::TaskQueue& q, CountsResult& result);
    // result.fromMs..toMs in `buckets` bars, read against result.serverNow.
    static void histogram(delayq::TaskQueue& q, int buckets, HistogramResult& result);
    // result.fromMinute..toMinute: acked and failed (retried or died) per minute.
    static void history(delayq::Queue& q, qint64 toMinute, HistoryResult& result);
    // The newest `limit` entries of the queue's audit trail.
    static void audit(delayq::Queue& q, int limit, AuditResult& result);
    // spec.count copies (one on a plain key), ids numbered when there are several.
    static std::vector<delayq::PushRequest> pushRequests(const PushSpec& spec, bool plain);
};

} // namespace delayq::ui
