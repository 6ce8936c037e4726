#pragma once

#include "client/tasktypes.h"

#include <QString>
#include <QStringList>

namespace delayq::ui {

// The one sentence the status bar and the result box give for a task action.
namespace ActionSummary {

// "Cancelled 3 of 5 tasks in queue orders. 2 were already running and were not changed."
// One pushed task is named with its due time: "Pushed 01J… due 06:24:57, in 45m".
QString of(const ActionResult& result, bool utc = false);
// "id: outcome" for each id that did not go through, at most 200 of them.
QStringList failures(const ActionResult& result);

} // namespace ActionSummary

} // namespace delayq::ui
