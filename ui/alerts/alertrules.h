#pragma once

#include "client/overviewtypes.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>

namespace delayq::ui {

// One change of an alert: a condition of a queue (or a whole server) that started or ended.
// The texts carry a queue name and figures only, never a payload or a password.
struct AlertChange
{
    QString server; // how the operator knows it: the profile's name, or the URL without password
    QString queue;  // empty: the server itself (unreachable)
    // "overdue", "dead", "no_consumer", "stalled", "paused", "unreachable", "forecast"
    QString condition;
    bool raised = true; // false: back to normal
    QString summary;
    QString body;
};

// Decides when to alert (docs/admin.md, "Alerts"): fed every reading of every watched
// server, it raises one change per queue and condition when the condition starts and one when
// it ends, never a repeat while it lasts. The conditions are the overview's: oldest overdue
// and dead above their thresholds, no consumer, a stalled consumer, and a queue paused for
// longer than pausedLimitMs; the forecast peak above the oldest-overdue threshold (said
// before the peak, issue 54); and a server that cannot be read.
class AlertRules
{
    Q_DECLARE_TR_FUNCTIONS(AlertRules)

public:
    static constexpr qint64 kDefaultPausedLimitMs = 30 * 60 * 1000;
    void setPausedLimit(qint64 ms) { m_pausedLimitMs = ms; }

    // A reading of the server's queues at nowMs (the app's clock). A pause lasts from the time
    // Redis keeps for it (row.pausedForMs), else from when a reading first saw it. A queue no
    // longer listed ends its conditions without a change: it is gone.
    QList<AlertChange> read(const QString& server, const QList<OverviewRow>& rows, qint64 nowMs);
    QList<AlertChange> unreachable(const QString& server, const QString& reason);
    // A server is no longer watched: its conditions end without a change.
    void forget(const QString& server);
    bool isRaised(const QString& server, const QString& queue, const QString& condition) const;

private:
    struct Condition
    {
        QString name;
        QString text;
    };
    QList<Condition> conditionsOf(const QString& server, const OverviewRow& row, qint64 nowMs);
    // "orders will run 11m late at 09:04" while the forecast peak is above the queue's
    // oldest-overdue limit; no text when it is not. For a row whose forecast is known.
    static Condition forecastOf(const OverviewRow& row);
    // Raises or ends `key`'s condition; appends the change, if any. `now`: the figures of
    // this reading, said when the condition ends (not those of when it began).
    void set(const QString& server, const QString& queue, const Condition& condition, bool on,
             QList<AlertChange>& out, const QString& now = {});
    // What an ended condition was, in words ("no consumer"), and its figures in `row` now.
    static QString label(const QString& condition);
    static QString figuresNow(const QString& condition, const OverviewRow& row);

    qint64 m_pausedLimitMs = kDefaultPausedLimitMs;
    QHash<QString, QString> m_raised;     // server \x1f queue \x1f condition -> its text
    QHash<QString, qint64> m_pausedSince; // server \x1f queue -> first seen paused
};

} // namespace delayq::ui
