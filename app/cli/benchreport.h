#pragma once

#include "benchfigures.h"
#include "jsonwriter.h"

#include <string>

namespace cli {

// "12345/s" and "4.2 µs": the figures of every bench mode's table.
std::string rateText(double perSecond);
std::string microsText(double us);

// What `delayq bench` prints: one table of every figure with the ratios to the seed designs.
std::string benchText(const BenchSettings& settings, const BenchFigures& figures);
// The same figures, and a few more, for scripts (scripts/bench-peers reads it).
JsonWriter benchJson(const BenchSettings& settings, const BenchFigures& figures);

} // namespace cli
