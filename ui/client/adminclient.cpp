#include "client/adminclient.h"

#include "client/exportsteps.h"
#include "client/ioworker.h"
#include "client/membertext.h"
#include "client/overviewrequests.h"
#include "client/steppedrequests.h"
#include "client/taskrequests.h"
#include "client/taskrows.h"
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

// A result answering request `tag` (about `queue`, for the results that name one).
template <typename Result> Result answerTo(quint64 tag, const QString& queue = {})
{
    Result result;
    result.tag = tag;
    if constexpr (requires { result.queue; })
        result.queue = queue;
    return result;
}

// The results the signals carry across threads.
template <typename... Types> void registerTypes()
{
    (qRegisterMetaType<Types>(), ...);
}

} // namespace

AdminClient::AdminClient(QObject* parent) : QObject(parent), m_io(new IoWorker)
{
    registerTypes<ServerInfo, QueueListResult, ServerResult, PlainDiscoveryResult, PlainScanResult,
                  PageResult, CountsResult, HistogramResult, HistoryResult, AuditResult,
                  LocateResult, ActionResult, TaskResult, BulkActionResult, OverviewResult,
                  QueueConfigResult>();
    m_thread.setObjectName(QStringLiteral("delayq-io"));
    m_io->moveToThread(&m_thread);
    // The worker's connection and heartbeat go with it, on its own thread, at the end.
    connect(&m_thread, &QThread::finished, m_io, &QObject::deleteLater);
    connect(m_io, &IoWorker::connecting, this, &AdminClient::connecting);
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
    request(&AdminClient::queuesListed, answerTo<QueueListResult>(tag), tr("list queues"),
            [this](delayq::Connection& c, QueueListResult& r) {
                const std::string prefix = m_io->prefix();
                auto names = delayq::Queue::listQueues(c, prefix, 10000);
                for (const auto& s : delayq::Queue::summaries(c, names, prefix)) {
                    QueueRow row{qs(s.name),      s.counts.pending, s.counts.dueNow,
                                 s.counts.active, s.counts.dead,    {}};
                    if (c.isCluster())
                        row.node = qs(c.nodeForKey(delayq::Keys(prefix, s.name).pending()));
                    r.queues.append(row);
                }
            });
}

void AdminClient::loadOverview(quint64 tag, const QList<PlainKeyRow>& plainKeys, bool withHistory)
{
    request(&AdminClient::overviewLoaded, answerTo<OverviewResult>(tag), tr("read the overview"),
            [this, plainKeys, withHistory](delayq::Connection& c, OverviewResult& r) {
                OverviewRequests::read(c, m_io->prefix(), plainKeys, withHistory, r);
            });
}

void AdminClient::loadConfig(quint64 tag, const QString& queue)
{
    request(&AdminClient::configLoaded, answerTo<QueueConfigResult>(tag, queue),
            tr("read the queue's settings"),
            [this, queue](delayq::Connection& c, QueueConfigResult& r) {
                auto q = m_io->nativeQueue(c, queue);
                OverviewRequests::readConfig(q, r);
            });
}

void AdminClient::writeConfig(quint64 tag, const QString& queue,
                              const QList<QPair<QString, QString>>& values)
{
    auto result = answerTo<QueueConfigResult>(tag, queue);
    result.written = true;
    request(&AdminClient::configLoaded, result, tr("change the queue's settings"),
            [this, queue, values](delayq::Connection& c, QueueConfigResult& r) {
                auto q = m_io->nativeQueue(c, queue);
                OverviewRequests::writeConfig(q, values, r);
            });
}

void AdminClient::loadServer(quint64 tag)
{
    request(&AdminClient::serverLoaded, answerTo<ServerResult>(tag), tr("describe the server"),
            [](delayq::Connection& c, ServerResult& r) {
                r.displayUrl = qs(c.options().displayUrl());
                r.cluster = c.isCluster();
                if (r.cluster)
                    r.nodes = TaskRows::clusterNodes(c.clusterNodes());
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
    auto result = answerTo<PageResult>(tag, queue);
    result.set = set;
    request(&AdminClient::pagesLoaded, result, tr("load tasks"),
            [this, queue, offsets, limit](delayq::Connection& c, PageResult& r) {
                TaskRequests::pages(*m_io->queueFor(c, queue), offsets, limit, r);
            });
}

void AdminClient::loadCounts(quint64 tag, const QString& queue)
{
    request(&AdminClient::countsLoaded, answerTo<CountsResult>(tag, queue), tr("count tasks"),
            [this, queue](delayq::Connection& c, CountsResult& r) {
                TaskRequests::counts(c, *m_io->queueFor(c, queue), r);
            });
}

void AdminClient::loadHistogram(quint64 tag, const QString& queue, qint64 fromMs, qint64 toMs,
                                int buckets)
{
    auto result = answerTo<HistogramResult>(tag, queue);
    result.fromMs = fromMs;
    result.toMs = toMs;
    request(&AdminClient::histogramLoaded, result, tr("load the timeline"),
            [this, queue, buckets](delayq::Connection& c, HistogramResult& r) {
                QElapsedTimer timer;
                timer.start();
                // Now first: a task that falls due during the reads is not counted as overdue.
                r.serverNow = c.serverNowMs();
                TaskRequests::histogram(*m_io->queueFor(c, queue), buckets, r);
                r.elapsedUs = timer.nsecsElapsed() / 1000;
            });
}

void AdminClient::loadHistory(quint64 tag, const QString& queue, qint64 fromMinute, qint64 toMinute)
{
    auto result = answerTo<HistoryResult>(tag, queue);
    result.fromMinute = fromMinute;
    request(&AdminClient::historyLoaded, result, tr("load the history"),
            [this, queue, toMinute](delayq::Connection& c, HistoryResult& r) {
                auto q = m_io->nativeQueue(c, queue);
                TaskRequests::history(q, toMinute, r);
            });
}

void AdminClient::loadAudit(quint64 tag, const QString& queue, int limit)
{
    request(&AdminClient::auditLoaded, answerTo<AuditResult>(tag, queue),
            tr("load the audit trail"),
            [this, queue, limit](delayq::Connection& c, AuditResult& r) {
                auto q = m_io->nativeQueue(c, queue);
                TaskRequests::audit(q, limit, r);
            });
}

void AdminClient::loadTask(quint64 tag, const QString& queue, const QString& id)
{
    request(&AdminClient::taskLoaded, answerTo<TaskResult>(tag, queue), tr("load the task"),
            [this, queue, id](delayq::Connection& c, TaskResult& r) {
                auto found = m_io->queueFor(c, queue)->find(MemberText::toBytes(id));
                if (!found)
                    return;
                r.found = true;
                r.set = TaskRows::fromCore(found->first);
                r.task = TaskRows::fromTask(found->second); // whole, not cut
            });
}

void AdminClient::locateTime(quint64 tag, const QString& queue, TaskSetKind set, qint64 ms)
{
    auto result = answerTo<LocateResult>(tag, queue);
    result.set = set;
    request(&AdminClient::located, result, tr("find a time"),
            [this, queue, set, ms](delayq::Connection& c, LocateResult& r) {
                const auto q = m_io->queueFor(c, queue);
                const long long size = q->size(TaskRows::toCore(set));
                const long long rank = q->rankOfScore(TaskRows::toCore(set), ms);
                // Past the last task: the last row is the nearest there is.
                r.row = size == 0 ? -1 : std::min(rank, size - 1);
            });
}

void AdminClient::locateId(quint64 tag, const QString& queue, const QString& id)
{
    auto result = answerTo<LocateResult>(tag, queue);
    result.id = id;
    request(&AdminClient::located, result, tr("find a task"),
            [this, queue, id](delayq::Connection& c, LocateResult& r) {
                const auto q = m_io->queueFor(c, queue);
                const std::string bytes = MemberText::toBytes(id);
                auto found = q->find(bytes);
                if (!found)
                    return;
                r.set = TaskRows::fromCore(found->first);
                r.row = q->rankOf(found->first, bytes).value_or(-1);
            });
}

void AdminClient::push(quint64 tag, const PushSpec& spec)
{
    auto result = answerTo<ActionResult>(tag);
    result.action = TaskAction::Push;
    result.queue = spec.queue;
    request(&AdminClient::actionFinished, result, tr("push"),
            [this, spec](delayq::Connection& c, ActionResult& r) {
                r.serverNow = c.serverNowMs();
                const auto q = m_io->queueFor(c, spec.queue);
                for (const auto& pushed : q->push(TaskRequests::pushRequests(spec, q->isPlain())))
                    r.outcomes.append(
                        {MemberText::fromBytes(pushed.id), outcomeOf(pushed.status), pushed.due});
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
        return m_io->nativeQueue(c, queue).requeue(TaskRows::ids(ids));
    });
}

void AdminClient::deleteDead(quint64 tag, const QString& queue, const QStringList& ids)
{
    idAction(tag, TaskAction::DeleteDead, queue, [this, queue, ids](delayq::Connection& c) {
        return m_io->nativeQueue(c, queue).deleteDead(TaskRows::ids(ids));
    });
}

void AdminClient::idAction(quint64 tag, TaskAction action, const QString& queue,
                           std::function<std::vector<delayq::IdResult>(delayq::Connection&)> run)
{
    request(
        &AdminClient::actionFinished, ActionResult{tag, action, queue, {}, {}}, actionVerb(action),
        [run](delayq::Connection& c, ActionResult& r) { r.outcomes = TaskRows::outcomes(run(c)); });
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
