#pragma once

#include <delayq/worker.h>

#include <atomic>
#include <memory>

namespace delayq::ui {

// The embedded worker's stand-in for real work: each task takes sleepMs, then is acked,
// failed with probability failProbability, or never acked (abandon: its lease runs out).
// Setting *abort ends a long sleep at once (the window closes) with a failure.
namespace SimulatedHandler {

delayq::Handler make(bool abandon, double failProbability, int sleepMs,
                     std::shared_ptr<std::atomic<bool>> abort);

} // namespace SimulatedHandler

} // namespace delayq::ui
