#pragma once

#include "client/requesterror.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

// The values of the recycle bin requests (BinClient) that cross from the I/O thread to the GUI.

namespace delayq::ui {

// One removal whose tasks can still be restored (core BinAction); texts are untrusted.
struct BinRow
{
    QString action; // the action id
    QString kind;   // cancel | purge | delete
    qint64 tasks = 0;
    qint64 removedMs = 0; // server clock
    QString auditEntry;   // the audit entry of its first call ("" without one)
};

struct BinListResult
{
    quint64 tag = 0;
    QString queue;
    QList<BinRow> rows; // newest first
    RequestError error;
};

struct BinRestoreResult
{
    quint64 tag = 0;
    QString queue;
    QString action; // empty: everything in the bin
    qint64 restored = 0;
    QStringList exists; // refused: a task with the id is in the queue again
    qint64 gone = 0;    // no longer in the bin (past bin_keep, dropped, restored already)
    RequestError error;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::BinListResult)
Q_DECLARE_METATYPE(delayq::ui::BinRestoreResult)
