#pragma once

#include <QMetaType>
#include <QString>

namespace delayq::ui {

// A queue-wide change the admin client runs in bounded steps.
enum class BulkAction
{
    RequeueDead,
    DeleteDead,
    Purge
};

struct BulkActionResult
{
    quint64 tag = 0;
    BulkAction action = BulkAction::Purge;
    QString queue;
    qint64 total = -1; // tasks it applied to when it started; -1 before the first step
    qint64 done = 0;
    bool cancelled = false;
    QString error;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::BulkActionResult)
