#pragma once

#include "client/requesterror.h"
#include "client/taskaction.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

// The values of the queue requests (QueueClient: the list of queues, their settings, their
// audit trail and the queue-wide changes) that cross from the I/O thread to the GUI.

namespace delayq::ui {

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

struct BulkActionResult
{
    quint64 tag = 0;
    TaskAction action = TaskAction::Purge;
    QString queue;
    qint64 total = 0; // the count the user confirmed: the change stops there
    qint64 done = 0;
    qint64 left = 0; // still there at the end: arrived (or died) while it ran, or cancelled
    bool cancelled = false;
    RequestError error;
    QString binAction; // purge, delete dead: the recycle bin action of every step (Undo)
};

// The settings of one queue as Redis holds them (the stored ms forms).
struct QueueConfigResult
{
    quint64 tag = 0;
    QString queue;
    int maxAttempts = 5;
    QString backoff; // normalized: "5000,20000,30000" or "exp:1000:300000"
    qint64 leaseMs = 30000;
    qint64 maxPayload = 1024 * 1024;
    int history = 0; // events kept per task; 0 = off
    bool paused = false;
    // Flow limits (issue 51), 0 = off: rateTasks started per rateMs, burst (0 = rateTasks),
    // cap (tasks active at once).
    qint64 rateTasks = 0;
    qint64 rateMs = 0;
    qint64 burst = 0;
    qint64 cap = 0;
    bool fair = false;         // order "fair": groups in turn, then priority
    qint64 groupCap = 0;       // tasks of one group active at once, 0 = off
    qint64 groupRateTasks = 0; // each group: at most this many started per groupRateMs, 0 = off
    qint64 groupRateMs = 0;
    // Dead tasks bounded and expiry (docs/design/bounds.md), 0 = off.
    qint64 deadMax = 100000;
    qint64 deadMaxBytes = 64LL * 1024 * 1024;
    qint64 maxAgeMs = 0;
    bool expiredToDrop = false;
    // The dedup window (docs/design/keep.md, 0 = off) and the recycle bin (docs/design/bin.md,
    // any 0 = off).
    qint64 dedupWindowMs = 0;
    qint64 dedupMax = 1000000;
    qint64 binKeepMs = 86400000;
    qint64 binMax = 100000;
    qint64 binBytes = 64LL * 1024 * 1024;
    bool written = false; // the answer to a write (else to a read)
    RequestError error;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::QueueListResult)
Q_DECLARE_METATYPE(delayq::ui::AuditResult)
Q_DECLARE_METATYPE(delayq::ui::BulkActionResult)
Q_DECLARE_METATYPE(delayq::ui::QueueConfigResult)
