#pragma once

#include "client/requesterror.h"
#include "client/tasktypes.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace delayq::ui {

// What Export… writes (docs/admin.md, "Export"): the tasks of a queue, of some of its sets,
// or with the given ids, as the JSON lines `delayq import` reads; a plain key's members.
struct ExportRequest
{
    QString queue;
    bool plain = false;  // queue names a plain sorted set: every member with its score
    QList<TaskSet> sets; // the sets to read, in this order (ignored when ids are given)
    QStringList ids;     // only these tasks (the selection); empty: the sets
    QString match;       // only tasks whose id or payload contains it (as UTF-8 bytes)
    QString path;        // the file, replaced only once the export is complete
};

struct ExportResult
{
    quint64 tag = 0;
    QString queue;
    QString path;
    qint64 written = 0; // lines in the file
    qint64 total = 0;   // tasks the sets held when it started (progress), or ids asked for
    qint64 broken = 0;  // listed ids without readable data, left out
    bool cancelled = false;
    RequestError error;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::ExportResult)
