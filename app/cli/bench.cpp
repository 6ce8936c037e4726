#include "bench.h"

#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/taskid.h>
#include <delayq/worker.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
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

// The part of `total` that the index-th of `parts` gets: the first total % parts get one more.
long long share(long long total, int parts, int index)
{
    return total / parts + (index < total % parts ? 1 : 0);
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
        placeQueues(conn, f);
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

void Bench::placeQueues(delayq::Connection& conn, BenchFigures& f)
{
    f.masters = static_cast<int>(conn.masters().size());
    const int n = m_settings.queues;
    const std::vector<std::string> claimNames =
        n == 1 ? std::vector<std::string>{"claim"} : pickNames(conn, "bench");
    m_singleQueues = n == 1 ? std::vector<std::string>{"single"} : pickNames(conn, "single");
    // --threads is the total, split over the queues; every queue needs one to be drained.
    m_claimQueues.clear();
    for (int q = 0; q < n; ++q) {
        BenchQueue b;
        b.name = claimNames[q];
        b.node = conn.nodeForKey(delayq::Keys(m_prefix, b.name).pending());
        b.threads = std::max<int>(1, static_cast<int>(share(m_settings.threads, n, q)));
        b.tasks = share(m_settings.tasks, n, q);
        m_claimQueues.push_back(b);
    }
    f.queues = m_claimQueues;
}

std::vector<std::string> Bench::pickNames(delayq::Connection& conn, const std::string& stem)
{
    // Each name goes to a master holding the fewest so far: with no more queues than
    // masters, one queue a master, so the claim+ack phase crosses the cluster's routing.
    std::map<std::string, int> load;
    for (const std::string& m : conn.masters())
        load[m] = 0;
    std::vector<std::string> names;
    int next = 0;
    for (int q = 0; q < m_settings.queues; ++q) {
        int least = load.empty() ? 0 : load.begin()->second;
        for (const auto& [node, count] : load)
            least = std::min(least, count);
        std::string name = stem + "-" + std::to_string(next);
        // 16384 slots over a few masters: a free one turns up within a few tries.
        for (int tries = 0; tries < 10000; ++tries) {
            name = stem + "-" + std::to_string(next++);
            const std::string node = conn.nodeForKey(delayq::Keys(m_prefix, name).pending());
            if (load[node] == least) {
                ++load[node];
                break;
            }
        }
        names.push_back(name);
    }
    return names;
}

double Bench::pushBatched()
{
    m_progress("push, batched: " + std::to_string(m_settings.tasks) + " tasks" +
               (m_claimQueues.size() > 1
                    ? " over " + std::to_string(m_claimQueues.size()) + " queues"
                    : std::string()));
    delayq::Connection conn(m_options);
    std::vector<delayq::PushRequest> batch;
    long long pushed = 0;
    const auto start = Clock::now();
    for (const BenchQueue& b : m_claimQueues) {
        delayq::Queue queue(conn, b.name, m_prefix);
        for (long long done = 0; done < b.tasks;) {
            const long long n = std::min<long long>(10000, b.tasks - done);
            batch.clear();
            for (long long i = 0; i < n; ++i) {
                delayq::PushRequest r;
                r.payload = payload(pushed + i);
                batch.push_back(std::move(r));
            }
            queue.pushBatch(batch);
            done += n;
            pushed += n;
        }
    }
    return static_cast<double>(m_settings.tasks) / secondsSince(start);
}

double Bench::pushSingle()
{
    m_progress("push, one by one: " + std::to_string(m_settings.singleTasks) + " tasks" +
               (m_singleQueues.size() > 1
                    ? " over " + std::to_string(m_singleQueues.size()) + " queues"
                    : std::string()));
    delayq::Connection conn(m_options);
    std::vector<delayq::Queue> queues;
    for (const std::string& name : m_singleQueues)
        queues.emplace_back(conn, name, m_prefix);
    const auto start = Clock::now();
    for (long long i = 0; i < m_settings.singleTasks; ++i) {
        delayq::PushRequest r;
        r.payload = payload(i);
        r.delayMs = 3600'000; // never claimed: only the push is measured
        queues[static_cast<size_t>(i) % queues.size()].push(r);
    }
    return static_cast<double>(m_settings.singleTasks) / secondsSince(start);
}

double Bench::claimAck()
{
    int threads = 0;
    for (const BenchQueue& b : m_claimQueues)
        threads += b.threads;
    m_progress("claim+ack: " + std::to_string(m_settings.tasks) + " tasks, " +
               std::to_string(threads) + " threads, batch " + std::to_string(m_settings.batch) +
               (m_claimQueues.size() > 1 ? ", " + std::to_string(m_claimQueues.size()) + " queues"
                                         : std::string()));
    // One worker a queue, with its share of the threads: each thread talks to one master,
    // as a worker of one queue does, so the cluster adds its routing and nothing else.
    std::vector<std::unique_ptr<delayq::Worker>> workers;
    for (const BenchQueue& b : m_claimQueues) {
        delayq::WorkerOptions o;
        o.connection = m_options;
        o.queue = b.name;
        o.prefix = m_prefix;
        o.concurrency = b.threads;
        o.batch = m_settings.batch;
        o.untilEmpty = true;
        workers.push_back(std::make_unique<delayq::Worker>(
            o, [](const delayq::ClaimedTask&) { return delayq::HandlerResult::ack(); }));
    }
    const auto start = Clock::now();
    for (auto& w : workers)
        w->start();
    for (auto& w : workers)
        while (!w->wait(100ms)) {
        }
    const double seconds = secondsSince(start);
    long long acked = 0;
    for (auto& w : workers) {
        w->stop();
        acked += w->counters().acked;
    }
    if (acked != m_settings.tasks)
        m_progress("warning: " + std::to_string(acked) + " of " + std::to_string(m_settings.tasks) +
                   " tasks acked");
    return static_cast<double>(acked) / seconds;
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

long long Bench::wakeListeners(delayq::Connection& conn, const std::string& channel)
{
    const std::vector<std::string> numsub = {"PUBSUB", "NUMSUB", channel};
    auto count = [](const delayq::Reply& r) {
        return r.elements.size() == 2 ? r.elements[1].toInteger(0) : 0;
    };
    if (!conn.isCluster())
        return count(conn.command(numsub));
    // A cluster counts a subscriber only on the node it subscribed to, which may be any
    // node, replicas included (the wake messages are broadcast).
    long long listeners = 0;
    for (const auto& node : conn.clusterNodes()) {
        if (!node.reachable)
            continue;
        try {
            listeners += count(conn.pipelineOn(node.address, {numsub})[0]);
        } catch (const delayq::Error&) {
            // A node this process cannot reach has no listener of ours.
        }
    }
    return listeners;
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
    for (int i = 0; i < 100 && wakeListeners(conn, queue.keys().wake()) == 0; ++i)
        std::this_thread::sleep_for(20ms);
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
