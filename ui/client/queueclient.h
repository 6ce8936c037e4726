#pragma once

#include "client/areaclient.h"
#include "client/grouptypes.h"
#include "client/queuetypes.h"

#include <QList>
#include <QPair>

#include <atomic>

namespace delayq::ui {

// The requests on whole native queues: the list of them, one queue's settings, audit trail
// and busiest groups, and the queue-wide changes (requeue or delete every dead task, purge).
class QueueClient : public AreaClient
{
    Q_OBJECT

public:
    QueueClient(IoWorker* io, QObject* parent);

    void listQueues(quint64 tag);
    void loadConfig(quint64 tag, const QString& queue);
    // Writes config keys (max_attempts, backoff, lease_ms, max_payload, paused) after checking
    // them all; configLoaded answers with the config read back (written = true).
    void writeConfig(quint64 tag, const QString& queue,
                     const QList<QPair<QString, QString>>& values);
    // The newest `limit` entries of a native queue's audit trail (a plain key has none).
    void loadAudit(quint64 tag, const QString& queue, int limit);
    // The busiest `limit` groups of a queue in fair order, with how its groups stand: two
    // bounded round trips of plain reads (QueueReader::busyGroups).
    void loadGroups(quint64 tag, const QString& queue, int limit);

    // Queue-wide changes in bounded steps: one script call of `batch` tasks per posted job,
    // so page loads and counts asked for meanwhile are answered between steps on a queue of
    // millions. bulkProgressed after each full step, bulkFinished once at the end.
    // `limit` is the count the user confirmed: tasks that arrive (or die) while it runs are
    // left alone beyond it and reported, so the change never grows past what was asked and
    // always ends. It stops too when the connection is made to another server.
    void requeueAllDead(quint64 tag, const QString& queue, qint64 limit, int batch = 500);
    void deleteAllDead(quint64 tag, const QString& queue, qint64 limit, int batch = 500);
    // Every pending, active and dead task; config and stats stay.
    void purge(quint64 tag, const QString& queue, qint64 limit, int batch = 500);
    // Stops the bulk change `tag` before its next step (what is done stays done).
    void cancelBulk(quint64 tag) { m_cancelledBulk.store(tag); }

signals:
    void queuesListed(const delayq::ui::QueueListResult& result);
    void configLoaded(const delayq::ui::QueueConfigResult& result);
    void auditLoaded(const delayq::ui::AuditResult& result);
    void groupsLoaded(const delayq::ui::GroupsResult& result);
    void bulkProgressed(quint64 tag, qint64 done, qint64 total);
    void bulkFinished(const delayq::ui::BulkActionResult& result);

private:
    void startBulk(quint64 tag, TaskAction action, const QString& queue, qint64 limit, int batch);

    std::atomic<quint64> m_cancelledBulk{0}; // read by the step that comes next
};

} // namespace delayq::ui
