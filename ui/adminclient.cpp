#include "adminclient.h"

#include "exportsteps.h"
#include "ioworker.h"
#include "membertext.h"
#include "overviewrequests.h"
#include "steppedrequests.h"
#include "taskrows.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/plainqueue.h>
#include <delayq/queue.h>

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
    qRegisterMetaType<ServerResult>();
    qRegisterMetaType<PlainDiscoveryResult>();
    qRegisterMetaType<PlainScanResult>();
    qRegisterMetaType<PageResult>();
    qRegisterMetaType<CountsResult>();
    qRegisterMetaType<HistogramResult>();
    qRegisterMetaType<HistoryResult>();
    qRegisterMetaType<AuditResult>();
    qRegisterMetaType<LocateResult>();
    qRegisterMetaType<ActionResult>();
    qRegisterMetaType<TaskResult>();
    qRegisterMetaType<BulkActionResult>();
    qRegisterMetaType<OverviewResult>();
    qRegisterMetaType<QueueConfigResult>();
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

RequestError AdminClient::guarded(const QString& operation,
                                  const std::function<void(delayq::Connection&)>& job)
{
    return m_io->guarded(operation, job);
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
        result.error = guarded(tr("list queues"), [&](delayq::Connection& c) {
            const std::string prefix = m_io->prefix();
            auto names = delayq::Queue::listQueues(c, prefix, 10000);
            for (const auto& s : delayq::Queue::summaries(c, names, prefix)) {
                QueueRow row{qs(s.name),      s.counts.pending, s.counts.dueNow,
                             s.counts.active, s.counts.dead,    {}};
                if (c.isCluster())
                    row.node = qs(c.nodeForKey(delayq::Keys(prefix, s.name).pending()));
                result.queues.append(row);
            }
        });
        deliver(&AdminClient::queuesListed, result);
    });
}

void AdminClient::loadOverview(quint64 tag, const QList<PlainKeyRow>& plainKeys, bool withHistory)
{
    post([this, tag, plainKeys, withHistory] {
        OverviewResult result;
        result.tag = tag;
        result.error = guarded(tr("read the overview"), [&](delayq::Connection& c) {
            OverviewRequests::read(c, m_io->prefix(), plainKeys, withHistory, result);
        });
        deliver(&AdminClient::overviewLoaded, result);
    });
}

void AdminClient::loadConfig(quint64 tag, const QString& queue)
{
    post([this, tag, queue] {
        QueueConfigResult result;
        result.tag = tag;
        result.queue = queue;
        result.error = guarded(tr("read the queue's settings"), [&](delayq::Connection& c) {
            OverviewRequests::readConfig(c, m_io->prefix(), result);
        });
        deliver(&AdminClient::configLoaded, result);
    });
}

void AdminClient::writeConfig(quint64 tag, const QString& queue,
                              const QList<QPair<QString, QString>>& values)
{
    post([this, tag, queue, values] {
        QueueConfigResult result;
        result.tag = tag;
        result.queue = queue;
        result.error = guarded(tr("change the queue's settings"), [&](delayq::Connection& c) {
            OverviewRequests::writeConfig(c, m_io->prefix(), values, result);
        });
        result.written = true;
        deliver(&AdminClient::configLoaded, result);
    });
}

void AdminClient::loadServer(quint64 tag)
{
    post([this, tag] {
        ServerResult result;
        result.tag = tag;
        result.error = guarded(tr("describe the server"), [&](delayq::Connection& c) {
            result.displayUrl = qs(c.options().displayUrl());
            result.cluster = c.isCluster();
            if (result.cluster)
                result.nodes = TaskRows::clusterNodes(c.clusterNodes());
        });
        deliver(&AdminClient::serverLoaded, result);
    });
}

void AdminClient::discoverPlain(quint64 tag, int maxSteps, int count)
{
    run(SteppedRequests::discovery(m_io, tag, maxSteps, count,
                                   [this](const PlainDiscoveryResult& result) {
                                       deliver(&AdminClient::plainKeysDiscovered, result);
                                   }));
}

void AdminClient::scanPlain(quint64 tag, const QString& key, const QString& text, int maxMatches,
                            int count)
{
    m_activeScan.store(tag);
    run(SteppedRequests::memberSearch(
        m_io, tag, key, text, maxMatches, count, [this, tag] { return m_activeScan.load() != tag; },
        [this](const PlainScanResult& step) { deliver(&AdminClient::plainScanned, step); }));
}

void AdminClient::loadPages(quint64 tag, const QString& queue, TaskSetKind set,
                            const QList<qint64>& offsets, int limit)
{
    post([this, tag, queue, set, offsets, limit] {
        PageResult result;
        result.tag = tag;
        result.queue = queue;
        result.set = set;
        result.error = guarded(tr("load tasks"), [&](delayq::Connection& c) {
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
        result.error = guarded(tr("count tasks"), [&](delayq::Connection& c) {
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
        result.error = guarded(tr("load the timeline"), [&](delayq::Connection& c) {
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
        result.error = guarded(tr("load the history"), [&](delayq::Connection& c) {
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

void AdminClient::loadAudit(quint64 tag, const QString& queue, int limit)
{
    post([this, tag, queue, limit] {
        AuditResult result;
        result.tag = tag;
        result.queue = queue;
        result.error = guarded(tr("load the audit trail"), [&](delayq::Connection& c) {
            auto text = [](const std::string& s) { return TaskRows::text(s); };
            for (const auto& e : delayq::Queue(c, ss(queue), m_io->prefix()).audit(0, limit)) {
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
        });
        deliver(&AdminClient::auditLoaded, result);
    });
}

void AdminClient::loadTask(quint64 tag, const QString& queue, const QString& id)
{
    post([this, tag, queue, id] {
        TaskResult result;
        result.tag = tag;
        result.queue = queue;
        result.error = guarded(tr("load the task"), [&](delayq::Connection& c) {
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
        result.error = guarded(tr("find a time"), [&](delayq::Connection& c) {
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
        result.error = guarded(tr("find a task"), [&](delayq::Connection& c) {
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
        result.action = TaskAction::Push;
        result.queue = spec.queue;
        result.error = guarded(tr("push"), [&](delayq::Connection& c) {
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
                result.outcomes.append({MemberText::fromBytes(r.id), outcomeOf(r.status), r.due});
        });
        deliver(&AdminClient::actionFinished, result);
    });
}

void AdminClient::cancel(quint64 tag, const QString& queue, const QStringList& ids)
{
    idAction(tag, TaskAction::Cancel, queue, [this, queue, ids](delayq::Connection& c) {
        return m_io->queueFor(c, queue)->cancel(TaskRows::ids(ids));
    });
}

void AdminClient::reschedule(quint64 tag, const QString& queue, const QStringList& ids,
                             qint64 dueAtMs, qint64 delayMs)
{
    idAction(tag, TaskAction::Reschedule, queue,
             [this, queue, ids, dueAtMs, delayMs](delayq::Connection& c) {
                 std::optional<long long> at;
                 if (dueAtMs >= 0)
                     at = dueAtMs;
                 return m_io->queueFor(c, queue)->reschedule(TaskRows::ids(ids), at, delayMs);
             });
}

void AdminClient::requeue(quint64 tag, const QString& queue, const QStringList& ids)
{
    idAction(tag, TaskAction::Requeue, queue, [this, queue, ids](delayq::Connection& c) {
        return delayq::Queue(c, ss(queue), m_io->prefix()).requeue(TaskRows::ids(ids));
    });
}

void AdminClient::deleteDead(quint64 tag, const QString& queue, const QStringList& ids)
{
    idAction(tag, TaskAction::DeleteDead, queue, [this, queue, ids](delayq::Connection& c) {
        return delayq::Queue(c, ss(queue), m_io->prefix()).deleteDead(TaskRows::ids(ids));
    });
}

void AdminClient::idAction(quint64 tag, TaskAction action, const QString& queue,
                           std::function<std::vector<delayq::IdResult>(delayq::Connection&)> run)
{
    post([this, tag, action, queue, run] {
        ActionResult result{tag, action, queue, {}, {}};
        result.error = guarded(actionVerb(action), [&](delayq::Connection& c) {
            result.outcomes = TaskRows::outcomes(run(c));
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

void AdminClient::startBulk(quint64 tag, BulkAction action, const QString& queue, qint64 limit,
                            int batch)
{
    run(SteppedRequests::bulkChange(
        m_io, tag, action, queue, limit, batch,
        [this, tag] { return m_cancelledBulk.load() == tag; },
        [this](const BulkActionResult& r) {
            deliver(&AdminClient::bulkProgressed, r.tag, r.done, r.total);
        },
        [this](const BulkActionResult& r) { deliver(&AdminClient::bulkFinished, r); }));
}

void AdminClient::exportTasks(quint64 tag, const ExportRequest& request)
{
    run(ExportSteps::job(
        m_io, tag, request, [this, tag] { return m_cancelledExport.load() == tag; },
        [this](const ExportResult& r) {
            deliver(&AdminClient::exportProgressed, r.tag, r.written, r.total);
        },
        [this](const ExportResult& r) { deliver(&AdminClient::exportFinished, r); }));
}

void AdminClient::run(SteppedJob job)
{
    post([this, job = std::move(job)] { m_io->run(job); });
}

} // namespace delayq::ui
