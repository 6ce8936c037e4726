#pragma once

#include <delayq/worker.h>

#include <QString>

namespace delayq::ui {

// The embedded worker's counters as the dock shows them, three lines in a fixed font:
// claimed, acked, failed, retried, dead, lease lost, in flight and the lateness quantiles.
namespace WorkerCountersText {

QString describe(const delayq::WorkerCounters& counters);

} // namespace WorkerCountersText

} // namespace delayq::ui
