#pragma once

#include "client/requesterror.h"
#include "client/taskaction.h"
#include <delayq/task.h>

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

// The values of the task requests (TaskClient) that cross from the I/O thread to the GUI.
// Every result carries the tag of its request, so a view only takes its own answers.

namespace delayq::ui {

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
    // Fair order's tags (push --priority, --group): 0 and empty when pushed without them.
    int priority = 0;
    QString group;
    // When a claim would no longer start it (since 2.9, docs/design/bounds.md): its own
    // start-by time, else created + the queue's max_age; 0 when it never expires.
    qint64 expiresAt = 0;
};

struct PageResult
{
    quint64 tag = 0;
    QString queue;
    TaskSet set = TaskSet::Pending;
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

struct LocateResult
{
    quint64 tag = 0;
    QString queue;
    TaskSet set = TaskSet::Pending;
    qint64 row = -1; // -1: not found
    QString id;
    RequestError error;
};

struct TaskResult
{
    quint64 tag = 0;
    QString queue;
    bool found = false;
    TaskSet set = TaskSet::Pending;
    TaskRow task; // whole payload
    RequestError error;
};

// One event of a task's history (delayq/taskhistory.h), as the pane shows it.
struct TaskEventRow
{
    qint64 at = 0;
    QString kind;
    qint64 due = -1; // -1: none
    QString who;
    QString text;
};

struct TaskHistoryResult
{
    quint64 tag = 0;
    QString queue;
    QString id;
    QList<TaskEventRow> events; // oldest first
    bool finished = false;      // the task has left the queue
    RequestError error;
};

struct IdOutcome
{
    QString id;
    ActionOutcome outcome = ActionOutcome::Done;
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
    // cancel, delete dead: the recycle bin action that kept the tasks (Undo restores it)
    QString binAction;
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
    // Keep (docs/design/keep.md), as PushRequest has them: the id's dedup window (0: the
    // queue's), and debounce's maximum wait (0: off) and whether the payload moves too.
    qint64 dedupMs = 0;
    qint64 debounceMaxWaitMs = 0;
    bool debouncePayload = false;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::PageResult)
Q_DECLARE_METATYPE(delayq::ui::CountsResult)
Q_DECLARE_METATYPE(delayq::ui::LocateResult)
Q_DECLARE_METATYPE(delayq::ui::TaskHistoryResult)
Q_DECLARE_METATYPE(delayq::ui::TaskResult)
Q_DECLARE_METATYPE(delayq::ui::ActionResult)
