#include "adminclient.h"

#include "connection.h"
#include "error.h"
#include "ioworker.h"
#include "membertext.h"
#include "plainqueue.h"
#include "queue.h"
#include "taskrows.h"

#include <QElapsedTimer>

#include <algorithm>
#include <optional>

namespace delayq::ui {

namespace {

std::atomic<quint64> g_nextTag{1};

QString qs(const std::string& s)
{
    return TaskRows::text(s);
}

std::string ss(const QString& s)
{
    return TaskRows::bytes(s);
}

} // namespace

AdminClient::AdminClient(QObject* parent) : QObject(parent), m_io(new IoWorker)
{
    qRegisterMetaType<ServerInfo>();
    qRegisterMetaType<QueueListResult>();
    qRegisterMetaType<PlainDiscoveryResult>();
    qRegisterMetaType<PlainScanResult>();
    qRegisterMetaType<PageResult>();
    qRegisterMetaType<CountsResult>();
    qRegisterMetaType<HistogramResult>();
    qRegisterMetaType<HistoryResult>();
    qRegisterMetaType<LocateResult>();
    qRegisterMetaType<ActionResult>();
    qRegisterMetaType<TaskResult>();
    qRegisterMetaType<BulkActionResult>();
    m_thread.setObjectName(QStringLiteral("delayq-io"));
    m_io->moveToThread(&m_thread);
    // The worker's connection and heartbeat go with it, on its own thread, at the end.
    connect(&m_thread, &QThread::finished, m_io, &QObject::deleteLater);
    connect(m_io, &IoWorker::connected, this, &AdminClient::connected);
    connect(m_io, &IoWorker::disconnected, this, &AdminClient::disconnected);
    connect(m_io, &IoWorker::statusUpdated, this, &AdminClient::statusUpdated);
    connect(m_io, &IoWorker::readOnlyDetected, this, &AdminClient::readOnlyDetected);
    connect(m_io, &IoWorker::plainKeySet, this, &AdminClient::plainKeySet);
    m_thread.start();
}

AdminClient::~AdminClient()
{
    // No blocking call into the I/O thread: the steps still queued are dropped, the thread
    // ends after the request it is on, and its finished signal deletes the worker there.
    m_io->stop();
    m_thread.quit();
    m_thread.wait();
}

quint64 AdminClient::newTag()
{
    return g_nextTag.fetch_add(1);
}

bool AdminClient::isConnected() const
{
    return m_io->isUp();
}

bool AdminClient::isReadOnly() const
{
    return m_io->isReadOnly();
}

QString AdminClient::prefix() const
{
    return m_guiSettings.prefix;
}

void AdminClient::post(std::function<void()> job)
{
    m_io->post(std::move(job));
}

QString AdminClient::guarded(const std::function<void(delayq::Connection&)>& job)
{
    return m_io->guarded(job);
}

void AdminClient::connectTo(const ConnectionSettings& settings)
{
    m_guiSettings = settings;
    if (m_guiSettings.prefix.isEmpty())
        m_guiSettings.prefix = QStringLiteral("dq");
    post([this, settings] { m_io->connectTo(settings); });
}

void AdminClient::setPlainKey(const QString& key, const QString& unit)
{
    post([this, key, unit] { m_io->setPlainKey(key, unit); });
}

void AdminClient::listQueues(quint64 tag)
{
    post([this, tag] {
        QueueListResult result;
        result.tag = tag;
        result.error = guarded([&](delayq::Connection& c) {
            const std::string prefix = m_io->prefix();
            auto names = delayq::Queue::listQueues(c, prefix, 10000);
            for (const auto& s : delayq::Queue::summaries(c, names, prefix))
                result.queues.append({qs(s.name), s.counts.pending, s.counts.dueNow,
                                      s.counts.active, s.counts.dead});
        });
        deliver(&AdminClient::queuesListed, result);
    });
}

void AdminClient::discoverPlain(quint64 tag, int maxSteps, int count)
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
    job.step = [this, state, count](delayq::Connection& c) {
        for (const auto& k : delayq::PlainQueue::discover(c, state->cursor, m_io->prefix(), count))
            state->result.keys.append({MemberText::fromBytes(k.key),
                                       QString::fromLatin1(delayq::PlainQueue::unitName(k.unit)),
                                       k.size});
        return state->cursor != "0" && --state->stepsLeft > 0;
    };
    job.finished = [this, state](SteppedJob::End, const QString& error) {
        state->result.error = error;
        state->result.complete = error.isEmpty() && state->cursor == "0";
        deliver(&AdminClient::plainKeysDiscovered, state->result);
    };
    post([this, job] { m_io->run(job); });
}

void AdminClient::scanPlain(quint64 tag, const QString& key, const QString& text, int maxMatches,
                            int count)
{
    m_activeScan.store(tag);
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
    job.cancelled = [this, state] { return m_activeScan.load() != state->result.tag; };
    job.step = [this, state, maxMatches, count](delayq::Connection& c) {
        PlainScanResult& result = state->result;
        result.matches.clear();
        auto p = m_io->plainFor(c, result.key);
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
    job.progressed = [this, state] {
        if (state->result.scanned > 0)
            deliver(&AdminClient::plainScanned, state->result);
    };
    job.finished = [this, state](SteppedJob::End end, const QString& error) {
        PlainScanResult& result = state->result;
        if (end != SteppedJob::End::Done)
            result.matches.clear(); // already reported with the step that found them
        result.error = error;
        result.cancelled = end == SteppedJob::End::Cancelled;
        result.complete = result.complete && error.isEmpty();
        result.finished = true;
        deliver(&AdminClient::plainScanned, result);
    };
    post([this, job] { m_io->run(job); });
}

void AdminClient::loadPages(quint64 tag, const QString& queue, TaskSetKind set,
                            const QList<qint64>& offsets, int limit)
{
    post([this, tag, queue, set, offsets, limit] {
        PageResult result;
        result.tag = tag;
        result.queue = queue;
        result.set = set;
        result.error = guarded([&](delayq::Connection& c) {
            const auto q = m_io->queueFor(c, queue);
            result.total = q->size(TaskRows::toCore(set));
            for (qint64 offset : offsets) {
                QList<TaskRow> rows;
                if (offset < result.total)
                    for (const auto& t : q->page(TaskRows::toCore(set), offset, limit))
                        rows.append(TaskRows::fromTask(t, TaskRows::kPagePayloadBytes));
                result.offsets.append(offset);
                result.pages.append(rows);
            }
        });
        deliver(&AdminClient::pagesLoaded, result);
    });
}

void AdminClient::loadCounts(quint64 tag, const QString& queue)
{
    post([this, tag, queue] {
        CountsResult result;
        result.tag = tag;
        result.queue = queue;
        result.error = guarded([&](delayq::Connection& c) {
            const auto q = m_io->queueFor(c, queue);
            const delayq::QueueCounts counts = q->counts();
            result.pending = counts.pending;
            result.dueNow = counts.dueNow;
            result.active = counts.active;
            result.dead = counts.dead;
            result.earliest = q->earliest(delayq::TaskSet::Pending).value_or(-1);
            result.serverNow = c.serverNowMs();
        });
        deliver(&AdminClient::countsLoaded, result);
    });
}

void AdminClient::loadHistogram(quint64 tag, const QString& queue, qint64 fromMs, qint64 toMs,
                                int buckets)
{
    post([this, tag, queue, fromMs, toMs, buckets] {
        HistogramResult result;
        result.tag = tag;
        result.queue = queue;
        result.fromMs = fromMs;
        result.toMs = toMs;
        QElapsedTimer timer;
        timer.start();
        result.error = guarded([&](delayq::Connection& c) {
            // Now first: a task that falls due during the reads is not counted as overdue.
            result.serverNow = c.serverNowMs();
            const qint64 now = result.serverNow;
            const auto q = m_io->queueFor(c, queue);
            const auto counts = q->histogram(fromMs, toMs, buckets);
            for (long long n : counts)
                result.counts.append(n);
            result.overdue = q->dueBy(now);
            // The same bucket bounds as the histogram's, so the split matches its bars.
            const double width = static_cast<double>(toMs - fromMs) / buckets;
            for (int i = 0; i < buckets && now >= fromMs && now < toMs; ++i) {
                const qint64 lo = fromMs + static_cast<qint64>(width * i);
                const qint64 hi =
                    i + 1 == buckets ? toMs : fromMs + static_cast<qint64>(width * (i + 1));
                if (now >= lo && now < hi) {
                    result.nowBucket = i;
                    // Bounded by the bucket's count: the reads are not one snapshot.
                    result.nowBucketOverdue =
                        qBound<qint64>(0, result.overdue - q->dueBy(lo - 1), result.counts.at(i));
                    break;
                }
            }
        });
        result.elapsedUs = timer.nsecsElapsed() / 1000;
        deliver(&AdminClient::histogramLoaded, result);
    });
}

void AdminClient::loadHistory(quint64 tag, const QString& queue, qint64 fromMinute, qint64 toMinute)
{
    post([this, tag, queue, fromMinute, toMinute] {
        HistoryResult result;
        result.tag = tag;
        result.queue = queue;
        result.fromMinute = fromMinute;
        result.error = guarded([&](delayq::Connection& c) {
            delayq::Queue q(c, ss(queue), m_io->prefix());
            for (const auto& m : q.history(fromMinute, toMinute)) {
                auto value = [&](const char* name) {
                    auto it = m.counters.find(name);
                    return it == m.counters.end() ? 0LL : it->second;
                };
                result.acked.append(value("acked"));
                result.failed.append(value("retried") + value("died"));
            }
        });
        deliver(&AdminClient::historyLoaded, result);
    });
}

void AdminClient::loadTask(quint64 tag, const QString& queue, const QString& id)
{
    post([this, tag, queue, id] {
        TaskResult result;
        result.tag = tag;
        result.queue = queue;
        result.error = guarded([&](delayq::Connection& c) {
            auto found = m_io->queueFor(c, queue)->find(MemberText::toBytes(id));
            if (!found)
                return;
            result.found = true;
            result.set = TaskRows::fromCore(found->first);
            result.task = TaskRows::fromTask(found->second); // whole, not cut
        });
        deliver(&AdminClient::taskLoaded, result);
    });
}

void AdminClient::locateTime(quint64 tag, const QString& queue, TaskSetKind set, qint64 ms)
{
    post([this, tag, queue, set, ms] {
        LocateResult result;
        result.tag = tag;
        result.queue = queue;
        result.set = set;
        result.error = guarded([&](delayq::Connection& c) {
            const auto q = m_io->queueFor(c, queue);
            const long long size = q->size(TaskRows::toCore(set));
            const long long rank = q->rankOfScore(TaskRows::toCore(set), ms);
            // Past the last task: the last row is the nearest there is.
            result.row = size == 0 ? -1 : std::min(rank, size - 1);
        });
        deliver(&AdminClient::located, result);
    });
}

void AdminClient::locateId(quint64 tag, const QString& queue, const QString& id)
{
    post([this, tag, queue, id] {
        LocateResult result;
        result.tag = tag;
        result.queue = queue;
        result.id = id;
        result.error = guarded([&](delayq::Connection& c) {
            const auto q = m_io->queueFor(c, queue);
            const std::string bytes = MemberText::toBytes(id);
            auto found = q->find(bytes);
            if (!found)
                return;
            result.set = TaskRows::fromCore(found->first);
            result.row = q->rankOf(found->first, bytes).value_or(-1);
        });
        deliver(&AdminClient::located, result);
    });
}

void AdminClient::push(quint64 tag, const PushSpec& spec)
{
    post([this, tag, spec] {
        ActionResult result;
        result.tag = tag;
        result.action = QStringLiteral("push");
        result.queue = spec.queue;
        result.error = guarded([&](delayq::Connection& c) {
            result.serverNow = c.serverNowMs();
            const auto q = m_io->queueFor(c, spec.queue);
            std::vector<delayq::PushRequest> requests;
            // A plain member is the message itself: a second copy would be the same member.
            const int count = q->isPlain() ? 1 : std::max(1, spec.count);
            for (int i = 0; i < count; ++i) {
                delayq::PushRequest r;
                r.payload = spec.payload.toStdString();
                if (spec.dueAtMs >= 0)
                    r.dueAtMs = spec.dueAtMs;
                r.delayMs = spec.delayMs;
                if (!spec.id.isEmpty())
                    r.id = ss(count == 1 ? spec.id
                                         : spec.id + QLatin1Char('-') + QString::number(i + 1));
                r.maxAttempts = spec.maxAttempts;
                r.backoff = ss(spec.backoff);
                requests.push_back(std::move(r));
            }
            for (const auto& r : q->push(requests))
                result.outcomes.append({MemberText::fromBytes(r.id),
                                        QString::fromLatin1(delayq::pushStatusName(r.status)),
                                        r.due});
        });
        deliver(&AdminClient::actionFinished, result);
    });
}

void AdminClient::cancel(quint64 tag, const QString& queue, const QStringList& ids)
{
    post([this, tag, queue, ids] {
        ActionResult result{tag, QStringLiteral("cancel"), queue, {}, {}};
        result.error = guarded([&](delayq::Connection& c) {
            result.outcomes =
                TaskRows::outcomes(m_io->queueFor(c, queue)->cancel(TaskRows::ids(ids)));
        });
        deliver(&AdminClient::actionFinished, result);
    });
}

void AdminClient::reschedule(quint64 tag, const QString& queue, const QStringList& ids,
                             qint64 dueAtMs, qint64 delayMs)
{
    post([this, tag, queue, ids, dueAtMs, delayMs] {
        ActionResult result{tag, QStringLiteral("reschedule"), queue, {}, {}};
        result.error = guarded([&](delayq::Connection& c) {
            std::optional<long long> at;
            if (dueAtMs >= 0)
                at = dueAtMs;
            result.outcomes = TaskRows::outcomes(
                m_io->queueFor(c, queue)->reschedule(TaskRows::ids(ids), at, delayMs));
        });
        deliver(&AdminClient::actionFinished, result);
    });
}

void AdminClient::requeue(quint64 tag, const QString& queue, const QStringList& ids)
{
    post([this, tag, queue, ids] {
        ActionResult result{tag, QStringLiteral("requeue"), queue, {}, {}};
        result.error = guarded([&](delayq::Connection& c) {
            delayq::Queue q(c, ss(queue), m_io->prefix());
            result.outcomes = TaskRows::outcomes(q.requeue(TaskRows::ids(ids)));
        });
        deliver(&AdminClient::actionFinished, result);
    });
}

void AdminClient::deleteDead(quint64 tag, const QString& queue, const QStringList& ids)
{
    post([this, tag, queue, ids] {
        ActionResult result{tag, QStringLiteral("delete-dead"), queue, {}, {}};
        result.error = guarded([&](delayq::Connection& c) {
            delayq::Queue q(c, ss(queue), m_io->prefix());
            result.outcomes = TaskRows::outcomes(q.deleteDead(TaskRows::ids(ids)));
        });
        deliver(&AdminClient::actionFinished, result);
    });
}

void AdminClient::requeueAllDead(quint64 tag, const QString& queue, qint64 limit, int batch)
{
    startBulk(tag, BulkAction::RequeueDead, queue, limit, batch);
}

void AdminClient::deleteAllDead(quint64 tag, const QString& queue, qint64 limit, int batch)
{
    startBulk(tag, BulkAction::DeleteDead, queue, limit, batch);
}

void AdminClient::purge(quint64 tag, const QString& queue, qint64 limit, int batch)
{
    startBulk(tag, BulkAction::Purge, queue, limit, batch);
}

// One script call of at most `batch` tasks per step, never past the confirmed count.
void AdminClient::startBulk(quint64 tag, BulkAction action, const QString& queue, qint64 limit,
                            int batch)
{
    auto result = std::make_shared<BulkActionResult>();
    result->tag = tag;
    result->action = action;
    result->queue = queue;
    result->total = limit;
    SteppedJob job;
    job.cancelled = [this, result] { return m_cancelledBulk.load() == result->tag; };
    job.step = [this, result, batch](delayq::Connection& c) {
        delayq::Queue q(c, ss(result->queue), m_io->prefix());
        const int step = int(std::min<qint64>(batch, result->total - result->done));
        if (step < 1)
            return false;
        // Each script replies with what it did and what is left, so a step is one call.
        const delayq::BulkResult done = result->action == BulkAction::Purge ? q.purge(step, 1)
                                        : result->action == BulkAction::RequeueDead
                                            ? q.requeueAll(step, 1)
                                            : q.deleteAllDead(step, 1);
        result->done += done.done;
        result->left = done.remaining;
        return done.done > 0 && result->left > 0 && result->done < result->total;
    };
    job.progressed = [this, result] {
        deliver(&AdminClient::bulkProgressed, result->tag, result->done, result->total);
    };
    job.finished = [this, result](SteppedJob::End end, const QString& error) {
        result->cancelled = end == SteppedJob::End::Cancelled;
        result->error = error;
        deliver(&AdminClient::bulkFinished, *result);
    };
    post([this, job] { m_io->run(job); });
}

} // namespace delayq::ui
