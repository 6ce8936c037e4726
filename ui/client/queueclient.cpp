#include "client/queueclient.h"

#include "client/ioworker.h"
#include "client/overviewrequests.h"
#include "client/steppedrequests.h"
#include "client/taskrequests.h"
#include "client/taskrows.h"
#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/queue.h>

namespace delayq::ui {

QueueClient::QueueClient(IoWorker* io, QObject* parent) : AreaClient(io, parent)
{
    qRegisterMetaType<QueueListResult>();
    qRegisterMetaType<QueueConfigResult>();
    qRegisterMetaType<AuditResult>();
    qRegisterMetaType<GroupsResult>();
    qRegisterMetaType<BulkActionResult>();
}

void QueueClient::listQueues(quint64 tag)
{
    request(&QueueClient::queuesListed, answerTo<QueueListResult>(tag), tr("list queues"),
            [this](delayq::Connection& c, QueueListResult& r) {
                const std::string prefix = io()->prefix();
                auto names = delayq::Queue::listQueues(c, prefix, 10000);
                for (const auto& s : delayq::Queue::summaries(c, names, prefix)) {
                    QueueRow row{TaskRows::text(s.name), s.counts.pending, s.counts.dueNow,
                                 s.counts.active,        s.counts.dead,    {}};
                    if (c.isCluster())
                        row.node =
                            TaskRows::text(c.nodeForKey(delayq::Keys(prefix, s.name).pending()));
                    r.queues.append(row);
                }
            });
}

void QueueClient::loadConfig(quint64 tag, const QString& queue)
{
    request(&QueueClient::configLoaded, answerTo<QueueConfigResult>(tag, queue),
            tr("read the queue's settings"),
            [this, queue](delayq::Connection& c, QueueConfigResult& r) {
                auto q = io()->nativeQueue(c, queue);
                OverviewRequests::readConfig(q, r);
            });
}

void QueueClient::writeConfig(quint64 tag, const QString& queue,
                              const QList<QPair<QString, QString>>& values)
{
    auto result = answerTo<QueueConfigResult>(tag, queue);
    result.written = true;
    request(&QueueClient::configLoaded, result, tr("change the queue's settings"),
            [this, queue, values](delayq::Connection& c, QueueConfigResult& r) {
                auto q = io()->nativeQueue(c, queue);
                OverviewRequests::writeConfig(q, values, r);
            });
}

void QueueClient::loadAudit(quint64 tag, const QString& queue, int limit)
{
    request(&QueueClient::auditLoaded, answerTo<AuditResult>(tag, queue),
            tr("load the audit trail"),
            [this, queue, limit](delayq::Connection& c, AuditResult& r) {
                auto q = io()->nativeQueue(c, queue);
                TaskRequests::audit(q, limit, r);
            });
}

void QueueClient::loadGroups(quint64 tag, const QString& queue, int limit)
{
    request(&QueueClient::groupsLoaded, answerTo<GroupsResult>(tag, queue),
            tr("load the busiest groups"),
            [this, queue, limit](delayq::Connection& c, GroupsResult& r) {
                auto q = io()->nativeQueue(c, queue);
                const delayq::GroupLoads loads = q.busyGroups(limit);
                r.fair = loads.fair;
                r.groupCap = loads.groupCap;
                r.ready = loads.ready;
                r.atCap = loads.atCap;
                r.atRate = loads.atRate;
                r.known = loads.known;
                r.shards = loads.shards;
                r.examined = loads.examined;
                r.complete = loads.complete;
                for (const auto& g : loads.groups)
                    r.rows.append(GroupRow{TaskRows::text(g.group), g.dueWaiting, g.active, g.atCap,
                                           g.atRate});
            });
}

void QueueClient::requeueAllDead(quint64 tag, const QString& queue, qint64 limit, int batch)
{
    startBulk(tag, TaskAction::Requeue, queue, limit, batch);
}

void QueueClient::deleteAllDead(quint64 tag, const QString& queue, qint64 limit, int batch)
{
    startBulk(tag, TaskAction::DeleteDead, queue, limit, batch);
}

void QueueClient::purge(quint64 tag, const QString& queue, qint64 limit, int batch)
{
    startBulk(tag, TaskAction::Purge, queue, limit, batch);
}

void QueueClient::startBulk(quint64 tag, TaskAction action, const QString& queue, qint64 limit,
                            int batch)
{
    run(SteppedRequests::bulkChange(
        io(), tag, action, queue, limit, batch,
        [this, tag] { return m_cancelledBulk.load() == tag; },
        [this](const BulkActionResult& r) {
            deliver(&QueueClient::bulkProgressed, r.tag, r.done, r.total);
        },
        [this](const BulkActionResult& r) { deliver(&QueueClient::bulkFinished, r); }));
}

} // namespace delayq::ui
