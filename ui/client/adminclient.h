#pragma once

#include "client/connectiontypes.h"

#include <QObject>
#include <QString>
#include <QThread>

class QTimer;

namespace delayq::ui {

class BinClient;
class ExportClient;
class IoWorker;
class MatchClient;
class OverviewClient;
class PlainClient;
class QueueClient;
class ScheduleClient;
class TaskClient;

// The admin connection and its state, and one client per area of requests (tasks, queues,
// overview, plain keys, export, matches, schedules). Every request is posted to the I/O thread,
// where IoWorker owns the connection, and answered by a signal of its area's client carrying plain
// values, so the GUI thread never waits on Redis. A lost connection is retried every two
// seconds until it answers again, unless retrying cannot fix it (a refused password, TLS on
// one side only): then nothing more is tried until the next connectTo.
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

    TaskClient* tasks() const { return m_tasks; }
    QueueClient* queues() const { return m_queues; }
    OverviewClient* overview() const { return m_overview; }
    PlainClient* plain() const { return m_plain; }
    ExportClient* exports() const { return m_exports; }
    MatchClient* matches() const { return m_matches; }
    ScheduleClient* schedules() const { return m_schedules; }
    BinClient* bin() const { return m_bin; }

signals:
    // connectTo is trying the server displayUrl (password masked) now.
    void connecting(const QString& displayUrl);
    void connected(const delayq::ui::ServerInfo& info);
    // reason names the cause; retrying is false when nothing more is tried (IoWorker).
    void disconnected(const QString& reason, bool retrying);
    // Round trip and clock offset, every heartbeat while connected.
    void statusUpdated(const delayq::ui::ServerInfo& info);
    // A request was refused for this user (ACL) and so was the write probe: the session is
    // read-only from now on, the embedded worker included.
    void readOnlyDetected(const QString& reason);
    // While connected, a request has waited kUnansweredMs or more for Redis (a partition, a
    // stuck server): sent every watch tick with the wait so far, until the request ends.
    // The I/O thread gives up at its command timeout and reconnects (disconnected comes
    // then); answered says the request came back first and the connection is still up.
    void unanswered(qint64 waitedMs);
    void answered();

public:
    // IoWorker's PING every 250 ms + this + the 100 ms watch: a cut link is said within
    // 850 ms. A healthy request over a slow link rarely waits half a second.
    static constexpr qint64 kUnansweredMs = 500;

private:
    void watch();

    // The I/O thread, named for debuggers; the worker on it is deleted when it finishes.
    QThread m_thread;
    IoWorker* m_io;
    ConnectionSettings m_guiSettings; // read and written on the caller's thread only
    QTimer* m_watch;        // reads the I/O thread's waitingSinceMs, which it cannot emit itself
    bool m_stalled = false; // unanswered was sent since the last answer
    // Children: deleted after the destructor has ended the I/O thread, so no job outlives them.
    TaskClient* m_tasks;
    QueueClient* m_queues;
    OverviewClient* m_overview;
    PlainClient* m_plain;
    ExportClient* m_exports;
    MatchClient* m_matches;
    ScheduleClient* m_schedules;
    BinClient* m_bin;
};

} // namespace delayq::ui
