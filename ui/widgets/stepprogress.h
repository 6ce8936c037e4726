#pragma once

#include <QString>
#include <QtGlobal>

class QProgressDialog;
class QWidget;

namespace delayq::ui {

// The progress dialog of a job that runs in bounded steps (a queue-wide change, an export).
namespace StepProgress {

// Busy until the first step tells the total, left open when it ends (the caller closes
// it with the result), not modal so the operator can watch the queue meanwhile, and only
// shown once the job takes half a second. The caller sets the label and starts it.
QProgressDialog* make(QWidget* window, const QString& title, const QString& cancelText);
// What a step reports: `done` of `total` (capped to what the bar holds) and the label.
// Nothing on a dialog gone or cancelled: that one says it is stopping.
void step(QProgressDialog* progress, qint64 done, qint64 total, const QString& label);

} // namespace StepProgress

} // namespace delayq::ui
