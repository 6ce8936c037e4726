#pragma once

#include "client/admintypes.h"
#include "client/bulkaction.h"
#include "client/exportrequest.h"
#include "client/overviewtypes.h"
#include "client/steppedjob.h"

#include <QObject>
#include <QSet>
#include <QStringList>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

namespace delayq {
class Connection;
struct IdResult;
} // namespace delayq

namespace delayq::ui {

class IoWorker;

// The GUI side of the admin connection: a list of requests, each posted to the I/O thread
// (IoWorker owns the connection there) and answered by a signal carrying plain values, so
// the GUI thread never waits on Redis. A lost connection is retried every two seconds until
// it answers again, unless retrying cannot fix it (a refused password, TLS on one side only):
// then nothing more is tried until the next connectTo.
class AdminClient : public QObject
{
    Q_OBJECT

public:
    explicit AdminClient(QObject* parent = nullptr);
    ~AdminClient() override;

    // A process-wide unique tag for a request, so a view takes only its own answers.
    static quint64 newTag();

    bool isConnected() const;
    bool isReadOnly() const;
    QString prefix() const;
    // The settings of the last connectTo (with the session password), for the embedded worker.
    ConnectionSettings settings() const { return m_guiSettings; }

    void connectTo(const ConnectionSettings& settings);
    void listQueues(quint64 tag);
    // The cluster's masters and replicas with their slots (answered by serverLoaded).
    void loadServer(quint64 tag);
    // Looks for plain sorted-set queues: one SCAN TYPE zset step of `count` keys per posted
    // job, so other requests interleave, and at most maxSteps steps.
    void discoverPlain(quint64 tag, int maxSteps = 50, int count = 1000);
    // Looks for members of the open plain key that contain `text` (compared as bytes): one
    // ZSCAN step of `count` members per posted job, each step reported by plainScanned, until
    // the whole key is read, maxMatches are found, or cancelScan() or a newer scan stops it.
    void scanPlain(quint64 tag, const QString& key, const QString& text, int maxMatches = 1000,
                   int count = 250);
    void cancelScan() { m_activeScan.store(0); }
    // From now on, requests naming `key` go to that plain sorted set (unit "ms" | "s")
    // instead of a native queue; an empty key returns to native queues only.
    void setPlainKey(const QString& key, const QString& unit);
    void loadPages(quint64 tag, const QString& queue, TaskSetKind set, const QList<qint64>& offsets,
                   int limit);
    void loadCounts(quint64 tag, const QString& queue);
    void loadHistogram(quint64 tag, const QString& queue, qint64 fromMs, qint64 toMs, int buckets);
    void loadHistory(quint64 tag, const QString& queue, qint64 fromMinute, qint64 toMinute);
    // The newest `limit` entries of a native queue's audit trail (a plain key has none).
    void loadAudit(quint64 tag, const QString& queue, int limit);
    // One task with its whole payload, wherever it is.
    void loadTask(quint64 tag, const QString& queue, const QString& id);
    // Row of the first task due at or after ms.
    void locateTime(quint64 tag, const QString& queue, TaskSetKind set, qint64 ms);
    // Set and row of a task id, wherever it is.
    void locateId(quint64 tag, const QString& queue, const QString& id);

    void push(quint64 tag, const PushSpec& spec);
    void cancel(quint64 tag, const QString& queue, const QStringList& ids);
    // dueAtMs >= 0: absolute; else delayMs from the server's now (0: run now).
    void reschedule(quint64 tag, const QString& queue, const QStringList& ids, qint64 dueAtMs,
                    qint64 delayMs);
    void requeue(quint64 tag, const QString& queue, const QStringList& ids);
    void deleteDead(quint64 tag, const QString& queue, const QStringList& ids);
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
    // For request classes beside this one (MatchClient): a stepped job on the I/O thread.
    void runStepped(SteppedJob job) { run(std::move(job)); }
    IoWorker* ioWorker() const { return m_io; }

    // Every queue with its counts, lag, pause and (withHistory) last hour per minute, and the
    // plain keys given, in one pipeline (per master on a cluster); answered by overviewLoaded.
    void loadOverview(quint64 tag, const QList<PlainKeyRow>& plainKeys, bool withHistory);
    void loadConfig(quint64 tag, const QString& queue);
    // Writes config keys (max_attempts, backoff, lease_ms, max_payload, paused) after checking
    // them all; configLoaded answers with the config read back (written = true).
    void writeConfig(quint64 tag, const QString& queue,
                     const QList<QPair<QString, QString>>& values);
    // Export…: the tasks to a file in bounded steps (ExportSteps); exportProgressed after each
    // step, exportFinished once. A cancelled export leaves no file.
    void exportTasks(quint64 tag, const ExportRequest& request);
    void cancelExport(quint64 tag) { m_cancelledExport.store(tag); }

signals:
    // connectTo is trying the server displayUrl (password masked) now.
    void connecting(const QString& displayUrl);
    void connected(const delayq::ui::ServerInfo& info);
    // reason names the cause; retrying is false when nothing more is tried (IoWorker).
    void disconnected(const QString& reason, bool retrying);
    // Round trip and clock offset, every heartbeat while connected.
    void statusUpdated(const delayq::ui::ServerInfo& info);
    void queuesListed(const delayq::ui::QueueListResult& result);
    void serverLoaded(const delayq::ui::ServerResult& result);
    void plainKeysDiscovered(const delayq::ui::PlainDiscoveryResult& result);
    // setPlainKey took effect, with the unit it reads the scores in (detected if none given).
    void plainKeySet(const QString& key, const QString& unit);
    void plainScanned(const delayq::ui::PlainScanResult& result);
    void pagesLoaded(const delayq::ui::PageResult& result);
    void countsLoaded(const delayq::ui::CountsResult& result);
    void histogramLoaded(const delayq::ui::HistogramResult& result);
    void historyLoaded(const delayq::ui::HistoryResult& result);
    void auditLoaded(const delayq::ui::AuditResult& result);
    void located(const delayq::ui::LocateResult& result);
    void taskLoaded(const delayq::ui::TaskResult& result);
    void actionFinished(const delayq::ui::ActionResult& result);
    void bulkProgressed(quint64 tag, qint64 done, qint64 total);
    void bulkFinished(const delayq::ui::BulkActionResult& result);
    void overviewLoaded(const delayq::ui::OverviewResult& result);
    void configLoaded(const delayq::ui::QueueConfigResult& result);
    void exportProgressed(quint64 tag, qint64 written, qint64 total);
    void exportFinished(const delayq::ui::ExportResult& result);
    // A request was refused for this user (ACL) and so was the write probe: the session is
    // read-only from now on, the embedded worker included.
    void readOnlyDetected(const QString& reason);

private:
    // Runs job on the I/O thread.
    void post(std::function<void()> job);
    // Runs job with the connection on the I/O thread: the error text, "" when fine.
    RequestError guarded(const QString& operation,
                         const std::function<void(delayq::Connection&)>& job);
    // Emits a signal on the client's own thread (not the I/O thread), so every receiver,
    // direct connections included, runs where the client lives.
    template <typename... Args, typename... Values>
    void deliver(void (AdminClient::*signal)(Args...), Values&&... values)
    {
        QMetaObject::invokeMethod(
            this,
            [this, signal, ... v = std::decay_t<Values>(std::forward<Values>(values))] {
                (this->*signal)(v...);
            },
            Qt::QueuedConnection);
    }
    // Fills `result` with the connection on the I/O thread (the error when the job throws)
    // and delivers it with `signal`.
    template <typename Result, typename Fill>
    void request(void (AdminClient::*signal)(const Result&), Result result,
                 const QString& operation, Fill fill)
    {
        post([this, signal, result = std::move(result), operation,
              fill = std::move(fill)]() mutable {
            result.error = guarded(operation, [&](delayq::Connection& c) { fill(c, result); });
            deliver(signal, result);
        });
    }
    void startBulk(quint64 tag, BulkAction action, const QString& queue, qint64 limit, int batch);
    void run(SteppedJob job);
    // An action on a list of ids, answered by actionFinished with one outcome per id.
    void idAction(quint64 tag, TaskAction action, const QString& queue,
                  std::function<std::vector<delayq::IdResult>(delayq::Connection&)> run);

    // The I/O thread, named for debuggers; the worker on it is deleted when it finishes.
    QThread m_thread;
    IoWorker* m_io;
    ConnectionSettings m_guiSettings;        // read and written on the caller's thread only
    std::atomic<quint64> m_activeScan{0};    // the tag of the one search that may go on
    std::atomic<quint64> m_cancelledBulk{0}; // read by the step that comes next
    std::atomic<quint64> m_cancelledExport{0};
};

} // namespace delayq::ui
