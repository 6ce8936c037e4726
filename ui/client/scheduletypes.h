#pragma once

#include "client/requesterror.h"
#include <delayq/schedule.h>

#include <QList>
#include <QMetaType>
#include <QString>

// The values of the schedule requests (ScheduleClient: a native queue's recurring schedules,
// docs/schedules.md) that cross from the I/O thread to the GUI. The rules stay core values:
// the GUI computes their fires itself (ScheduleRule::nextFire, no Redis), and a payload goes
// back on an edit byte for byte.

namespace delayq::ui {

struct ScheduleListResult
{
    quint64 tag = 0;
    QString queue;
    QList<delayq::ScheduleInfo> schedules; // by name
    qint64 serverNow = 0;
    RequestError error;
};

// What a change asked for.
enum class ScheduleChange
{
    Add,
    Edit,
    Pause,
    Resume,
    Remove,
    RunNow,
    Backfill
};

struct ScheduleChangeResult
{
    quint64 tag = 0;
    QString queue;
    QString name;
    ScheduleChange change = ScheduleChange::Add;
    // Edit: the schedule was changed by another client since the version the edit read, so
    // nothing was written.
    bool conflict = false;
    // Remove: there was no such schedule.
    bool missing = false;
    // RunNow: the task's id, and whether this request made it (false: it had run already).
    // Backfill: the window's fires, the tasks made and the fires made before.
    QString taskId;
    qint64 fires = 0;
    qint64 made = 0;
    qint64 already = 0;
    RequestError error;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::ScheduleListResult)
Q_DECLARE_METATYPE(delayq::ui::ScheduleChangeResult)
