#include "bench/bench.h"
#include "bench/benchdrainclock.h"
#include "bench/seedbench.h"

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
#include <optional>
#include <thread>

namespace cli {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// " over N queues" in a phase's progress line, with more than one.
std::string overQueues(size_t queues)
{
    return queues > 1 ? " over " + std::to_string(queues) + " queues" : std::string();
}

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Pushes `tasks` tasks to one queue in batches of 10,000 (the core splits each into calls of
// 100), payloads numbered from firstIndex.
// dueAtMs, when given, is one due time for all (server clock); else each is due delayMs after
// its push.
void fillQueue(delayq::Connection& conn, const std::string& prefix, const std::string& name,
               long long tasks, long long firstIndex, long long delayMs,
               const std::function<std::string(long long)>& payloadOf,
               std::optional<long long> dueAtMs = std::nullopt)
{
    delayq::Queue queue(conn, name, prefix);
    std::vector<delayq::PushRequest> batch;
    for (long long done = 0; done < tasks;) {
        const long long n = std::min<long long>(10000, tasks - done);
        batch.clear();
        for (long long i = 0; i < n; ++i) {
            delayq::PushRequest r;
            r.payload = payloadOf(firstIndex + done + i);
            r.delayMs = delayMs;
            r.dueAtMs = dueAtMs;
            batch.push_back(std::move(r));
        }
        queue.pushBatch(batch);
        done += n;
    }
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
      m_prefix("dqbench-" + delayq::randomToken(4)), m_meter(m_options)
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
    f.pushBatched = pushBatched();
    f.pushSingle = pushSingle();
    f.ours.label = "delayq";
    f.ours.kind = "delayq";
    f.ours.claim = claimAck();
    f.ours.drain = drain();
    f.ours.lateness = oursLateness(f.ours.latenessCpuUsPerTask);
    f.ours.memory = memory();
    if (m_settings.historyEvents > 0)
        f.history = withHistory();
    if (m_settings.seeds) {
        for (auto kind : {SeedDesign::Kind::RangeThenRem, SeedDesign::Kind::LuaPop}) {
            const char* stem = kind == SeedDesign::Kind::RangeThenRem ? ":seed:a" : ":seed:b";
            SeedBench seed(kind, m_options, m_settings, m_prefix + stem, m_meter, m_progress);
            f.seeds.push_back(seed.run());
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

PhaseFigures Bench::pushBatched()
{
    m_progress("push, batched: " + std::to_string(m_settings.tasks) + " tasks" +
               overQueues(m_claimQueues.size()));
    delayq::Connection conn(m_options);
    long long pushed = 0;
    const double cpuBefore = m_meter.cpuSeconds();
    const auto start = Clock::now();
    for (const BenchQueue& b : m_claimQueues) {
        fillQueue(conn, m_prefix, b.name, b.tasks, pushed, 0, benchPayload);
        pushed += b.tasks;
    }
    return m_meter.phase(cpuBefore, m_settings.tasks, secondsSince(start));
}

PhaseFigures Bench::pushSingle()
{
    m_progress("push, one by one: " + std::to_string(m_settings.singleTasks) + " tasks" +
               overQueues(m_singleQueues.size()));
    delayq::Connection conn(m_options);
    std::vector<delayq::Queue> queues;
    for (const std::string& name : m_singleQueues)
        queues.emplace_back(conn, name, m_prefix);
    const double cpuBefore = m_meter.cpuSeconds();
    const auto start = Clock::now();
    for (long long i = 0; i < m_settings.singleTasks; ++i) {
        delayq::PushRequest r;
        r.payload = benchPayload(i);
        r.delayMs = 3600'000; // never claimed: only the push is measured
        queues[static_cast<size_t>(i) % queues.size()].push(r);
    }
    return m_meter.phase(cpuBefore, m_settings.singleTasks, secondsSince(start));
}

PhaseFigures Bench::claimAck()
{
    int threads = 0;
    for (const BenchQueue& b : m_claimQueues)
        threads += b.threads;
    m_progress("claim+ack: " + std::to_string(m_settings.tasks) + " tasks, " +
               std::to_string(threads) + " threads, batch " +
               std::to_string(effectiveBatch(m_settings)) +
               (m_claimQueues.size() > 1 ? ", " + std::to_string(m_claimQueues.size()) + " queues"
                                         : std::string()));
    // One worker a queue, with its share of the threads: each thread talks to one master,
    // as a worker of one queue does, so the cluster adds its routing and nothing else.
    std::vector<delayq::WorkerOptions> options;
    for (const BenchQueue& b : m_claimQueues) {
        delayq::WorkerOptions o = workerOptions(b.name);
        o.concurrency = b.threads;
        options.push_back(o);
    }
    return runWorkers(options, m_settings.tasks);
}

PhaseFigures Bench::drain()
{
    return BenchDrainClock::withLead(
        m_settings.drainTasks, [this](long long lead, bool& late) { return drainOnce(lead, late); },
        m_progress);
}

PhaseFigures Bench::drainOnce(long long leadMs, bool& late)
{
    m_progress("drain: " + std::to_string(m_settings.drainTasks) + " tasks falling due at once, " +
               std::to_string(m_settings.threads) + " workers of one thread, batch " +
               std::to_string(effectiveBatch(m_settings)));
    delayq::Connection conn(m_options);
    const long long now = conn.serverNowMs();
    BenchDrainClock clock(now + leadMs, now - BenchDrainClock::localNowMs());
    fillQueue(conn, m_prefix, "drain", m_settings.drainTasks, 0, 0, benchPayload, clock.dueAtMs());
    std::vector<std::unique_ptr<delayq::Worker>> workers;
    for (int w = 0; w < m_settings.threads; ++w)
        workers.push_back(std::make_unique<delayq::Worker>(
            workerOptions("drain"),
            [](const delayq::ClaimedTask&) { return delayq::HandlerResult::ack(); },
            [&clock](const delayq::WorkerEvent& e) {
                if (e.kind == delayq::WorkerEvent::Kind::TaskFinished)
                    clock.finished();
            }));
    for (auto& w : workers)
        w->start();
    // Each worker subscribes to the wake channel once it runs: then it waits for the due time.
    const std::string wake = delayq::Queue(conn, "drain", m_prefix).keys().wake();
    for (int i = 0; i < 100 && wakeListeners(conn, wake) < m_settings.threads; ++i)
        std::this_thread::sleep_for(10ms);
    late = conn.serverNowMs() >= clock.dueAtMs();
    const double cpuBefore = m_meter.cpuSeconds();
    for (auto& w : workers)
        while (!w->wait(100ms)) {
        }
    for (auto& w : workers)
        w->stop();
    if (clock.finishedCount() != m_settings.drainTasks)
        m_progress("warning: " + std::to_string(clock.finishedCount()) + " of " +
                   std::to_string(m_settings.drainTasks) + " drain tasks finished");
    return clock.figures(m_meter, cpuBefore, clock.finishedCount());
}

delayq::WorkerOptions Bench::workerOptions(const std::string& queue) const
{
    // Everything else as `delayq work` leaves it, batch included unless --batch says.
    delayq::WorkerOptions o;
    o.connection = m_options;
    o.queue = queue;
    o.prefix = m_prefix;
    if (m_settings.batch)
        o.batch = *m_settings.batch;
    o.untilEmpty = true;
    return o;
}

PhaseFigures Bench::runWorkers(const std::vector<delayq::WorkerOptions>& options,
                               long long expected)
{
    std::vector<std::unique_ptr<delayq::Worker>> workers;
    for (const delayq::WorkerOptions& o : options)
        workers.push_back(std::make_unique<delayq::Worker>(
            o, [](const delayq::ClaimedTask&) { return delayq::HandlerResult::ack(); }));
    const double cpuBefore = m_meter.cpuSeconds();
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
    if (acked != expected)
        m_progress("warning: " + std::to_string(acked) + " of " + std::to_string(expected) +
                   " tasks acked");
    return m_meter.phase(cpuBefore, acked, seconds);
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

LatenessFigures Bench::oursLateness(double& cpuUsPerTask)
{
    m_progress("lateness, delayq: " + std::to_string(m_settings.rate) + " tasks/s for " +
               std::to_string(m_settings.durationMs) + " ms");
    std::mutex mutex;
    std::vector<long long> lateness;
    delayq::WorkerOptions o = workerOptions("late");
    o.untilEmpty = false;
    o.concurrency = m_settings.threads;
    const double cpuBefore = m_meter.cpuSeconds();
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
    const long long total =
        pacedPushes(m_settings.rate, m_settings.durationMs, [&](long long i, long long delay) {
            delayq::PushRequest r;
            r.payload = benchPayload(i);
            r.delayMs = delay;
            queue.push(r);
        });
    const auto deadline = Clock::now() + 10s;
    while (Clock::now() < deadline && worker.counters().acked < total)
        std::this_thread::sleep_for(20ms);
    worker.stop();
    cpuUsPerTask = m_meter.cpuUsPerTask(cpuBefore, total);
    std::lock_guard lock(mutex);
    return latenessOf(lateness);
}

MemoryFigures Bench::memory(const std::string& queue)
{
    m_progress("memory, delayq: " + std::to_string(m_settings.memoryTasks) + " pending tasks" +
               (queue == "memory" ? "" : " (" + queue + ")"));
    MemoryFigures f;
    f.tasks = m_settings.memoryTasks;
    f.payloadBytes = kMemoryPayloadBytes;
    const long long before = m_meter.usedMemory();
    {
        // The filling connection is closed before the second reading, so that reading
        // holds the tasks and not a client's buffers. Due in a day: nothing claims them,
        // and the queue holds what a waiting backlog holds.
        delayq::Connection conn(m_options);
        fillQueue(conn, m_prefix, queue, f.tasks, 0, 86'400'000, memoryPayload);
    }
    f.bytesPerTask =
        static_cast<double>(m_meter.usedMemory() - before) / static_cast<double>(f.tasks);
    return f;
}

HistoryFigures Bench::withHistory()
{
    HistoryFigures f;
    f.events = m_settings.historyEvents;
    const std::string events = std::to_string(f.events);
    {
        delayq::Connection conn(m_options);
        for (const char* name : {"history", "memory_history"})
            delayq::Queue(conn, name, m_prefix).setConfig("history", events);
        m_progress("task history on (" + events + " events a task): push, batched: " +
                   std::to_string(m_settings.tasks) + " tasks");
        const double cpuBefore = m_meter.cpuSeconds();
        const auto start = Clock::now();
        fillQueue(conn, m_prefix, "history", m_settings.tasks, 0, 0, benchPayload);
        f.push = m_meter.phase(cpuBefore, m_settings.tasks, secondsSince(start));
    }
    m_progress("task history on: claim+ack, " + std::to_string(m_settings.threads) + " threads");
    delayq::WorkerOptions o = workerOptions("history");
    o.concurrency = m_settings.threads;
    f.claim = runWorkers({o}, m_settings.tasks);
    f.memory = memory("memory_history");
    return f;
}

void removeBenchKeys(const delayq::ConnectionOptions& options, const std::string& prefix)
{
    delayq::Connection conn(options);
    // Keys are unlinked one per command in a pipeline, since on a cluster one UNLINK may not
    // name keys of two slots.
    for (const std::string& master : conn.masters()) {
        std::string cursor = "0";
        do {
            const delayq::Reply r = conn.pipelineOn(
                master, {{"SCAN", cursor, "MATCH", prefix + ":*", "COUNT", "1000"}})[0];
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

void Bench::cleanup()
{
    removeBenchKeys(m_options, m_prefix);
}

} // namespace cli
