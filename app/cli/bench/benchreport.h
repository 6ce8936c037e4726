#pragma once

#include "bench/benchfigures.h"
#include "output/jsonwriter.h"

#include <string>

namespace cli {

// "12345/s" and "4.2 µs": the figures of every bench mode's table.
std::string rateText(double perSecond);
std::string microsText(double us);
// "4.2x" (ours over theirs; "-" without theirs) and "12.3" (seconds).
std::string ratioText(double ours, double theirs);
std::string secondsText(double seconds);
// {"tasks", "per_s", "cpu_us_per_task", "first_ms" when measured}: one phase for --json.
void writePhase(JsonWriter& j, const PhaseFigures& p);

// What `delayq bench` prints: one table of every figure with the ratios to the seed designs.
std::string benchText(const BenchSettings& settings, const BenchFigures& figures);
// The same figures, and a few more, for scripts (scripts/bench-peers reads it).
JsonWriter benchJson(const BenchSettings& settings, const BenchFigures& figures);

} // namespace cli
