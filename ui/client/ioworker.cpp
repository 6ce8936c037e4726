#include "client/ioworker.h"

#include "client/membertext.h"
#include "client/nativetaskqueue.h"
#include "client/plaintaskqueue.h"
#include "client/taskrows.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/version.h>

#include <QTimer>

#include <algorithm>
#include <chrono>

namespace delayq::ui {

IoWorker::IoWorker() = default;

IoWorker::~IoWorker() = default;

void IoWorker::post(std::function<void()> job)
{
    QMetaObject::invokeMethod(this, std::move(job), Qt::QueuedConnection);
}

std::string IoWorker::prefix() const
{
    return MemberText::toBytes(m_settings.prefix);
}

void IoWorker::connectTo(const ConnectionSettings& settings)
{
    m_settings = settings;
    if (m_settings.prefix.isEmpty())
        m_settings.prefix = QStringLiteral("dq");
    m_up = false;
    m_readOnly = settings.readOnly;
    m_aclReadOnly = false;
    m_currentLayout.clear();
    m_connection.reset();
    m_cause.clear();
    m_gaveUp = false;
    ++m_connectionNumber;
    if (!m_heartbeat) {
        m_heartbeat = new QTimer(this);
        m_heartbeat->setInterval(2000);
        connect(m_heartbeat, &QTimer::timeout, this, &IoWorker::heartbeat);
        m_liveness = new QTimer(this);
        m_liveness->setInterval(kLivenessMs);
        connect(m_liveness, &QTimer::timeout, this, &IoWorker::checkAlive);
    }
    try {
        delayq::Keys::validatePrefix(prefix());
        auto options = delayq::ConnectionOptions::fromUrl(MemberText::toBytes(settings.url));
        if (!settings.password.isEmpty())
            options.password = MemberText::toBytes(settings.password);
        options.tls.keyPassphrase = MemberText::toBytes(settings.tlsKeyPassphrase);
        if (!settings.sentinelPassword.isEmpty())
            options.sentinel.password = MemberText::toBytes(settings.sentinelPassword);
        options.readOnly = settings.readOnly;
        // Every change made through the app is recorded in the queue's audit trail.
        options.actor = delayq::Actor::ofThisProcess("delayq-admin", DELAYQ_VERSION);
        options.connectTimeout = std::chrono::milliseconds(2000);
        options.commandTimeout = std::chrono::milliseconds(4000);
        m_displayUrl = TaskRows::text(options.displayUrl());
        m_sentPassword = !options.password.empty();
        m_connection = std::make_unique<delayq::Connection>(options);
    } catch (const delayq::Error& e) {
        // A URL or prefix that does not parse: nothing to retry.
        m_heartbeat->stop();
        m_liveness->stop();
        m_gaveUp = true;
        m_cause = QString::fromUtf8(e.what());
        emit disconnected(m_cause, false);
        return;
    }
    emit connecting(m_displayUrl);
    m_heartbeat->start();
    m_liveness->start();
    heartbeat();
}

RequestError IoWorker::guarded(const QString& operation,
                               const std::function<void(delayq::Connection&)>& job)
{
    if (m_gaveUp)
        return RequestError::other(delayq::ErrorCode::Connection,
                                   tr("not connected: %1").arg(m_cause), operation);
    if (!m_connection)
        return RequestError::other(delayq::ErrorCode::Connection,
                                   tr("not connected: choose a server first"), operation);
    // While the server is away only the heartbeat tries to reach it, so queued requests
    // fail at once instead of each waiting out a connect timeout.
    if (!m_up)
        return RequestError::other(delayq::ErrorCode::Connection,
                                   tr("not connected to %1 (reconnecting)").arg(m_displayUrl),
                                   operation);
    try {
        timed([&] { job(*m_connection); });
        return {};
    } catch (const delayq::Error& e) {
        RequestError error = RequestError::fromCore(e, operation);
        if (e.isUnreachable()) {
            markDown(error.message);
        } else if (e.code() == delayq::ErrorCode::NoPermission && !m_readOnly) {
            noticeRefusal(error.message);
        }
        return error;
    } catch (const std::exception& e) {
        return RequestError::other(delayq::ErrorCode::Protocol, QString::fromUtf8(e.what()),
                                   operation);
    }
}

void IoWorker::run(SteppedJob job)
{
    const int connection = m_connectionNumber;
    post([this, job = std::move(job), connection] { step(job, connection); });
}

// One step per posted job; the next step is posted rather than looped, so the requests
// queued behind a million-task purge or a long search are answered in between.
void IoWorker::step(SteppedJob job, int connection)
{
    if (m_stopping.load())
        return;
    if (job.cancelled()) {
        job.finished(SteppedJob::End::Cancelled, {});
        return;
    }
    // What was asked for was counted on the server it started on, not on a new one.
    if (connection != m_connectionNumber) {
        job.finished(
            SteppedJob::End::ServerChanged,
            RequestError::other(delayq::ErrorCode::Connection,
                                tr("stopped: the app connected to another server meanwhile"),
                                job.operation));
        return;
    }
    bool more = false;
    const RequestError error =
        guarded(job.operation, [&](delayq::Connection& c) { more = job.step(c); });
    if (error.isEmpty() && more) {
        job.progressed();
        post([this, job, connection] { step(job, connection); });
        return;
    }
    job.finished(SteppedJob::End::Done, error);
}

void IoWorker::heartbeat()
{
    if (!m_connection)
        return;
    try {
        if (!m_up) {
            m_connection->connect();
            if (!m_settings.readOnly)
                probeWritable();
            ServerInfo info = probe();
            info.version = TaskRows::text(m_connection->serverVersion());
            m_up = true;
            emit connected(info);
        } else {
            ServerInfo info;
            timed([&] { info = probe(); });
            emit statusUpdated(info);
        }
    } catch (const delayq::Error& e) {
        failed(e);
    }
}

// A PING between heartbeats, so a link cut while nothing else is asked is noticed (the GUI
// thread's watch sees the PING waiting) within a second, not at the next refresh or heartbeat.
// While down the heartbeat alone tries to reach the server.
void IoWorker::checkAlive()
{
    if (!m_up || !m_connection)
        return;
    try {
        timed([&] { m_connection->ping(); });
    } catch (const delayq::Error& e) {
        if (e.isUnreachable())
            failed(e);
    }
}

void IoWorker::timed(const std::function<void()>& call)
{
    const auto sent = std::chrono::steady_clock::now().time_since_epoch();
    m_waitingSinceMs =
        std::max<qint64>(1, std::chrono::duration_cast<std::chrono::milliseconds>(sent).count());
    try {
        call();
    } catch (...) {
        m_waitingSinceMs = 0;
        throw;
    }
    m_waitingSinceMs = 0;
}

void IoWorker::markDown(const QString& reason)
{
    if (!m_up.exchange(false))
        return;
    m_cause = reason;
    emit disconnected(reason, true);
}

// A refused password or ACL user, TLS on one side only, a refused certificate: the same
// attempt every 2 s would fail the same way (and fill the server's log with refusals), so
// the heartbeat stops and the window asks for other settings. A refused connection, a
// timeout or a restart can heal: those are tried again, each new cause reported.
void IoWorker::failed(const delayq::Error& error)
{
    const bool retrying =
        error.code() != delayq::ErrorCode::Auth && error.code() != delayq::ErrorCode::Tls;
    const QString cause = causeOf(error);
    const bool wasUp = m_up.exchange(false);
    if (!retrying) {
        m_heartbeat->stop();
        m_liveness->stop();
        m_connection.reset();
        m_gaveUp = true;
    }
    if (!wasUp && retrying && cause == m_cause)
        return; // said already; the next attempt comes with the heartbeat
    m_cause = cause;
    emit disconnected(cause, retrying);
}

// The core's message, which names the cause; with the server's URL when it does not.
QString IoWorker::causeOf(const delayq::Error& error) const
{
    const QString message = QString::fromUtf8(error.what());
    // The server's own words ("NOAUTH Authentication required.") do not say what to do.
    if (message.startsWith(QLatin1String("NOAUTH")) && !m_sentPassword)
        return tr("%1 asks for a password and none was given (%2)").arg(m_displayUrl, message);
    if (message.contains(m_displayUrl))
        return message;
    return tr("%1: %2").arg(m_displayUrl, message);
}

ServerInfo IoWorker::probe()
{
    ServerInfo info;
    info.displayUrl = m_displayUrl;
    info.rttUs = m_connection->ping().count();
    info.clockOffsetMs = m_connection->clockOffsetMs();
    const delayq::ConnectionOptions& options = m_connection->options();
    info.security = TaskRows::text(m_connection->securityDescription());
    info.tlsInsecure = options.tls.enabled && options.tls.insecure;
    info.serverAddress = TaskRows::text(m_connection->serverAddress());
    if (options.sentinel.enabled())
        info.sentinelGroup =
            TaskRows::text(options.sentinel.masterName + " via " + options.sentinel.nodeList());
    info.masterChanges = m_connection->masterChanges();
    if (m_connection->isCluster())
        info.clusterMasters = static_cast<int>(m_connection->masters().size());
    info.readOnly = m_readOnly.load();
    if (info.readOnly)
        info.readOnlyReason = m_settings.readOnly ? tr("this connection is read-only")
                              : m_aclReadOnly     ? m_readOnlyWhy
                                                  : tr("the server refuses writes for this user");
    return info;
}

// Reads pass through guarded() too, and an ACL may refuse one command or key while writes
// still go through: only when the write probe is refused as well is the session read-only.
void IoWorker::noticeRefusal(const QString& message)
{
    try {
        if (!m_connection->writeRefusal(writeProbeKey()))
            return;
    } catch (const delayq::Error&) {
        return; // the heartbeat deals with a connection lost meanwhile
    }
    m_readOnly = true;
    emit readOnlyDetected(tr("the server refused a write for this user: %1").arg(message));
}

std::string IoWorker::writeProbeKey() const
{
    return prefix() + ":{delayq-admin}:write-probe";
}

void IoWorker::probeWritable()
{
    // A user without write access to the prefix (or a server refusing writes) makes the
    // session read-only from the start, instead of failing at the operator's first click.
    const auto refusal = m_connection->writeRefusal(writeProbeKey());
    m_readOnly = refusal.has_value();
    if (!refusal)
        return;
    m_aclReadOnly = true;
    m_readOnlyWhy = tr("the server refuses writes for this user (%1)")
                        .arg(QString::fromUtf8(refusal->what()).left(200));
}

void IoWorker::setPlainKey(const QString& key, const QString& unit)
{
    m_plainKey = key;
    m_plainUnit = unit == QLatin1String("s") ? delayq::PlainQueue::ScoreUnit::Seconds
                                             : delayq::PlainQueue::ScoreUnit::Milliseconds;
    // No unit given (e.g. --plain on the command line): read it off the key's scores.
    if (unit.isEmpty() && !key.isEmpty())
        guarded(tr("read the scores of %1").arg(key), [&](delayq::Connection& c) {
            m_plainUnit = delayq::PlainQueue::detectUnit(c, MemberText::toBytes(key));
        });
    emit plainKeySet(key, QString::fromLatin1(delayq::PlainQueue::unitName(m_plainUnit)));
}

std::unique_ptr<delayq::PlainQueue> IoWorker::plainFor(delayq::Connection& c, const QString& queue)
{
    if (m_plainKey.isEmpty() || queue != m_plainKey)
        return nullptr;
    return std::make_unique<delayq::PlainQueue>(c, MemberText::toBytes(queue), m_plainUnit);
}

std::unique_ptr<TaskQueue> IoWorker::queueFor(delayq::Connection& c, const QString& queue)
{
    if (!m_plainKey.isEmpty() && queue == m_plainKey)
        return std::make_unique<PlainTaskQueue>(c, MemberText::toBytes(queue), m_plainUnit,
                                                prefix());
    nativeQueue(c, queue);
    return std::make_unique<NativeTaskQueue>(c, MemberText::toBytes(queue), prefix());
}

delayq::Queue IoWorker::nativeQueue(delayq::Connection& c, const QString& queue)
{
    delayq::Queue q(c, MemberText::toBytes(queue), prefix());
    // A queue of an older delayq's layout would show every task as broken, and an action on it
    // could change what the upgrade then reads: each request fails instead, saying how to
    // upgrade. Checked once per queue while it is current.
    if (!m_currentLayout.contains(queue)) {
        q.requireCurrentLayout();
        m_currentLayout.insert(queue);
    }
    return q;
}

} // namespace delayq::ui
