#pragma once

#include "bench/benchfigures.h"
#include "bench/seeddesign.h"
#include "bench/servermeter.h"

#include <delayq/connectionoptions.h>

#include <atomic>
#include <functional>
#include <string>

namespace cli {

// The phases of one seed design, each on its own sorted set under `stem`, measured the way
// Bench measures delayq's (same threads, rate, Redis CPU and memory readings).
class SeedBench
{
public:
    SeedBench(SeedDesign::Kind kind, delayq::ConnectionOptions options, BenchSettings settings,
              std::string stem, ServerMeter& meter,
              std::function<void(const std::string&)> progress);

    // Claim throughput on `tasks` due members, drain, lateness, memory.
    DesignFigures run();

private:
    // `threads` consumers take seedTasks members, all due when they start.
    PhaseFigures claim();
    // `threads` consumers, already polling, take drainTasks members that fall due at once
    // (timed as BenchDrainClock says).
    PhaseFigures drain();
    // One drain whose members fall due leadMs from now; late: they fell due before the fill
    // ended.
    PhaseFigures drainOnce(long long leadMs, bool& late);
    // Takes members until `taken` reaches `tasks`, sleeping as the design does when none is
    // due; onTaken after each take.
    void consumeUntil(delayq::Connection& c, const SeedDesign& design, long long tasks,
                      std::atomic<long long>& taken, const std::function<void()>& onTaken) const;
    LatenessFigures lateness(double& cpuUsPerTask);
    MemoryFigures memory();
    // The design on `key`, its script loaded on a connection closed before it returns.
    SeedDesign preparedDesign(const std::string& key) const;
    // consume on `threads` threads, each on a connection of its own, and meanwhile (the
    // producer, if any) on this one; returns when all have ended.
    void runConsumers(const std::function<void(delayq::Connection&)>& consume,
                      const std::function<void()>& meanwhile = {}) const;
    // ZADDs members (due at dueMs) in batches of 1,000 on one connection that it closes.
    void fill(const std::string& key, long long tasks, long long dueMs,
              const std::function<std::string(long long)>& member);

    SeedDesign::Kind m_kind;
    delayq::ConnectionOptions m_options;
    BenchSettings m_settings;
    std::string m_stem;
    ServerMeter& m_meter;
    std::function<void(const std::string&)> m_progress;
    std::string m_label;
};

} // namespace cli
