#pragma once

#include <QMetaType>
#include <QString>

#include "client/requesterror.h"

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
    qint64 total = 0; // the count the user confirmed: the change stops there
    qint64 done = 0;
    qint64 left = 0; // still there at the end: arrived (or died) while it ran, or cancelled
    bool cancelled = false;
    RequestError error;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::BulkActionResult)
