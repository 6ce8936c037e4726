#pragma once

#include <QString>
#include <QtGlobal>

namespace delayq::ui {

// Due times as an operator reads them, and the delays they type.
namespace DueText {

// "06:24:57, in 45m" today, "2026-12-02 06:24:57, in 1d" on another day, with " UTC"
// after the time when utc; "3m overdue" and "now" for times already due.
QString describe(qint64 dueMs, qint64 nowMs, bool utc);
// A moment that passed, such as a task's death: "22:30:23, 21m 53s ago" (the same time
// text as describe()). Never "overdue": nothing is owed by a dead task.
QString describePast(qint64 ms, qint64 nowMs, bool utc);
// "21m 53s ago" / "now", to the second; a time ahead of nowMs reads as relative() does.
QString ago(qint64 ms, qint64 nowMs);
// A delay such as "30s", "1h30m" or "in 2h" (the field is labelled "In"). Empty text is
// refused: a push or reschedule has no silent default of "now". Throws delayq::Error.
qint64 parseDelay(const QString& text);
// A duration in the app's language, at most the two largest adjacent units: "3m 20s",
// "1d 1h", "250ms" in English (as delayq::formatDuration), "3分钟20秒" in Chinese.
QString duration(qint64 ms);
// A duration in milliseconds, whatever its size: "60,400ms" (when duration() would round two
// different figures to the same text).
QString milliseconds(qint64 ms);
// "in 3m 20s" / "2m overdue" / "now", to the second (as delayq::formatRelative).
QString relative(qint64 ms, qint64 nowMs);
// An active task's lease deadline: "in 25s" while it holds, "expired 3m ago, waiting for a
// reap" once it has passed (its worker died or hung; a reap hands the task on).
QString lease(qint64 deadlineMs, qint64 nowMs);
// The local zone for headers and the status bar: "CET, UTC+1" (or "UTC").
QString zoneName(bool utc);

} // namespace DueText

} // namespace delayq::ui
