#pragma once

#include "client/admintypes.h"

#include <QList>
#include <QMetaType>
#include <QString>

// Values of the overview and the queue settings that cross from the I/O thread to the GUI.

namespace delayq::ui {

// One line of the overview: a native queue, or a plain sorted set (plain = true), for which
// only pending, due now and oldest overdue apply (it has no active or dead set, no config
// and no counters).
struct OverviewRow
{
    QString name;
    bool plain = false;
    QString unit; // plain keys: "ms" | "s"
    QString node; // on a Redis Cluster: the master holding the slot
    qint64 pending = 0;
    qint64 dueNow = 0;
    qint64 oldestOverdueMs = 0;
    qint64 active = 0;
    qint64 dead = 0;
    bool paused = false;
    qint64 ackedMinute = 0;
    qint64 failedMinute = 0; // died + retried
    qint64 ackedHour = 0;
    qint64 failedHour = 0;
    QList<qint64> ackedSeries; // the last 60 minutes, oldest first
    QList<qint64> failedSeries;
};

struct OverviewResult
{
    quint64 tag = 0;
    QList<OverviewRow> rows;
    qint64 skipped = 0; // registered names that are no queue, or keys of another type
    RequestError error;
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
    bool paused = false;
    bool written = false; // the answer to a write (else to a read)
    RequestError error;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::OverviewResult)
Q_DECLARE_METATYPE(delayq::ui::QueueConfigResult)
