#include "adminclient.h"

#include "connection.h"
#include "error.h"
#include "membertext.h"
#include "plainqueue.h"
#include "queue.h"
#include "sha1.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <optional>

namespace delayq::ui {

namespace {

std::atomic<quint64> g_nextTag{1};
constexpr size_t kPagePayloadBytes = 4096;

delayq::TaskSet toCore(TaskSetKind set)
{
    switch (set) {
    case TaskSetKind::Pending:
        return delayq::TaskSet::Pending;
    case TaskSetKind::Active:
        return delayq::TaskSet::Active;
    case TaskSetKind::Dead:
        return delayq::TaskSet::Dead;
    }
    return delayq::TaskSet::Pending;
}

TaskSetKind fromCore(delayq::TaskSet set)
{
    switch (set) {
    case delayq::TaskSet::Pending:
        return TaskSetKind::Pending;
    case delayq::TaskSet::Active:
        return TaskSetKind::Active;
    case delayq::TaskSet::Dead:
        return TaskSetKind::Dead;
    }
    return TaskSetKind::Pending;
}

QString qs(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

std::string ss(const QString& s)
{
    return s.toStdString();
}

TaskRow toRow(const delayq::Task& t, size_t maxPayload = std::string::npos)
{
    TaskRow r;
    r.id = qs(t.id);
    const size_t kept = std::min(t.payload.size(), maxPayload);
    r.payload = QByteArray(t.payload.data(), static_cast<qsizetype>(kept));
    r.payloadSize = static_cast<qint64>(t.payload.size());
    r.score = t.score;
    r.due = t.due;
    r.created = t.created;
    r.attempts = t.attempts;
    r.maxAttempts = t.maxAttempts;
    r.backoff = qs(t.backoff);
    r.worker = qs(t.worker);
    r.lastError = qs(t.lastError);
    r.state = qs(t.state);
    r.broken = t.broken;
    return r;
}

std::vector<std::string> toIds(const QStringList& ids)
{
    std::vector<std::string> out;
    out.reserve(static_cast<size_t>(ids.size()));
    for (const auto& id : ids)
        out.push_back(ss(id));
    return out;
}

QList<IdOutcome> toOutcomes(const std::vector<delayq::IdResult>& results)
{
    QList<IdOutcome> out;
    out.reserve(static_cast<qsizetype>(results.size()));
    for (const auto& r : results)
        out.append({qs(r.id), QString::fromLatin1(delayq::idStatusName(r.status))});
    return out;
}

} // namespace

AdminClient::AdminClient(QObject* parent) : QObject(parent)
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
    m_io = new QObject;
    m_io->moveToThread(&m_thread);
    m_thread.start();
}

AdminClient::~AdminClient()
{
    QMetaObject::invokeMethod(
        m_io,
        [this] {
            delete m_heartbeat;
            m_heartbeat = nullptr;
            m_connection.reset();
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
    delete m_io;
}

quint64 AdminClient::newTag()
{
    return g_nextTag.fetch_add(1);
}

QString AdminClient::prefix() const
{
    return m_guiSettings.prefix;
}

void AdminClient::post(std::function<void()> job)
{
    QMetaObject::invokeMethod(m_io, std::move(job), Qt::QueuedConnection);
}

QString AdminClient::guarded(const std::function<void(delayq::Connection&)>& job)
{
    if (!m_connection)
        return tr("not connected: choose a server first");
    // While the server is away only the heartbeat tries to reach it, so queued requests
    // fail at once instead of each waiting out a connect timeout.
    if (!m_up)
        return tr("not connected to %1 (reconnecting)").arg(m_displayUrl);
    try {
        job(*m_connection);
        return {};
    } catch (const delayq::Error& e) {
        const QString message = QString::fromUtf8(e.what());
        if (e.isUnreachable())
            markDown(message);
        else if (e.code() == delayq::ErrorCode::NoPermission && !m_settings.readOnly) {
            m_readOnly = true;
            deliver(&AdminClient::readOnlyDetected,
                    tr("the server refused a write for this user: %1").arg(message));
        }
        return message;
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
}

void AdminClient::markDown(const QString& reason)
{
    if (m_up.exchange(false))
        deliver(&AdminClient::disconnected, reason);
}

ServerInfo AdminClient::probe()
{
    ServerInfo info;
    info.displayUrl = m_displayUrl;
    auto rtt = m_connection->ping();
    info.rttUs = rtt.count();
    info.clockOffsetMs = m_connection->clockOffsetMs();
    info.readOnly = m_readOnly.load();
    if (info.readOnly)
        info.readOnlyReason = m_settings.readOnly ? tr("this connection is read-only")
                              : m_aclReadOnly     ? m_readOnlyWhy
                                                  : tr("the server refuses writes for this user");
    return info;
}

void AdminClient::probeWritable()
{
    // DEL of a key that never exists changes nothing, but an ACL user without write access
    // to the prefix is refused with NOPERM: the session is then read-only from the start,
    // instead of failing at the operator's first click.
    const std::string key = ss(m_settings.prefix) + ":{delayq-admin}:write-probe";
    try {
        m_connection->command({"DEL", key});
        m_readOnly = false;
    } catch (const delayq::Error& e) {
        // A replica, a full memory or a failed disk refuses the probe like a missing right.
        if (e.code() != delayq::ErrorCode::NoPermission && !e.refusesWrites())
            throw;
        m_readOnly = true;
        m_aclReadOnly = true;
        m_readOnlyWhy = tr("the server refuses writes for this user (%1)")
                            .arg(QString::fromUtf8(e.what()).left(200));
    }
}

void AdminClient::connectTo(const ConnectionSettings& settings)
{
    m_guiSettings = settings;
    if (m_guiSettings.prefix.isEmpty())
        m_guiSettings.prefix = QStringLiteral("dq");
    post([this, settings] {
        m_settings = settings;
        if (m_settings.prefix.isEmpty())
            m_settings.prefix = QStringLiteral("dq");
        m_up = false;
        m_readOnly = settings.readOnly;
        m_aclReadOnly = false;
        m_connection.reset();
        ++m_connectionNumber;
        if (!m_heartbeat) {
            m_heartbeat = new QTimer(m_io);
            m_heartbeat->setInterval(2000);
            connect(m_heartbeat, &QTimer::timeout, m_io, [this] { heartbeat(); });
        }
        try {
            delayq::Keys::validatePrefix(ss(m_settings.prefix));
            auto options = delayq::ConnectionOptions::fromUrl(ss(settings.url));
            if (!settings.password.isEmpty())
                options.password = ss(settings.password);
            options.readOnly = settings.readOnly;
            options.connectTimeout = std::chrono::milliseconds(2000);
            options.commandTimeout = std::chrono::milliseconds(4000);
            m_displayUrl = qs(options.displayUrl());
            m_connection = std::make_unique<delayq::Connection>(options);
        } catch (const delayq::Error& e) {
            deliver(&AdminClient::disconnected, QString::fromUtf8(e.what()));
            return;
        }
        m_heartbeat->start();
        heartbeat();
        if (!m_up)
            deliver(&AdminClient::disconnected,
                    tr("cannot reach %1: retrying every 2 s").arg(m_displayUrl));
    });
}

void AdminClient::heartbeat()
{
    if (!m_connection)
        return;
    try {
        if (!m_up) {
            m_connection->connect();
            if (!m_settings.readOnly)
                probeWritable();
            ServerInfo info = probe();
            info.version = qs(m_connection->serverVersion());
            m_up = true;
            deliver(&AdminClient::connected, info);
        } else {
            deliver(&AdminClient::statusUpdated, probe());
        }
    } catch (const delayq::Error& e) {
        markDown(QString::fromUtf8(e.what()));
    }
}

void AdminClient::listQueues(quint64 tag)
{
    post([this, tag] {
        QueueListResult result;
        result.tag = tag;
        result.error = guarded([&](delayq::Connection& c) {
            const std::string prefix = ss(m_settings.prefix);
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
    PlainDiscoveryResult result;
    result.tag = tag;
    post([this, result, maxSteps, count] { discoverStep(result, "0", maxSteps, count); });
}

// Runs on the I/O thread; posts the next step instead of looping, so a page load or an
// action asked for meanwhile is not stuck behind the whole scan.
void AdminClient::discoverStep(PlainDiscoveryResult result, std::string cursor, int stepsLeft,
                               int count)
{
    result.error = guarded([&](delayq::Connection& c) {
        const std::string prefix = ss(m_settings.prefix);
        for (const auto& k : delayq::PlainQueue::discover(c, cursor, prefix, count))
            result.keys.append({MemberText::fromBytes(k.key),
                                QString::fromLatin1(delayq::PlainQueue::unitName(k.unit)), k.size});
    });
    --stepsLeft;
    if (result.error.isEmpty() && cursor != "0" && stepsLeft > 0) {
        post([this, result, cursor, stepsLeft, count] {
            discoverStep(result, cursor, stepsLeft, count);
        });
        return;
    }
    result.complete = result.error.isEmpty() && cursor == "0";
    deliver(&AdminClient::plainKeysDiscovered, result);
}

void AdminClient::setPlainKey(const QString& key, const QString& unit)
{
    post([this, key, unit] {
        m_plainKey = key;
        m_plainUnit = unit == QLatin1String("s") ? delayq::PlainQueue::ScoreUnit::Seconds
                                                 : delayq::PlainQueue::ScoreUnit::Milliseconds;
        // No unit given (e.g. --plain on the command line): read it off the key's scores.
        if (unit.isEmpty() && !key.isEmpty())
            guarded([&](delayq::Connection& c) {
                m_plainUnit = delayq::PlainQueue::detectUnit(c, MemberText::toBytes(key));
            });
        deliver(&AdminClient::plainKeySet, key,
                QString::fromLatin1(delayq::PlainQueue::unitName(m_plainUnit)));
    });
}

std::unique_ptr<delayq::PlainQueue> AdminClient::plainFor(delayq::Connection& c,
                                                          const QString& queue)
{
    if (m_plainKey.isEmpty() || queue != m_plainKey)
        return nullptr;
    return std::make_unique<delayq::PlainQueue>(c, MemberText::toBytes(queue), m_plainUnit);
}

namespace {

// A member is the message: it is both the row's id and its payload.
TaskRow plainRow(const delayq::PlainQueue::Member& m)
{
    TaskRow row;
    row.id = MemberText::fromBytes(m.member);
    row.payload = QByteArray::fromStdString(m.member.substr(0, kPagePayloadBytes));
    row.payloadSize = static_cast<qint64>(m.member.size());
    row.score = m.dueMs;
    row.due = m.dueMs;
    row.state = QStringLiteral("pending");
    return row;
}

std::vector<std::string> toMembers(const QStringList& ids)
{
    std::vector<std::string> out;
    out.reserve(size_t(ids.size()));
    for (const QString& id : ids)
        out.push_back(MemberText::toBytes(id));
    return out;
}

QList<IdOutcome> plainOutcomes(const QStringList& members, const std::vector<bool>& done)
{
    QList<IdOutcome> out;
    for (size_t i = 0; i < done.size() && i < size_t(members.size()); ++i)
        out.append({members.at(qsizetype(i)),
                    done[i] ? QStringLiteral("done") : QStringLiteral("not_found")});
    return out;
}

} // namespace

void AdminClient::scanPlain(quint64 tag, const QString& key, const QString& text, int maxMatches,
                            int count)
{
    m_activeScan.store(tag);
    PlainScanResult result;
    result.tag = tag;
    result.key = key;
    post([this, result, needle = MemberText::toBytes(text), maxMatches, count]() mutable {
        result.error = guarded([&](delayq::Connection& c) {
            auto p = plainFor(c, result.key);
            if (!p)
                throw delayq::Error(delayq::ErrorCode::InvalidArgument,
                                    "searching the members' text needs a plain sorted set open");
            result.total = p->size();
        });
        if (!result.error.isEmpty()) {
            result.finished = true;
            deliver(&AdminClient::plainScanned, result);
            return;
        }
        scanStep(result, "0", needle, maxMatches, count, 0);
    });
}

// Like discoverStep: one bounded ZSCAN per posted job, so the views' own requests go on.
void AdminClient::scanStep(PlainScanResult result, std::string cursor, const std::string& needle,
                           int maxMatches, int count, int found)
{
    result.matches.clear();
    if (m_activeScan.load() != result.tag) {
        result.finished = true;
        result.cancelled = true;
        deliver(&AdminClient::plainScanned, result);
        return;
    }
    result.error = guarded([&](delayq::Connection& c) {
        auto p = plainFor(c, result.key);
        if (!p)
            throw delayq::Error(delayq::ErrorCode::InvalidArgument,
                                "the plain key was closed during the search");
        auto step = p->scan(cursor, needle, count);
        cursor = step.cursor;
        result.scanned += step.scanned;
        for (const auto& m : step.matches) {
            if (found >= maxMatches) {
                result.capped = true;
                break;
            }
            result.matches.append(plainRow(m));
            ++found;
        }
    });
    result.complete = result.error.isEmpty() && cursor == "0";
    result.finished = !result.error.isEmpty() || result.complete || result.capped;
    deliver(&AdminClient::plainScanned, result);
    if (!result.finished)
        post([this, result, cursor, needle, maxMatches, count, found] {
            scanStep(result, cursor, needle, maxMatches, count, found);
        });
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
            if (auto p = plainFor(c, queue)) {
                result.total = set == TaskSetKind::Pending ? p->size() : 0;
                for (qint64 offset : offsets) {
                    QList<TaskRow> rows;
                    if (offset < result.total)
                        for (const auto& m : p->page(offset, limit))
                            rows.append(plainRow(m));
                    result.offsets.append(offset);
                    result.pages.append(rows);
                }
                return;
            }
            delayq::Queue q(c, ss(queue), ss(m_settings.prefix));
            result.total = q.size(toCore(set));
            for (qint64 offset : offsets) {
                QList<TaskRow> rows;
                if (offset < result.total) {
                    auto tasks = q.page(toCore(set), offset, limit);
                    rows.reserve(static_cast<qsizetype>(tasks.size()));
                    // Pages are cached: big payloads are cut, the details pane loads them whole.
                    for (const auto& t : tasks)
                        rows.append(toRow(t, kPagePayloadBytes));
                }
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
            if (auto p = plainFor(c, queue)) {
                result.pending = p->size();
                result.dueNow = p->dueNow();
                auto first = p->page(0, 1);
                result.earliest = first.empty() ? -1 : first.front().dueMs;
                result.serverNow = c.serverNowMs();
                return;
            }
            delayq::Queue q(c, ss(queue), ss(m_settings.prefix));
            auto counts = q.counts();
            result.pending = counts.pending;
            result.dueNow = counts.dueNow;
            result.active = counts.active;
            result.dead = counts.dead;
            result.earliest = q.earliest(delayq::TaskSet::Pending).value_or(-1);
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
            const auto plain = plainFor(c, queue);
            std::optional<delayq::Queue> native;
            if (!plain)
                native.emplace(c, ss(queue), ss(m_settings.prefix));
            auto dueBy = [&](long long ms) { return plain ? plain->dueBy(ms) : native->dueBy(ms); };
            const auto counts = plain ? plain->histogram(fromMs, toMs, buckets)
                                      : native->histogram(fromMs, toMs, buckets);
            for (long long n : counts)
                result.counts.append(n);
            result.overdue = dueBy(now);
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
                        qBound<qint64>(0, result.overdue - dueBy(lo - 1), result.counts.at(i));
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
            delayq::Queue q(c, ss(queue), ss(m_settings.prefix));
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
            if (auto p = plainFor(c, queue)) {
                const std::string member = MemberText::toBytes(id);
                auto score = c.command({"ZSCORE", p->key(), member});
                if (score.isNil())
                    return;
                result.found = true;
                result.set = TaskSetKind::Pending;
                result.task = plainRow({member, score.str, p->dueFromScore(score.str)});
                result.task.payload = QByteArray::fromStdString(member); // whole, not cut
                return;
            }
            delayq::Queue q(c, ss(queue), ss(m_settings.prefix));
            auto found = q.find(ss(id));
            if (!found)
                return;
            result.found = true;
            result.set = fromCore(found->first);
            result.task = toRow(found->second);
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
            if (auto p = plainFor(c, queue)) {
                long long size = p->size();
                result.row = size == 0 ? -1 : std::min(p->rankOfTime(ms), size - 1);
                return;
            }
            delayq::Queue q(c, ss(queue), ss(m_settings.prefix));
            long long size = q.size(toCore(set));
            long long rank = q.rankOfScore(toCore(set), ms);
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
            if (auto p = plainFor(c, queue)) {
                auto rank = c.command({"ZRANK", p->key(), MemberText::toBytes(id)});
                result.row = rank.isNil() ? -1 : rank.toInteger();
                return;
            }
            delayq::Queue q(c, ss(queue), ss(m_settings.prefix));
            auto found = q.find(ss(id));
            if (!found)
                return;
            result.set = fromCore(found->first);
            const auto& keys = q.keys();
            const std::string key = found->first == delayq::TaskSet::Pending  ? keys.pending()
                                    : found->first == delayq::TaskSet::Active ? keys.active()
                                                                              : keys.dead();
            auto rank = c.command({"ZRANK", key, ss(id)});
            result.row = rank.isNil() ? -1 : rank.toInteger();
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
            if (auto p = plainFor(c, spec.queue)) {
                // The payload is the member; one at a time, ZADD NX.
                const long long at =
                    spec.dueAtMs >= 0 ? spec.dueAtMs : result.serverNow + spec.delayMs;
                const auto added = p->push({spec.payload.toStdString()}, at);
                const bool created = !added.empty() && added.front();
                result.outcomes.append(
                    {MemberText::fromBytes(spec.payload.toStdString()),
                     created ? QStringLiteral("created") : QStringLiteral("exists"),
                     created ? at : -1});
                return;
            }
            delayq::Queue q(c, ss(spec.queue), ss(m_settings.prefix));
            std::vector<delayq::PushRequest> requests;
            const int count = std::max(1, spec.count);
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
            for (const auto& r : q.pushBatch(requests))
                result.outcomes.append(
                    {qs(r.id), QString::fromLatin1(delayq::pushStatusName(r.status)), r.due});
        });
        deliver(&AdminClient::actionFinished, result);
    });
}

void AdminClient::cancel(quint64 tag, const QString& queue, const QStringList& ids)
{
    post([this, tag, queue, ids] {
        ActionResult result{tag, QStringLiteral("cancel"), queue, {}, {}};
        result.error = guarded([&](delayq::Connection& c) {
            if (auto p = plainFor(c, queue)) {
                result.outcomes = plainOutcomes(ids, p->cancel(toMembers(ids)));
                return;
            }
            delayq::Queue q(c, ss(queue), ss(m_settings.prefix));
            result.outcomes = toOutcomes(q.cancel(toIds(ids)));
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
            if (auto p = plainFor(c, queue)) {
                const long long at = dueAtMs >= 0 ? dueAtMs : c.serverNowMs() + delayMs;
                result.outcomes = plainOutcomes(ids, p->reschedule(toMembers(ids), at));
                return;
            }
            delayq::Queue q(c, ss(queue), ss(m_settings.prefix));
            std::optional<long long> at;
            if (dueAtMs >= 0)
                at = dueAtMs;
            result.outcomes = toOutcomes(q.reschedule(toIds(ids), at, delayMs));
        });
        deliver(&AdminClient::actionFinished, result);
    });
}

void AdminClient::requeue(quint64 tag, const QString& queue, const QStringList& ids)
{
    post([this, tag, queue, ids] {
        ActionResult result{tag, QStringLiteral("requeue"), queue, {}, {}};
        result.error = guarded([&](delayq::Connection& c) {
            delayq::Queue q(c, ss(queue), ss(m_settings.prefix));
            result.outcomes = toOutcomes(q.requeue(toIds(ids)));
        });
        deliver(&AdminClient::actionFinished, result);
    });
}

void AdminClient::deleteDead(quint64 tag, const QString& queue, const QStringList& ids)
{
    post([this, tag, queue, ids] {
        ActionResult result{tag, QStringLiteral("delete-dead"), queue, {}, {}};
        result.error = guarded([&](delayq::Connection& c) {
            delayq::Queue q(c, ss(queue), ss(m_settings.prefix));
            result.outcomes = toOutcomes(q.deleteDead(toIds(ids)));
        });
        deliver(&AdminClient::actionFinished, result);
    });
}

void AdminClient::fillDemo(quint64 tag, const QString& queue, qint64 count, qint64 spreadMs,
                           bool lifecycle, int batch)
{
    post([this, tag, queue, count, spreadMs, lifecycle, batch] {
        qint64 done = 0;
        const QString error = guarded([&](delayq::Connection& c) {
            delayq::Queue q(c, ss(queue), ss(m_settings.prefix));
            const long long now = c.serverNowMs();
            static const char* kinds[] = {"send-reminder", "charge-card", "expire-cart",
                                          "retry-webhook", "close-order"};
            // A few overdue tasks so the timeline shows its overdue marking.
            const long long start = now - std::min<long long>(spreadMs / 50, 15 * 60000);
            std::vector<delayq::PushRequest> requests;
            requests.reserve(static_cast<size_t>(std::min<qint64>(count, batch)));
            for (qint64 i = 0; i < count; ++i) {
                delayq::PushRequest r;
                // Denser soon than later, like real reminder traffic.
                const double x = static_cast<double>(i) / static_cast<double>(count);
                r.dueAtMs = start + static_cast<long long>(x * x * static_cast<double>(spreadMs));
                r.payload = "{\"order\":" + std::to_string(100000 + i) + ",\"action\":\"" +
                            kinds[i % 5] + "\",\"customer\":\"c" + std::to_string(i % 997) + "\"}";
                requests.push_back(std::move(r));
                if (static_cast<int>(requests.size()) == batch || i + 1 == count) {
                    done += static_cast<qint64>(q.pushBatch(requests).size());
                    requests.clear();
                }
            }
            if (!lifecycle)
                return;
            // Due before everything else, so the claims below take exactly these.
            std::vector<delayq::PushRequest> early;
            for (int i = 0; i < 12; ++i) {
                delayq::PushRequest r;
                r.id = "webhook-" + std::to_string(i + 1);
                r.dueAtMs = start - 3600000 + i;
                r.maxAttempts = 1;
                r.payload = "{\"url\":\"https://partner.example/hook\",\"event\":\"order.paid\","
                            "\"order\":" +
                            std::to_string(90000 + i) + "}";
                early.push_back(std::move(r));
            }
            q.pushBatch(early);
            auto failed = q.claim(9, 60000, "demo-worker-1");
            for (const auto& t : failed.tasks)
                q.nack(t.id, t.token, "HTTP 503 from partner.example after 30s");
            // Leased for an hour: they stay in the active tab while the demo runs.
            q.claim(3, 3600000, "demo-worker-2");
            // A plain sorted set as the usual home-grown delay queues write it (member = the
            // message, score = due ms), for the "Plain sorted sets" group.
            delayq::PlainQueue plain(c, "orders:delay-queue",
                                     delayq::PlainQueue::ScoreUnit::Milliseconds);
            for (int i = 0; i < 300; ++i)
                plain.push({"{\"id\":\"" + delayq::sha1Hex(std::to_string(i)).substr(0, 8) +
                            "-demo\",\"msg\":\"close unpaid order " + std::to_string(5000 + i) +
                            "\"}"},
                           now + (i - 10) * 60000LL);
        });
        deliver(&AdminClient::demoFilled, tag, done, error);
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
    BulkActionResult result;
    result.tag = tag;
    result.action = action;
    result.queue = queue;
    result.total = limit;
    post([this, result, batch]() mutable {
        result.connection = m_connectionNumber;
        bulkStep(result, batch);
    });
}

// Runs on the I/O thread; one script call per step, and the next step is posted rather
// than looped, so a million-task purge does not hold up the requests queued behind it.
void AdminClient::bulkStep(BulkActionResult result, int batch)
{
    if (m_cancelledBulk.load() == result.tag) {
        result.cancelled = true;
        deliver(&AdminClient::bulkFinished, result);
        return;
    }
    // What was confirmed was counted on the server this started on, not on a new one.
    if (result.connection != m_connectionNumber) {
        result.error = tr("stopped: the app connected to another server meanwhile");
        deliver(&AdminClient::bulkFinished, result);
        return;
    }
    bool more = false;
    result.error = guarded([&](delayq::Connection& c) {
        delayq::Queue q(c, ss(result.queue), ss(m_settings.prefix));
        const int step = int(std::min<qint64>(batch, result.total - result.done));
        if (step < 1)
            return;
        // Each script replies with what it did and what is left, so a step is one call.
        const delayq::BulkResult done = result.action == BulkAction::Purge ? q.purge(step, 1)
                                        : result.action == BulkAction::RequeueDead
                                            ? q.requeueAll(step, 1)
                                            : q.deleteAllDead(step, 1);
        result.done += done.done;
        result.left = done.remaining;
        more = done.done > 0 && result.left > 0 && result.done < result.total;
    });
    if (result.error.isEmpty() && more) {
        deliver(&AdminClient::bulkProgressed, result.tag, result.done, result.total);
        post([this, result, batch] { bulkStep(result, batch); });
        return;
    }
    deliver(&AdminClient::bulkFinished, result);
}

} // namespace delayq::ui
