#pragma once

#include "client/overviewtypes.h"

#include <QCoreApplication>
#include <QList>
#include <QStringList>

#include <optional>

namespace delayq::ui {

// When an overview row needs the operator's eye: limits for all queues, and per-queue
// overrides, kept in QSettings. A row breaches a limit when its figure is above it; -1 turns
// a limit off.
class Thresholds
{
    Q_DECLARE_TR_FUNCTIONS(Thresholds)

public:
    struct Limits
    {
        qint64 overdueMs = 60000; // the consumers are more than a minute behind
        qint64 dead = 0;          // any dead task
        qint64 dueNow = -1;
        qint64 failedHour = -1;
        bool operator==(const Limits&) const = default;
    };

    static Limits defaults();
    static void setDefaults(const Limits& limits);
    static std::optional<Limits> queueOverride(const QString& queue);
    // nullopt removes the override: the queue follows the defaults again.
    static void setQueueOverride(const QString& queue, const std::optional<Limits>& limits);
    static Limits forQueue(const QString& queue);

    // The figures a limit applies to.
    enum class Figure
    {
        OldestOverdue,
        DueNow,
        Dead,
        FailedHour,
        Consumers // no live consumer with tasks due, or a stalled one: always on
    };
    struct Breach
    {
        Figure figure;
        QString text; // "dead 3 is above 0"
    };
    // Why the row is coloured: each limit it is above, with the figure that crossed it (the
    // overview marks that cell); empty when it is fine.
    static QList<Breach> breaches(const OverviewRow& row, const Limits& limits);
    // The limits in words, for the legend: "oldest overdue > 1m, dead > 0".
    static QString describe(const Limits& limits);
};

} // namespace delayq::ui
