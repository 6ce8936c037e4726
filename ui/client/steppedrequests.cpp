#include "client/steppedrequests.h"

#include "client/ioworker.h"
#include "client/membertext.h"
#include "client/taskrows.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/plainqueue.h>
#include <delayq/queue.h>
#include <delayq/taskscan.h>

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <memory>
#include <optional>

namespace delayq::ui {

SteppedJob SteppedRequests::discovery(IoWorker* io, quint64 tag, int maxSteps, int count,
                                      std::function<void(const PlainDiscoveryResult&)> done)
{
    struct State
    {
        PlainDiscoveryResult result;
        std::string cursor = "0";
        int stepsLeft = 0;
    };
    auto state = std::make_shared<State>();
    state->result.tag = tag;
    state->stepsLeft = maxSteps;
    SteppedJob job;
    job.operation =
        QCoreApplication::translate("delayq::ui::SteppedRequests", "find plain sorted sets");
    job.step = [io, state, count](delayq::Connection& c) {
        for (const auto& k : delayq::PlainQueue::discover(c, state->cursor, io->prefix(), count))
            state->result.keys.append({MemberText::fromBytes(k.key),
                                       QString::fromLatin1(delayq::PlainQueue::unitName(k.unit)),
                                       k.size});
        return state->cursor != "0" && --state->stepsLeft > 0;
    };
    job.finished = [state, done](SteppedJob::End, const RequestError& error) {
        state->result.error = error;
        state->result.complete = error.isEmpty() && state->cursor == "0";
        done(state->result);
    };
    return job;
}

SteppedJob SteppedRequests::memberSearch(IoWorker* io, quint64 tag, const QString& key,
                                         const QString& text, int maxMatches, int count,
                                         std::function<bool()> cancelled,
                                         std::function<void(const PlainScanResult&)> report)
{
    struct State
    {
        PlainScanResult result;
        std::string cursor = "0";
        std::string needle;
        int found = 0;
        bool started = false;
    };
    auto state = std::make_shared<State>();
    state->result.tag = tag;
    state->result.key = key;
    state->needle = MemberText::toBytes(text);
    SteppedJob job;
    job.operation = QCoreApplication::translate("delayq::ui::SteppedRequests", "search members");
    job.cancelled = std::move(cancelled);
    job.step = [io, state, maxMatches, count](delayq::Connection& c) {
        PlainScanResult& result = state->result;
        result.matches.clear();
        auto p = io->plainFor(c, result.key);
        if (!p)
            throw delayq::Error(delayq::ErrorCode::InvalidArgument,
                                state->started
                                    ? "the plain key was closed during the search"
                                    : "searching the members' text needs a plain sorted set open");
        if (!state->started) {
            // The first step only measures, so the progress bar knows its end.
            state->started = true;
            result.total = p->size();
            return true;
        }
        auto step = p->scan(state->cursor, state->needle, count);
        state->cursor = step.cursor;
        result.scanned += step.scanned;
        for (const auto& m : step.matches) {
            if (state->found >= maxMatches) {
                result.capped = true;
                break;
            }
            result.matches.append(TaskRows::fromMember(m));
            ++state->found;
        }
        result.complete = state->cursor == "0";
        return !result.complete && !result.capped;
    };
    // Each step's matches as they come; not after the first step, which only measured.
    job.progressed = [state, report] {
        if (state->result.scanned > 0)
            report(state->result);
    };
    job.finished = [state, report](SteppedJob::End end, const RequestError& error) {
        PlainScanResult& result = state->result;
        if (end != SteppedJob::End::Done)
            result.matches.clear(); // already reported with the step that found them
        result.error = error;
        result.cancelled = end == SteppedJob::End::Cancelled;
        result.complete = result.complete && error.isEmpty();
        result.finished = true;
        report(result);
    };
    return job;
}

// One script call of at most `batch` tasks per step, never past the confirmed count.
SteppedJob SteppedRequests::bulkChange(IoWorker* io, quint64 tag, TaskAction action,
                                       const QString& queue, qint64 limit, int batch,
                                       std::function<bool()> cancelled,
                                       std::function<void(const BulkActionResult&)> progressed,
                                       std::function<void(const BulkActionResult&)> finished)
{
    auto result = std::make_shared<BulkActionResult>();
    result->tag = tag;
    result->action = action;
    result->queue = queue;
    result->total = limit;
    // Every step keeps what it removes under one recycle bin action: one Undo takes it back.
    if (action != TaskAction::Requeue)
        result->binAction = QString::fromStdString(delayq::Queue::newBinAction());
    SteppedJob job;
    job.operation =
        action == TaskAction::Purge
            ? QCoreApplication::translate("delayq::ui::SteppedRequests", "purge")
        : action == TaskAction::Requeue
            ? QCoreApplication::translate("delayq::ui::SteppedRequests", "requeue dead tasks")
            : QCoreApplication::translate("delayq::ui::SteppedRequests", "delete dead tasks");
    job.cancelled = std::move(cancelled);
    job.step = [io, result, batch](delayq::Connection& c) {
        auto q = io->nativeQueue(c, result->queue);
        q.setBinAction(result->binAction.toStdString());
        const int step = int(std::min<qint64>(batch, result->total - result->done));
        if (step < 1)
            return false;
        // Each script replies with what it did and what is left, so a step is one call.
        const delayq::BulkResult done = result->action == TaskAction::Purge ? q.purge(step, 1)
                                        : result->action == TaskAction::Requeue
                                            ? q.requeueAll(step, 1)
                                            : q.deleteAllDead(step, 1);
        result->done += done.done;
        result->left = done.remaining;
        return done.done > 0 && result->left > 0 && result->done < result->total;
    };
    job.progressed = [result, progressed] { progressed(*result); };
    job.finished = [result, finished](SteppedJob::End end, const RequestError& error) {
        result->cancelled = end == SteppedJob::End::Cancelled;
        result->error = error;
        finished(*result);
    };
    return job;
}

} // namespace delayq::ui

namespace delayq::ui {

namespace {

delayq::TaskFilter coreFilter(const MatchFilter& filter)
{
    delayq::TaskFilter f;
    f.set = filter.set;
    f.text = MemberText::toBytes(filter.text);
    f.field = filter.field;
    if (filter.fromMs >= 0)
        f.minScore = filter.fromMs;
    if (filter.toMs >= 0)
        f.maxScore = filter.toMs;
    return f;
}

} // namespace

SteppedJob SteppedRequests::taskScan(IoWorker* io, quint64 tag, const QString& queue,
                                     const MatchFilter& filter, int maxMatches, int count,
                                     bool keepIds, std::function<bool()> cancelled,
                                     std::function<void(const MatchScanResult&)> report)
{
    struct State
    {
        MatchScanResult result;
        QStringList ids;
        QSet<QString> seen; // a task moved during the scan may be read twice: listed once
        delayq::TaskFilter filter;
        delayq::ScanCursor cursor;
        bool started = false;
    };
    auto state = std::make_shared<State>();
    state->result.tag = tag;
    state->result.queue = queue;
    state->result.filter = filter;
    state->filter = coreFilter(filter);
    SteppedJob job;
    job.operation =
        keepIds ? QCoreApplication::translate("delayq::ui::SteppedRequests", "count matching tasks")
                : QCoreApplication::translate("delayq::ui::SteppedRequests", "search tasks");
    job.cancelled = std::move(cancelled);
    job.step = [io, state, maxMatches, count, keepIds](delayq::Connection& c) {
        MatchScanResult& result = state->result;
        result.matches.clear();
        auto q = io->nativeQueue(c, result.queue);
        delayq::TaskScan scan(q);
        if (!state->started) {
            // The first step only counts, so the progress bar knows its end.
            state->started = true;
            result.total = scan.inRange(state->filter);
            return true;
        }
        delayq::ScanStep step = scan.step(state->filter, state->cursor, count);
        state->cursor = step.cursor;
        result.read += step.read;
        for (const auto& t : step.matches) {
            if (result.found >= maxMatches) {
                result.capped = true;
                break;
            }
            const QString id = TaskRows::text(t.id);
            if (state->seen.contains(id))
                continue;
            state->seen.insert(id);
            if (keepIds)
                state->ids.append(id);
            else
                result.matches.append(TaskRows::fromTask(t, TaskRows::kPagePayloadBytes));
            ++result.found;
        }
        result.complete = state->cursor.done;
        return !result.complete && !result.capped;
    };
    job.progressed = [state, report] {
        if (state->result.read > 0 || state->result.total == 0)
            report(state->result);
    };
    job.finished = [state, report, keepIds](SteppedJob::End end, const RequestError& error) {
        MatchScanResult& result = state->result;
        if (end != SteppedJob::End::Done)
            result.matches.clear(); // already reported with the step that found them
        result.error = error;
        result.cancelled = end != SteppedJob::End::Done;
        result.complete = result.complete && error.isEmpty();
        result.finished = true;
        if (keepIds)
            result.ids = state->ids;
        report(result);
    };
    return job;
}

SteppedJob SteppedRequests::idBulk(IoWorker* io, quint64 tag, const QString& queue,
                                   TaskAction action, const QStringList& ids, qint64 dueAtMs,
                                   qint64 delayMs, int batch, std::function<bool()> cancelled,
                                   std::function<void(const MatchApplyResult&)> report)
{
    auto result = std::make_shared<MatchApplyResult>();
    result->tag = tag;
    result->queue = queue;
    result->action = action;
    result->total = ids.size();
    if (action == TaskAction::Cancel || action == TaskAction::DeleteDead)
        result->binAction = QString::fromStdString(delayq::Queue::newBinAction());
    SteppedJob job;
    job.operation = actionVerb(action);
    job.cancelled = std::move(cancelled);
    job.step = [io, result, ids, dueAtMs, delayMs, batch](delayq::Connection& c) {
        const qint64 from = result->processed();
        if (from >= result->total)
            return false;
        const auto chunk = TaskRows::ids(ids.mid(from, batch));
        auto q = io->nativeQueue(c, result->queue);
        q.setBinAction(result->binAction.toStdString());
        std::vector<delayq::IdResult> outcomes;
        switch (result->action) {
        case TaskAction::Cancel:
            outcomes = q.cancel(chunk);
            break;
        case TaskAction::Reschedule:
            outcomes = q.reschedule(
                chunk, dueAtMs >= 0 ? std::optional<long long>(dueAtMs) : std::nullopt, delayMs);
            break;
        case TaskAction::RunNow:
            outcomes = q.reschedule(chunk, std::nullopt, 0);
            break;
        case TaskAction::Requeue:
            outcomes = q.requeue(chunk);
            break;
        case TaskAction::DeleteDead:
            outcomes = q.deleteDead(chunk);
            break;
        case TaskAction::Push:
        case TaskAction::Purge:
            throw delayq::Error(delayq::ErrorCode::InvalidArgument, "push and purge take no ids");
        }
        for (const auto& o : outcomes) {
            switch (o.status) {
            case delayq::IdResult::Status::Done:
                ++result->done;
                break;
            case delayq::IdResult::Status::NotFound:
                ++result->gone;
                break;
            case delayq::IdResult::Status::Active:
                ++result->running;
                break;
            default:
                ++result->other;
            }
        }
        // A reply shorter than the chunk would otherwise repeat ids: count them as gone.
        result->gone += qint64(chunk.size()) - qint64(outcomes.size());
        return result->processed() < result->total;
    };
    job.progressed = [result, report] { report(*result); };
    job.finished = [result, report](SteppedJob::End end, const RequestError& error) {
        result->cancelled = end != SteppedJob::End::Done;
        result->error = error;
        result->finished = true;
        report(*result);
    };
    return job;
}

} // namespace delayq::ui
