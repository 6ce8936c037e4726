#pragma once

#include "client/exporttypes.h"
#include "client/steppedjob.h"

#include <functional>

namespace delayq::ui {

class IoWorker;

// Export… as a stepped job on the I/O thread: each step reads one bounded window (500 tasks,
// each read whole in one transaction, core's TaskExport; 1,000 plain members) and appends
// its lines to a QSaveFile, which replaces the file only when the last step succeeded.
namespace ExportSteps {

SteppedJob job(IoWorker* io, quint64 tag, const ExportRequest& request,
               std::function<bool()> cancelled, std::function<void(const ExportResult&)> progressed,
               std::function<void(const ExportResult&)> finished);

} // namespace ExportSteps

} // namespace delayq::ui
