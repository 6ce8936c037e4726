#include "bench/seedbench.h"
#include "bench/benchdrainclock.h"

#include <delayq/connection.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>

namespace cli {

namespace {

using Clock = std::chrono::steady_clock;

// A seed design keeps the message itself as the member: the index keeps equal ones apart.
std::string member(long long i)
{
    return benchPayload(i) + "#" + std::to_string(i);
}

} // namespace

SeedBench::SeedBench(SeedDesign::Kind kind, delayq::ConnectionOptions options,
                     BenchSettings settings, std::string stem, ServerMeter& meter,
                     std::function<void(const std::string&)> progress)
    : m_kind(kind), m_options(std::move(options)), m_settings(settings), m_stem(std::move(stem)),
      m_meter(meter), m_progress(std::move(progress)), m_label(SeedDesign(kind, {}).label())
{}

DesignFigures SeedBench::run()
{
    DesignFigures d;
    d.label = m_label;
    d.kind = m_kind == SeedDesign::Kind::RangeThenRem ? "range_then_rem" : "lua_pop";
    d.claim = claim();
    d.drain = drain();
    d.lateness = lateness(d.latenessCpuUsPerTask);
    d.memory = memory();
    return d;
}

void SeedBench::fill(const std::string& key, long long tasks, long long dueMs,
                     const std::function<std::string(long long)>& memberOf)
{
    delayq::Connection conn(m_options);
    const std::string due = std::to_string(dueMs < 0 ? conn.serverNowMs() : dueMs);
    for (long long done = 0; done < tasks;) {
        const long long n = std::min<long long>(1000, tasks - done);
        std::vector<std::string> zadd = {"ZADD", key};
        for (long long i = 0; i < n; ++i) {
            zadd.push_back(due);
            zadd.push_back(memberOf(done + i));
        }
        conn.command(zadd);
        done += n;
    }
}

SeedDesign SeedBench::preparedDesign(const std::string& key) const
{
    SeedDesign design(m_kind, key);
    delayq::Connection conn(m_options);
    design.prepare(conn);
    return design;
}

void SeedBench::runConsumers(const std::function<void(delayq::Connection&)>& consume,
                             const std::function<void()>& meanwhile) const
{
    std::vector<std::thread> threads;
    for (int t = 0; t < m_settings.threads; ++t) {
        threads.emplace_back([&] {
            delayq::Connection c(m_options);
            consume(c);
        });
    }
    if (meanwhile)
        meanwhile();
    for (auto& t : threads)
        t.join();
}

PhaseFigures SeedBench::claim()
{
    const std::string& key = m_stem;
    const long long tasks = m_settings.seedTasks;
    m_progress("claim, " + m_label + ": " + std::to_string(tasks) + " tasks, " +
               std::to_string(m_settings.threads) + " threads");
    const SeedDesign design = preparedDesign(key);
    fill(key, tasks, -1, member);
    std::atomic<long long> taken{0};
    std::atomic<long long> lastTakenUs{0};
    const double cpuBefore = m_meter.cpuSeconds();
    const auto start = Clock::now();
    runConsumers([&](delayq::Connection& c) {
        consumeUntil(c, design, tasks, taken, [&] {
            lastTakenUs =
                std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
        });
    });
    // Up to the last take: a consumer that found the set empty at the end sleeps, which is
    // not the design's throughput.
    return m_meter.phase(cpuBefore, taken, static_cast<double>(lastTakenUs) / 1e6);
}

PhaseFigures SeedBench::drain()
{
    return BenchDrainClock::withLead(
        m_settings.drainTasks, [this](long long lead, bool& late) { return drainOnce(lead, late); },
        m_progress);
}

PhaseFigures SeedBench::drainOnce(long long leadMs, bool& late)
{
    const std::string key = m_stem + ":drain";
    const long long tasks = m_settings.drainTasks;
    m_progress("drain, " + m_label + ": " + std::to_string(tasks) +
               " members falling due at once, " + std::to_string(m_settings.threads) +
               " consumers");
    const SeedDesign design = preparedDesign(key);
    long long now = 0;
    {
        delayq::Connection conn(m_options);
        now = conn.serverNowMs();
    }
    const long long offsetMs = now - BenchDrainClock::localNowMs();
    BenchDrainClock clock(now + leadMs, offsetMs);
    fill(key, tasks, clock.dueAtMs(), member);
    late = BenchDrainClock::localNowMs() + offsetMs >= clock.dueAtMs();
    std::atomic<long long> taken{0};
    const double cpuBefore = m_meter.cpuSeconds();
    // The consumers start before the members fall due and poll as the design does, so its
    // sleep when nothing is due is part of the drain, as it is in production. Each starts at
    // a random point of its sleep, as consumers started at any time would be: a fixed start
    // would fix how long after the due time the first poll comes.
    runConsumers([&](delayq::Connection& c) {
        std::mt19937 random(std::random_device{}());
        const auto sleep = design.idleSleep().count();
        std::this_thread::sleep_for(std::chrono::milliseconds(
            std::uniform_int_distribution<long long>(0, sleep - 1)(random)));
        consumeUntil(c, design, tasks, taken, [&] { clock.finished(); });
    });
    return clock.figures(m_meter, cpuBefore, taken);
}

void SeedBench::consumeUntil(delayq::Connection& c, const SeedDesign& design, long long tasks,
                             std::atomic<long long>& taken,
                             const std::function<void()>& onTaken) const
{
    std::string takenMember;
    long long score = 0;
    while (taken < tasks) {
        const auto result = design.take(c, c.serverNowMs(), takenMember, score);
        if (result == SeedDesign::Take::Taken) {
            ++taken;
            onTaken();
        } else if (result == SeedDesign::Take::Empty && taken < tasks) {
            std::this_thread::sleep_for(design.idleSleep());
        }
    }
}

LatenessFigures SeedBench::lateness(double& cpuUsPerTask)
{
    const std::string key = m_stem + ":late";
    m_progress("lateness, " + m_label + ": " + std::to_string(m_settings.rate) + " tasks/s for " +
               std::to_string(m_settings.durationMs) + " ms");
    const SeedDesign design = preparedDesign(key);
    const double cpuBefore = m_meter.cpuSeconds();
    std::mutex mutex;
    std::vector<long long> lateness;
    bool producing = true;
    long long expected = -1;
    long long total = 0;
    auto consume = [&](delayq::Connection& c) {
        std::string taken;
        long long score = 0;
        for (;;) {
            const auto result = design.take(c, c.serverNowMs(), taken, score);
            if (result == SeedDesign::Take::Taken) {
                std::lock_guard lock(mutex);
                lateness.push_back(std::max(0LL, c.serverNowMs() - score));
                continue;
            }
            if (result == SeedDesign::Take::LostRace)
                continue;
            {
                std::lock_guard lock(mutex);
                if (!producing && static_cast<long long>(lateness.size()) >= expected)
                    return;
            }
            std::this_thread::sleep_for(design.idleSleep());
        }
    };
    runConsumers(consume, [&] {
        delayq::Connection conn(m_options);
        total =
            pacedPushes(m_settings.rate, m_settings.durationMs, [&](long long i, long long delay) {
                conn.command({"ZADD", key, std::to_string(conn.serverNowMs() + delay), member(i)});
            });
        std::lock_guard lock(mutex);
        expected = total;
        producing = false;
    });
    cpuUsPerTask = m_meter.cpuUsPerTask(cpuBefore, total);
    return latenessOf(lateness);
}

MemoryFigures SeedBench::memory()
{
    m_progress("memory, " + m_label + ": " + std::to_string(m_settings.memoryTasks) +
               " pending tasks");
    MemoryFigures f;
    f.tasks = m_settings.memoryTasks;
    f.payloadBytes = kMemoryPayloadBytes;
    // Due in a day: nothing takes them, and the set holds what a waiting backlog holds.
    long long due = 0;
    {
        delayq::Connection conn(m_options);
        due = conn.serverNowMs() + 86'400'000;
    }
    // fill() closes its connection, so the reading after holds the members and no client.
    const long long before = m_meter.usedMemory();
    fill(m_stem + ":memory", f.tasks, due, memoryPayload);
    f.bytesPerTask =
        static_cast<double>(m_meter.usedMemory() - before) / static_cast<double>(f.tasks);
    return f;
}

} // namespace cli
