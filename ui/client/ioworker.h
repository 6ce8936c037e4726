#pragma once

#include "client/connectiontypes.h"
#include "client/steppedjob.h"
#include "client/taskqueue.h"
#include <delayq/plainqueue.h>
#include <delayq/queue.h>

#include <QObject>
#include <QSet>

#include <atomic>
#include <functional>
#include <memory>

class QTimer;

namespace delayq {
class Error;
}

namespace delayq::ui {

// The admin connection and everything that lives with it on the I/O thread: the heartbeat
// that notices an outage and reconnects, the write probe, the plain key being viewed. It has
// no parent and is moved to its thread by AdminClient, which deletes it when the thread
// ends. Every member below is for the I/O thread only, but for post(), stop() and the
// atomics.
class IoWorker : public QObject
{
    Q_OBJECT

public:
    IoWorker();
    ~IoWorker() override;

    // Runs job on the I/O thread (callable from any thread).
    void post(std::function<void()> job);
    // Steps still to come are dropped from now on: the app is closing.
    void stop() { m_stopping.store(true); }

    // While up, a PING goes out this often when nothing else is asked: with
    // AdminClient::kUnansweredMs and its watch, a cut link is said within a second.
    static constexpr int kLivenessMs = 250;

    bool isUp() const { return m_up.load(); }
    // Steady-clock ms at which the request now waiting on Redis was sent, 0 when none waits:
    // the GUI thread reads it to say, within a second, that the server is not answering.
    qint64 waitingSinceMs() const { return m_waitingSinceMs.load(); }
    bool isReadOnly() const { return m_readOnly.load(); }

    void connectTo(const ConnectionSettings& settings);
    // Runs job with the connection. A lost connection is reported once and left to the
    // heartbeat; an ACL refusal, when the write probe is refused too, makes the session
    // read-only. Returns the error
    // for the result, empty (no code) when it went through.
    RequestError guarded(const QString& operation,
                         const std::function<void(delayq::Connection&)>& job);
    // Starts a stepped job (see SteppedJob); it ends by itself on a change of server.
    void run(SteppedJob job);

    std::string prefix() const;
    // From now on, requests naming `key` read it as a plain sorted set (unit "ms" | "s",
    // read off the scores when empty); an empty key goes back to native queues only.
    void setPlainKey(const QString& key, const QString& unit);
    // The open plain key when `queue` names it.
    std::unique_ptr<delayq::PlainQueue> plainFor(delayq::Connection& c, const QString& queue);
    // The queue `queue` names, of whichever kind it is.
    std::unique_ptr<TaskQueue> queueFor(delayq::Connection& c, const QString& queue);
    // The native queue `queue` names. Every request on a native queue gets it here, so none
    // acts on a queue of an older layout: it throws, saying how to upgrade.
    delayq::Queue nativeQueue(delayq::Connection& c, const QString& queue);

signals:
    // connectTo parsed the settings: the server now tried, as shown (password masked).
    void connecting(const QString& displayUrl);
    void connected(const delayq::ui::ServerInfo& info);
    // reason: the core's message, which names the cause. retrying: the heartbeat tries again
    // every 2 s (refused, timed out, restarting); false when retrying cannot fix it (see
    // failed()) and nothing more is tried until the next connectTo.
    void disconnected(const QString& reason, bool retrying);
    void statusUpdated(const delayq::ui::ServerInfo& info);
    void readOnlyDetected(const QString& reason);
    void plainKeySet(const QString& key, const QString& unit);

private:
    void heartbeat();
    void checkAlive();
    void markDown(const QString& reason);
    void failed(const delayq::Error& error);
    QString causeOf(const delayq::Error& error) const;
    ServerInfo probe();
    void probeWritable();
    void noticeRefusal(const QString& message);
    std::string writeProbeKey() const;
    void step(SteppedJob job, int connection);
    // Runs call with m_waitingSinceMs set for its duration.
    void timed(const std::function<void()>& call);

    std::unique_ptr<delayq::Connection> m_connection;
    QTimer* m_heartbeat = nullptr;
    QTimer* m_liveness = nullptr; // checkAlive() every kLivenessMs
    ConnectionSettings m_settings;
    QString m_displayUrl;
    QString m_cause;             // the reason last reported while down
    bool m_gaveUp = false;       // retrying cannot fix it: no attempt until the next connectTo
    bool m_sentPassword = false; // the settings give a password (from the URL or the field)
    std::atomic<bool> m_up{false};
    std::atomic<bool> m_readOnly{false};
    std::atomic<bool> m_stopping{false};
    std::atomic<qint64> m_waitingSinceMs{0};
    bool m_aclReadOnly = false;
    QString m_readOnlyWhy;
    QString m_plainKey;
    delayq::PlainQueue::ScoreUnit m_plainUnit{};
    QSet<QString> m_currentLayout; // native queues seen in the current layout (not "upgrade me")
    int m_connectionNumber = 0;
};

} // namespace delayq::ui
