#include "client/taskrequests.h"

#include "client/membertext.h"
#include "client/taskqueue.h"
#include "client/taskrows.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <algorithm>

namespace delayq::ui {

void TaskRequests::pages(TaskQueue& q, const QList<qint64>& offsets, int limit, PageResult& result)
{
    result.total = q.size(result.set);
    for (qint64 offset : offsets) {
        QList<TaskRow> rows;
        if (offset < result.total)
            for (const auto& t : q.page(result.set, offset, limit))
                rows.append(TaskRows::fromTask(t, TaskRows::kPagePayloadBytes));
        result.offsets.append(offset);
        result.pages.append(rows);
    }
}

void TaskRequests::counts(delayq::Connection& c, TaskQueue& q, CountsResult& result)
{
    const delayq::QueueCounts counts = q.counts();
    result.pending = counts.pending;
    result.dueNow = counts.dueNow;
    result.active = counts.active;
    result.dead = counts.dead;
    result.earliest = q.earliest(delayq::TaskSet::Pending).value_or(-1);
    result.serverNow = c.serverNowMs();
}

void TaskRequests::histogram(TaskQueue& q, int buckets, HistogramResult& result)
{
    const qint64 now = result.serverNow;
    const qint64 fromMs = result.fromMs;
    const qint64 toMs = result.toMs;
    for (long long n : q.histogram(fromMs, toMs, buckets))
        result.counts.append(n);
    result.overdue = q.dueBy(now);
    // The same bucket bounds as the histogram's, so the split matches its bars.
    const double width = static_cast<double>(toMs - fromMs) / buckets;
    for (int i = 0; i < buckets && now >= fromMs && now < toMs; ++i) {
        const qint64 lo = fromMs + static_cast<qint64>(width * i);
        const qint64 hi = i + 1 == buckets ? toMs : fromMs + static_cast<qint64>(width * (i + 1));
        if (now >= lo && now < hi) {
            result.nowBucket = i;
            // Bounded by the bucket's count: the reads are not one snapshot.
            result.nowBucketOverdue =
                qBound<qint64>(0, result.overdue - q.dueBy(lo - 1), result.counts.at(i));
            break;
        }
    }
}

void TaskRequests::throughput(delayq::Queue& q, qint64 toMinute, ThroughputResult& result)
{
    for (const auto& m : q.history(result.fromMinute, toMinute)) {
        auto value = [&](const char* name) {
            auto it = m.counters.find(name);
            return it == m.counters.end() ? 0LL : it->second;
        };
        result.acked.append(value("acked"));
        result.failed.append(value("retried") + value("died"));
    }
}

void TaskRequests::audit(delayq::Queue& q, int limit, AuditResult& result)
{
    auto text = [](const std::string& s) { return TaskRows::text(s); };
    for (const auto& e : q.audit(0, limit)) {
        AuditRow row{e.timeMs,
                     text(e.action),
                     e.count,
                     {},
                     text(e.detail),
                     text(e.user),
                     text(e.osUser),
                     text(e.host),
                     text(e.tool + " " + e.version)};
        for (const auto& id : e.ids)
            row.ids.append(text(id));
        result.rows.append(row);
    }
}

std::vector<delayq::PushRequest> TaskRequests::pushRequests(const PushSpec& spec, bool plain)
{
    std::vector<delayq::PushRequest> requests;
    // A plain member is the message itself: a second copy would be the same member.
    const int count = plain ? 1 : std::max(1, spec.count);
    for (int i = 0; i < count; ++i) {
        delayq::PushRequest r;
        r.payload = spec.payload.toStdString();
        if (spec.dueAtMs >= 0)
            r.dueAtMs = spec.dueAtMs;
        r.delayMs = spec.delayMs;
        if (!spec.id.isEmpty())
            r.id = MemberText::toBytes(
                count == 1 ? spec.id : spec.id + QLatin1Char('-') + QString::number(i + 1));
        r.maxAttempts = spec.maxAttempts;
        r.backoff = MemberText::toBytes(spec.backoff);
        r.dedupMs = spec.dedupMs;
        r.debounceMaxWaitMs = spec.debounceMaxWaitMs;
        r.debouncePayload = spec.debouncePayload;
        requests.push_back(std::move(r));
    }
    return requests;
}

} // namespace delayq::ui
