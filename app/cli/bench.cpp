#include "bench.h"

#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/taskid.h>
#include <delayq/worker.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace cli {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

LatenessFigures figures(std::vector<long long> values)
{
    LatenessFigures f;
    f.count = static_cast<long long>(values.size());
    if (values.empty())
        return f;
    std::sort(values.begin(), values.end());
    auto at = [&](double q) {
        size_t rank = static_cast<size_t>(q * static_cast<double>(values.size()) + 0.999999);
        return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
    };
    f.p50 = at(0.50);
    f.p99 = at(0.99);
    f.max = values.back();
    return f;
}

std::string payload(long long i)
{
    return R"({"order":)" + std::to_string(i) + R"(,"action":"remind","pad":"0123456789abcdef"})";
}

// Half the tasks are due at once (the wake path), half 100-500 ms ahead (the timer path).
long long dueDelay(long long i)
{
    return i % 2 == 0 ? 0 : 100 + (i * 37) % 400;
}

} // namespace

Bench::Bench(delayq::ConnectionOptions options, BenchSettings settings,
             std::function<void(const std::string&)> progress)
    : m_options(std::move(options)), m_settings(settings), m_progress(std::move(progress)),
      m_prefix("dqbench-" + delayq::randomToken(4))
{}

Bench::~Bench()
{
    try {
        cleanup();
    } catch (const std::exception&) {
        // Redis went away: the keys stay under the private prefix, named in the progress.
    }
}

BenchFigures Bench::run()
{
    const auto start = Clock::now();
    BenchFigures f;
    {
        delayq::Connection conn(m_options);
        f.server = m_options.displayUrl() + " (Redis " + conn.serverVersion() + ")";
    }
    m_progress("keys under the prefix " + m_prefix + " (deleted at the end)");
    f.pushBatchedPerSecond = pushBatched();
    f.pushSinglePerSecond = pushSingle();
    f.ours.label = "delayq";
    f.ours.claimPerSecond = claimAck();
    f.ours.lateness = oursLateness();
    if (m_settings.seeds) {
        for (auto kind : {SeedDesign::Kind::RangeThenRem, SeedDesign::Kind::LuaPop}) {
            SeedDesign design(
                kind, m_prefix + ":seed:" + (kind == SeedDesign::Kind::RangeThenRem ? "a" : "b"));
            DesignFigures d;
            d.label = design.label();
            d.claimPerSecond = seedThroughput(design);
            d.lateness = seedLateness(design);
            f.seeds.push_back(d);
        }
    }
    cleanup();
    f.seconds = secondsSince(start);
    return f;
}

double Bench::pushBatched()
{
    m_progress("push, batched: " + std::to_string(m_settings.tasks) + " tasks");
    delayq::Connection conn(m_options);
    delayq::Queue queue(conn, "claim", m_prefix);
    std::vector<delayq::PushRequest> batch;
    const auto start = Clock::now();
    for (long long done = 0; done < m_settings.tasks;) {
        const long long n = std::min<long long>(10000, m_settings.tasks - done);
        batch.clear();
        for (long long i = 0; i < n; ++i) {
            delayq::PushRequest r;
            r.payload = payload(done + i);
            batch.push_back(std::move(r));
        }
        queue.pushBatch(batch);
        done += n;
    }
    return static_cast<double>(m_settings.tasks) / secondsSince(start);
}

double Bench::pushSingle()
{
    m_progress("push, one by one: " + std::to_string(m_settings.singleTasks) + " tasks");
    delayq::Connection conn(m_options);
    delayq::Queue queue(conn, "single", m_prefix);
    const auto start = Clock::now();
    for (long long i = 0; i < m_settings.singleTasks; ++i) {
        delayq::PushRequest r;
        r.payload = payload(i);
        r.delayMs = 3600'000; // never claimed: only the push is measured
        queue.push(r);
    }
    return static_cast<double>(m_settings.singleTasks) / secondsSince(start);
}

double Bench::claimAck()
{
    m_progress("claim+ack: " + std::to_string(m_settings.tasks) + " tasks, " +
               std::to_string(m_settings.threads) + " threads, batch " +
               std::to_string(m_settings.batch));
    delayq::WorkerOptions o;
    o.connection = m_options;
    o.queue = "claim";
    o.prefix = m_prefix;
    o.concurrency = m_settings.threads;
    o.batch = m_settings.batch;
    o.untilEmpty = true;
    delayq::Worker worker(o,
                          [](const delayq::ClaimedTask&) { return delayq::HandlerResult::ack(); });
    const auto start = Clock::now();
    worker.start();
    while (!worker.wait(100ms)) {
    }
    const double seconds = secondsSince(start);
    worker.stop();
    const auto c = worker.counters();
    if (c.acked != m_settings.tasks)
        m_progress("warning: " + std::to_string(c.acked) + " of " +
                   std::to_string(m_settings.tasks) + " tasks acked");
    return static_cast<double>(c.acked) / seconds;
}

long long Bench::paced(const std::function<void(long long, long long)>& push)
{
    const long long total = m_settings.rate * m_settings.durationMs / 1000;
    const auto start = Clock::now();
    for (long long i = 0; i < total; ++i) {
        const auto at = start + std::chrono::microseconds(i * 1'000'000 / m_settings.rate);
        std::this_thread::sleep_until(at);
        push(i, dueDelay(i));
    }
    return total;
}

LatenessFigures Bench::oursLateness()
{
    m_progress("lateness, delayq: " + std::to_string(m_settings.rate) + " tasks/s for " +
               std::to_string(m_settings.durationMs) + " ms");
    std::mutex mutex;
    std::vector<long long> lateness;
    delayq::WorkerOptions o;
    o.connection = m_options;
    o.queue = "late";
    o.prefix = m_prefix;
    o.concurrency = m_settings.threads;
    o.batch = m_settings.batch;
    delayq::Worker worker(
        o, [](const delayq::ClaimedTask&) { return delayq::HandlerResult::ack(); },
        [&](const delayq::WorkerEvent& e) {
            if (e.kind != delayq::WorkerEvent::Kind::TaskFinished)
                return;
            std::lock_guard lock(mutex);
            lateness.push_back(e.lateness);
        });
    worker.start();
    delayq::Connection conn(m_options);
    delayq::Queue queue(conn, "late", m_prefix);
    // Let the threads connect and subscribe before the clock starts.
    for (int i = 0; i < 100; ++i) {
        auto r = conn.command({"PUBSUB", "NUMSUB", queue.keys().wake()});
        if (r.elements.size() == 2 && r.elements[1].toInteger() > 0)
            break;
        std::this_thread::sleep_for(20ms);
    }
    const long long total = paced([&](long long i, long long delay) {
        delayq::PushRequest r;
        r.payload = payload(i);
        r.delayMs = delay;
        queue.push(r);
    });
    const auto deadline = Clock::now() + 10s;
    while (Clock::now() < deadline && worker.counters().acked < total)
        std::this_thread::sleep_for(20ms);
    worker.stop();
    std::lock_guard lock(mutex);
    return figures(lateness);
}

double Bench::seedThroughput(SeedDesign& design)
{
    const std::string key =
        m_prefix + (design.kind() == SeedDesign::Kind::RangeThenRem ? ":seed:a" : ":seed:b");
    m_progress(std::string("claim, ") + design.label() + ": " +
               std::to_string(m_settings.seedTasks) + " tasks, " +
               std::to_string(m_settings.threads) + " threads");
    delayq::Connection conn(m_options);
    design.prepare(conn);
    const long long now = conn.serverNowMs();
    for (long long done = 0; done < m_settings.seedTasks;) {
        const long long n = std::min<long long>(1000, m_settings.seedTasks - done);
        std::vector<std::string> zadd = {"ZADD", key};
        for (long long i = 0; i < n; ++i) {
            zadd.push_back(std::to_string(now));
            zadd.push_back(payload(done + i) + "#" + std::to_string(done + i));
        }
        conn.command(zadd);
        done += n;
    }
    std::atomic<long long> taken{0};
    std::atomic<long long> lastTakenUs{0};
    const auto start = Clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < m_settings.threads; ++t) {
        threads.emplace_back([&] {
            delayq::Connection c(m_options);
            std::string member;
            long long score = 0;
            while (taken < m_settings.seedTasks) {
                const auto result = design.take(c, c.serverNowMs(), member, score);
                if (result == SeedDesign::Take::Taken) {
                    ++taken;
                    lastTakenUs =
                        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start)
                            .count();
                } else if (result == SeedDesign::Take::Empty && taken < m_settings.seedTasks) {
                    std::this_thread::sleep_for(design.idleSleep());
                }
            }
        });
    }
    for (auto& t : threads)
        t.join();
    return static_cast<double>(taken) / (static_cast<double>(lastTakenUs) / 1e6);
}

LatenessFigures Bench::seedLateness(SeedDesign& design)
{
    const std::string key =
        m_prefix +
        (design.kind() == SeedDesign::Kind::RangeThenRem ? ":seed:a:late" : ":seed:b:late");
    m_progress(std::string("lateness, ") + design.label() + ": " + std::to_string(m_settings.rate) +
               " tasks/s for " + std::to_string(m_settings.durationMs) + " ms");
    SeedDesign lateDesign(design.kind(), key);
    {
        delayq::Connection c(m_options);
        lateDesign.prepare(c);
    }
    std::mutex mutex;
    std::vector<long long> lateness;
    std::atomic<bool> producing{true};
    std::atomic<long long> expected{-1};
    std::vector<std::thread> threads;
    for (int t = 0; t < m_settings.threads; ++t) {
        threads.emplace_back([&] {
            delayq::Connection c(m_options);
            std::string member;
            long long score = 0;
            for (;;) {
                const long long now = c.serverNowMs();
                const auto result = lateDesign.take(c, now, member, score);
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
                std::this_thread::sleep_for(lateDesign.idleSleep());
            }
        });
    }
    delayq::Connection conn(m_options);
    const long long total = paced([&](long long i, long long delay) {
        conn.command({"ZADD", key, std::to_string(conn.serverNowMs() + delay),
                      payload(i) + "#" + std::to_string(i)});
    });
    {
        std::lock_guard lock(mutex);
        expected = total;
        producing = false;
    }
    for (auto& t : threads)
        t.join();
    std::lock_guard lock(mutex);
    return figures(lateness);
}

void Bench::cleanup()
{
    delayq::Connection conn(m_options);
    // Every master's keyspace (one server: just that one). Keys are unlinked one per command
    // in a pipeline, since on a cluster one UNLINK may not name keys of two slots.
    for (const std::string& master : conn.masters()) {
        std::string cursor = "0";
        do {
            const delayq::Reply r = conn.pipelineOn(
                master, {{"SCAN", cursor, "MATCH", m_prefix + ":*", "COUNT", "1000"}})[0];
            if (!r.isArray() || r.elements.size() < 2)
                break;
            cursor = r.elements[0].str;
            std::vector<std::vector<std::string>> del;
            for (const auto& k : r.elements[1].elements)
                del.push_back({"UNLINK", k.str});
            if (!del.empty())
                conn.pipeline(del);
        } while (cursor != "0");
    }
}

} // namespace cli
