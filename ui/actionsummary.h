#pragma once

#include "admintypes.h"

#include <QString>

namespace delayq::ui {

// The one sentence the status bar and the result box give for a task action.
class ActionSummary
{
public:
    // "Cancelled 3 of 5 tasks in queue orders. 2 were already running and were not changed."
    // One pushed task is named with its due time: "Pushed 01J… due 06:24:57, in 45m".
    static QString of(const ActionResult& result, bool utc = false);
};

} // namespace delayq::ui
