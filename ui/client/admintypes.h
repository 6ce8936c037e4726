#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

#include "client/requesterror.h"
#include "client/taskoutcome.h"

// Plain value types that cross from the I/O thread to the GUI thread in signals.
// Every result carries the tag of its request, so a view only takes its own answers.

namespace delayq::ui {

enum class TaskSetKind
{
    Pending = 0,
    Active = 1,
    Dead = 2
};

struct ConnectionSettings
{
    QString url; // may hold a password only for this session, never saved
    QString prefix = QStringLiteral("dq");
    bool readOnly = false;
    QString password;         // session only: overrides the URL's password when set
    QString sentinelPassword; // session only, never saved: the sentinels' own, if any
    QString tlsKeyPassphrase; // session only, never saved: an encrypted client key's

    // `url` with every other field at its default.
    static ConnectionSettings forUrl(const QString& url)
    {
        ConnectionSettings settings;
        settings.url = url;
        return settings;
    }
};

struct ServerInfo
{
    QString displayUrl; // password masked
    QString version;
    qint64 rttUs = 0;
    qint64 clockOffsetMs = 0; // server clock minus local clock
    bool readOnly = false;
    QString readOnlyReason;
    QString security;         // "TLSv1.3, TLS_AES_256_GCM_SHA384"; empty on a plain connection
    bool tlsInsecure = false; // TLS without certificate checks (insecure=1)
    QString serverAddress;    // host:port reached (through Sentinel: the master)
    QString sentinelGroup;    // "mymaster via s1:26379,s2:26379"; empty without Sentinel
    int masterChanges = 0;    // failovers this connection followed
    int clusterMasters = 0;   // on a Redis Cluster: the masters serving slots; 0 otherwise
};

struct TaskRow
{
    QString id;
    QByteArray payload; // in pages: at most the first 4 KiB (payloadSize tells the rest)
    qint64 payloadSize = 0;
    qint64 score = 0;
    qint64 due = 0;
    qint64 created = 0;
    int attempts = 0;
    int maxAttempts = 0;
    QString backoff;
    QString worker;
    QString lastError;
    QString state;
    bool broken = false;
};

struct QueueRow
{
    QString name;
    qint64 pending = 0;
    qint64 dueNow = 0;
    qint64 active = 0;
    qint64 dead = 0;
    QString node; // on a Redis Cluster: host:port of the master holding the queue's slot
};

struct QueueListResult
{
    quint64 tag = 0;
    QList<QueueRow> queues;
    RequestError error;
};

// A sorted set outside the delayq prefix whose scores look like due times.
struct PlainKeyRow
{
    QString key;
    QString unit; // "ms" | "s"
    qint64 size = 0;
};

struct PlainDiscoveryResult
{
    quint64 tag = 0;
    QList<PlainKeyRow> keys;
    bool complete = false; // the whole keyspace was scanned within the step budget
    RequestError error;
};

// One step of a search through a plain key's members; the GUI appends `matches`.
struct PlainScanResult
{
    quint64 tag = 0;
    QString key;
    QList<TaskRow> matches; // found in this step only
    qint64 scanned = 0;     // members read so far (ZSCAN may read a few twice)
    qint64 total = 0;       // the key's size when the search started
    bool finished = false;  // the last step: complete, capped, cancelled or failed
    bool complete = false;  // every member was read
    bool capped = false;    // stopped at the most matches one search shows
    bool cancelled = false;
    RequestError error;
};

struct PageResult
{
    quint64 tag = 0;
    QString queue;
    TaskSetKind set = TaskSetKind::Pending;
    qint64 total = 0;
    QList<qint64> offsets; // the first rank of each page
    QList<QList<TaskRow>> pages;
    RequestError error;
};

struct CountsResult
{
    quint64 tag = 0;
    QString queue;
    qint64 pending = 0;
    qint64 dueNow = 0;
    qint64 active = 0;
    qint64 dead = 0;
    qint64 earliest = -1; // due time of the earliest pending task, -1 when empty
    qint64 serverNow = 0;
    RequestError error;
};

struct HistogramResult
{
    quint64 tag = 0;
    QString queue;
    qint64 fromMs = 0;
    qint64 toMs = 0;
    QList<qint64> counts;
    qint64 serverNow = 0;
    // Tasks due at or before serverNow, in the whole set: the exact overdue count.
    qint64 overdue = 0;
    // The bucket that holds serverNow (-1: now is outside the window), and how many of its
    // tasks are due at or before now: the part of that bucket drawn as overdue.
    int nowBucket = -1;
    qint64 nowBucketOverdue = 0;
    qint64 elapsedUs = 0; // time spent on the I/O thread, for the measure mode
    RequestError error;
};

struct HistoryResult
{
    quint64 tag = 0;
    QString queue;
    qint64 fromMinute = 0;
    QList<qint64> acked;
    QList<qint64> failed; // retried + died
    RequestError error;
};

// One entry of a queue's audit trail (core AuditEntry); every text is untrusted.
struct AuditRow
{
    qint64 timeMs = 0; // server clock
    QString action;
    qint64 count = 0;
    QStringList ids;
    QString detail;
    QString user; // ACL user
    QString osUser;
    QString host;
    QString tool; // with its version
};

struct AuditResult
{
    quint64 tag = 0;
    QString queue;
    QList<AuditRow> rows; // newest first
    RequestError error;
};

struct LocateResult
{
    quint64 tag = 0;
    QString queue;
    TaskSetKind set = TaskSetKind::Pending;
    qint64 row = -1; // -1: not found
    QString id;
    RequestError error;
};

struct TaskResult
{
    quint64 tag = 0;
    QString queue;
    bool found = false;
    TaskSetKind set = TaskSetKind::Pending;
    TaskRow task; // whole payload
    RequestError error;
};

struct IdOutcome
{
    QString id;
    TaskOutcome outcome = TaskOutcome::Done;
    qint64 due = -1; // push: the task's due time (ms), -1 when not known
};

struct ActionResult
{
    quint64 tag = 0;
    TaskAction action = TaskAction::Push;
    QString queue;
    QList<IdOutcome> outcomes;
    RequestError error;
    qint64 serverNow = 0; // push: when it ran, for "due in 45m"
};

// One node of a Redis Cluster, for the Server view.
struct ServerNodeRow
{
    QString address;
    bool master = false;
    QString masterAddress; // a replica's master
    QString slotRanges;    // "0-5460, 10923" for a master; empty for a replica
    int slotCount = 0;
    bool reachable = false;
};

struct ServerResult
{
    quint64 tag = 0;
    bool cluster = false;
    QString displayUrl;
    QList<ServerNodeRow> nodes; // empty when not a cluster
    RequestError error;
};

struct PushSpec
{
    QString queue;
    QByteArray payload;
    qint64 dueAtMs = -1; // absolute; -1: delayMs from server now
    qint64 delayMs = 0;
    QString id; // empty: generated; with count > 1 it gets "-1", "-2", ...
    int maxAttempts = 0;
    QString backoff;
    int count = 1;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::ConnectionSettings)
Q_DECLARE_METATYPE(delayq::ui::ServerInfo)
Q_DECLARE_METATYPE(delayq::ui::QueueListResult)
Q_DECLARE_METATYPE(delayq::ui::PlainDiscoveryResult)
Q_DECLARE_METATYPE(delayq::ui::PlainScanResult)
Q_DECLARE_METATYPE(delayq::ui::PageResult)
Q_DECLARE_METATYPE(delayq::ui::CountsResult)
Q_DECLARE_METATYPE(delayq::ui::HistogramResult)
Q_DECLARE_METATYPE(delayq::ui::HistoryResult)
Q_DECLARE_METATYPE(delayq::ui::LocateResult)
Q_DECLARE_METATYPE(delayq::ui::AuditResult)
Q_DECLARE_METATYPE(delayq::ui::ActionResult)
Q_DECLARE_METATYPE(delayq::ui::TaskResult)
Q_DECLARE_METATYPE(delayq::ui::ServerResult)
