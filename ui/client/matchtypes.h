#pragma once

#include "client/tasktypes.h"
#include <delayq/taskscan.h>

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace delayq::ui {

// The tasks of one set a filter selects: those holding `text` (when not empty) in their
// payload or last error, scored (due, lease deadline or died) within [fromMs, toMs] where
// those are >= 0. The selection "all tasks that match" of the find bar and of bulk actions.
struct MatchFilter
{
    TaskSet set = TaskSet::Pending;
    QString text;
    delayq::ScanField field = delayq::ScanField::Payload;
    qint64 fromMs = -1; // -1: no earliest time
    qint64 toMs = -1;   // -1: no latest time
};

// One step of a stepped scan of a native queue (search, or the count before a bulk action).
struct MatchScanResult
{
    quint64 tag = 0;
    QString queue;
    MatchFilter filter;
    QList<TaskRow> matches; // search: found in this step only
    QStringList ids;        // count: every id found, with the last report only
    qint64 found = 0;       // matches so far
    qint64 read = 0;        // tasks read so far
    qint64 total = 0;       // tasks of the set within the filter's times when the scan started
    bool finished = false;  // the last report: complete, capped, cancelled or failed
    bool complete = false;  // the whole set was read
    bool capped = false;    // stopped at the most matches one scan keeps
    bool cancelled = false;
    RequestError error;
};

// What a bulk action on a list of ids did so far (and, when finished, in all).
struct MatchApplyResult
{
    quint64 tag = 0;
    QString queue;
    TaskAction action = TaskAction::Cancel;
    qint64 total = 0;   // the ids confirmed: the action never goes past them
    qint64 done = 0;    // the action did what was asked
    qint64 gone = 0;    // no longer there (deleted, acked or moved away meanwhile)
    qint64 running = 0; // a worker holds it now
    qint64 other = 0;   // in another set now (died, or requeued, meanwhile)
    bool finished = false;
    bool cancelled = false;
    RequestError error;
    QString binAction; // cancel, delete dead: the recycle bin action of every step (Undo)

    qint64 processed() const { return done + gone + running + other; }
};

// Which of a search's listed matches are no longer in the searched set (MatchClient::check).
struct MatchCheckResult
{
    quint64 tag = 0;
    QString queue;
    TaskSet set = TaskSet::Pending;
    QStringList gone;       // in no set: acked, cancelled or deleted
    QStringList moved;      // in another set now ...
    QList<TaskSet> movedTo; // ... this one, one per id of `moved`
    QStringList still;      // still in `set` ...
    QList<qint64> scores;   // ... with this score now (a reschedule moves a due time)
    RequestError error;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::MatchCheckResult)
Q_DECLARE_METATYPE(delayq::ui::MatchScanResult)
Q_DECLARE_METATYPE(delayq::ui::MatchApplyResult)
