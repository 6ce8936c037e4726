#include "bench/benchamqp.h"

#include "bench/bench.h"
#include "bench/benchdrainclock.h"
#include "bench/benchreport.h"
#include "bench/servermeter.h"
#include "commands/commands.h"

#include <delayq/ceilingpublisher.h> // the target's own connect, login, confirm mode, message
#include <delayq/connection.h>
#include <delayq/deliveries.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/taskid.h>
#include <delayq/worker.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <latch>
#include <thread>

namespace cli {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;
using delayq::amqp::CeilingPublisher;

constexpr const char* kQueue = "amqp"; // the delayq queue, under the private prefix
constexpr long long kTimeoutMs = 30000;

// The URL's broker (user, host, vhost, TLS keys), publishing through the default exchange to
// `queue`: an exchange or routing_key the URL names is replaced.
std::string benchSpec(const std::string& url, const std::string& queue)
{
    const size_t q = url.find('?');
    std::string spec = url.substr(0, q) + "?exchange=&routing_key=" + queue;
    if (q == std::string::npos)
        return spec;
    const std::string query = url.substr(q + 1);
    for (size_t begin = 0; begin <= query.size();) {
        size_t end = query.find('&', begin);
        if (end == std::string::npos)
            end = query.size();
        const std::string pair = query.substr(begin, end - begin);
        const std::string key = pair.substr(0, pair.find('='));
        if (!pair.empty() && key != "exchange" && key != "routing_key")
            spec += "&" + pair;
        begin = end + 1;
    }
    return spec;
}

// The target's own message for a first attempt of bench task i, due now.
delayq::ClaimedTask ceilingMessage(long long i)
{
    delayq::ClaimedTask task;
    task.id = delayq::generateTaskId();
    task.payload = benchPayload(i);
    task.attempts = 1;
    task.due = BenchDrainClock::localNowMs();
    return task;
}

double ratioOf(const AmqpBenchFigures& f)
{
    return f.ceiling.perSecond > 0 ? f.delayq.perSecond / f.ceiling.perSecond : 0;
}

} // namespace

AmqpBench::AmqpBench(delayq::ConnectionOptions options, AmqpBenchSettings settings,
                     std::function<void(const std::string&)> progress)
    : m_options(std::move(options)), m_settings(std::move(settings)),
      m_progress(std::move(progress)), m_prefix("dqbench-" + delayq::randomToken(4)),
      m_spec(benchSpec(m_settings.url, m_prefix))
{
    CeilingPublisher::checkUrl(m_spec); // a malformed URL is refused before anything runs
    // The window of the target is a claim, and while a backlog drains claims grow to the
    // largest batch: the same rule as delayq work's.
    const delayq::WorkerOptions defaults;
    m_window = std::max(m_settings.batch.value_or(defaults.batch), defaults.maxBatch);
}

AmqpBench::~AmqpBench()
{
    try {
        cleanup();
    } catch (const std::exception&) {
        // Redis or the broker went away: the keys stay under the private prefix, the queue
        // expires an hour after its last use.
    }
}

AmqpBenchFigures AmqpBench::run()
{
    AmqpBenchFigures f;
    {
        delayq::Connection conn(m_options);
        f.server = m_options.displayUrl() + " (Redis " + conn.serverVersion() + ")";
    }
    f.broker = delayq::printableSpec(m_settings.url);
    f.window = m_window;
    f.messageBytes = static_cast<long long>(benchPayload(m_settings.tasks / 2).size());
    delayq::checkDelivery(m_spec, {});
    brokerQueue("declare");
    m_progress("RabbitMQ queue and Redis keys " + m_prefix + " (deleted at the end)");
    f.ceiling = ceiling();
    brokerQueue("purge");
    f.delayq = BenchDrainClock::withLead(
        m_settings.tasks, [this](long long lead, bool& late) { return drainOnce(lead, late); },
        m_progress);
    cleanup();
    return f;
}

PhaseFigures AmqpBench::ceiling()
{
    m_progress("ceiling: a plain confirmed publisher, " + std::to_string(m_settings.tasks) +
               " messages on " + std::to_string(m_settings.threads) + " connections, " +
               std::to_string(m_window) + " in flight per confirm round");
    const int threads = m_settings.threads;
    std::latch ready(threads + 1);
    std::latch go(1);
    std::atomic<long long> nacked{0};
    std::vector<std::string> errors(static_cast<size_t>(threads));
    std::vector<std::thread> publishers;
    for (int t = 0; t < threads; ++t) {
        const long long share = m_settings.tasks / threads + (t < m_settings.tasks % threads);
        publishers.emplace_back([&, t, share] {
            std::unique_ptr<CeilingPublisher> publisher;
            try {
                publisher =
                    std::make_unique<CeilingPublisher>(m_spec, kQueue, m_window, kTimeoutMs);
            } catch (const std::exception& e) {
                errors[static_cast<size_t>(t)] = e.what();
            }
            ready.count_down();
            go.wait();
            try {
                if (publisher)
                    nacked +=
                        publisher->publish(static_cast<long long>(t) << 32, share, ceilingMessage);
            } catch (const std::exception& e) {
                errors[static_cast<size_t>(t)] = e.what();
            }
        });
    }
    ready.arrive_and_wait(); // connected and in confirm mode: only the publishing is timed
    const auto start = Clock::now();
    go.count_down();
    for (auto& p : publishers)
        p.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    for (const std::string& e : errors)
        if (!e.empty())
            throw delayq::Error(delayq::ErrorCode::Connection, "the ceiling run failed: " + e);
    if (nacked > 0)
        m_progress("warning: the broker nacked " + std::to_string(nacked.load()) +
                   " of the ceiling's messages");
    PhaseFigures f;
    f.tasks = m_settings.tasks - nacked;
    f.perSecond = static_cast<double>(f.tasks) / std::max(seconds, 1e-3);
    return f;
}

void AmqpBench::fill(long long dueAtMs)
{
    delayq::Connection conn(m_options);
    delayq::Queue q(conn, kQueue, m_prefix);
    std::vector<delayq::PushRequest> batch;
    for (long long done = 0; done < m_settings.tasks;) {
        batch.clear();
        for (long long i = 0; i < 10000 && done + i < m_settings.tasks; ++i) {
            delayq::PushRequest r;
            r.payload = benchPayload(done + i);
            r.dueAtMs = dueAtMs;
            batch.push_back(std::move(r));
        }
        q.pushBatch(batch);
        done += static_cast<long long>(batch.size());
    }
}

PhaseFigures AmqpBench::drainOnce(long long leadMs, bool& late)
{
    m_progress("delayq: " + std::to_string(m_settings.tasks) +
               " tasks falling due at once, drained by a worker of " +
               std::to_string(m_settings.threads) + " threads through the amqp:// target");
    brokerQueue("purge");
    delayq::Connection conn(m_options);
    const long long now = conn.serverNowMs();
    BenchDrainClock clock(now + leadMs, now - BenchDrainClock::localNowMs());
    fill(clock.dueAtMs());
    delayq::WorkerOptions o;
    o.connection = m_options;
    o.queue = kQueue;
    o.prefix = m_prefix;
    o.concurrency = m_settings.threads;
    if (m_settings.batch)
        o.batch = *m_settings.batch;
    o.maxBatch = std::max(o.batch, o.maxBatch);
    o.untilEmpty = true;
    const delayq::Worker* self = nullptr;
    delayq::DeliveryOptions d;
    d.queue = kQueue;
    d.aborted = [&self] { return self && self->abortRequested(); };
    d.notice = m_progress;
    std::atomic<long long> failed{0};
    delayq::Worker worker(o, delayq::deliveryFor(m_spec, d), [&](const delayq::WorkerEvent& e) {
        if (e.kind != delayq::WorkerEvent::Kind::TaskFinished)
            return;
        if (e.outcome == delayq::TaskOutcome::Acked)
            clock.finished();
        else
            ++failed;
    });
    self = &worker;
    worker.start();
    // The threads connect to the broker before their first claim; then they wait for the
    // due time on the wake channel.
    const std::string wake = delayq::Queue(conn, kQueue, m_prefix).keys().wake();
    for (int i = 0; i < 100; ++i) {
        const delayq::Reply r = conn.command({"PUBSUB", "NUMSUB", wake});
        if (r.elements.size() == 2 && r.elements[1].toInteger(0) >= 1)
            break;
        std::this_thread::sleep_for(10ms);
    }
    late = conn.serverNowMs() >= clock.dueAtMs();
    ServerMeter meter(m_options);
    const double cpuBefore = meter.cpuSeconds();
    while (!worker.wait(100ms)) {
    }
    worker.stop();
    if (clock.finishedCount() != m_settings.tasks || failed > 0)
        m_progress("warning: " + std::to_string(clock.finishedCount()) + " of " +
                   std::to_string(m_settings.tasks) + " tasks confirmed, " +
                   std::to_string(failed.load()) + " deliveries failed (retried)");
    return clock.figures(meter, cpuBefore, clock.finishedCount());
}

void AmqpBench::brokerQueue(const char* what)
{
    const std::string op = what;
    const auto change = op == "declare" ? CeilingPublisher::QueueChange::Declare
                        : op == "purge" ? CeilingPublisher::QueueChange::Purge
                                        : CeilingPublisher::QueueChange::Delete;
    CeilingPublisher::changeQueue(m_spec, m_prefix, change, kTimeoutMs);
}

void AmqpBench::cleanup()
{
    removeBenchKeys(m_options, m_prefix);
    brokerQueue("delete");
}

std::string amqpBenchText(const AmqpBenchSettings& settings, const AmqpBenchFigures& f)
{
    std::string out = "amqp bench on " + f.server + "\n  broker " + f.broker + ", " +
                      std::to_string(settings.threads) + " connections, " +
                      std::to_string(f.window) + " publishes in flight per confirm round, " +
                      std::to_string(f.messageBytes) +
                      "-byte bodies, persistent, to a durable queue\n";
    char line[200];
    std::snprintf(line, sizeof line, "  %-34s %10s %12s %16s\n", "", "messages", "per second",
                  "Redis CPU/task");
    out += line;
    std::snprintf(line, sizeof line, "  %-34s %10lld %12s %16s\n", "plain confirmed publisher",
                  f.ceiling.tasks, rateText(f.ceiling.perSecond).c_str(), "-");
    out += line;
    std::snprintf(line, sizeof line, "  %-34s %10lld %12s %16s\n",
                  "delayq work, due to last confirm", f.delayq.tasks,
                  rateText(f.delayq.perSecond).c_str(), microsText(f.delayq.cpuUsPerTask).c_str());
    out += line;
    std::snprintf(line, sizeof line,
                  "  delayq is %.2fx the broker's confirmed-publish ceiling (goal >= 0.7x); "
                  "first confirm %.0f ms after due\n",
                  ratioOf(f), f.delayq.firstMs);
    out += line;
    return out;
}

JsonWriter amqpBenchJson(const AmqpBenchSettings& settings, const AmqpBenchFigures& f)
{
    JsonWriter j;
    j.beginObject()
        .key("amqp_bench")
        .beginObject()
        .field("server", f.server)
        .field("broker", f.broker)
        .field("threads", settings.threads)
        .field("window", f.window)
        .field("message_bytes", f.messageBytes)
        .key("ceiling")
        .beginObject()
        .field("messages", f.ceiling.tasks)
        .field("per_s", f.ceiling.perSecond)
        .endObject()
        .key("delayq")
        .beginObject()
        .field("tasks", f.delayq.tasks)
        .field("per_s", f.delayq.perSecond)
        .field("cpu_us_per_task", f.delayq.cpuUsPerTask)
        .field("first_ms", f.delayq.firstMs)
        .endObject()
        .field("ratio", ratioOf(f))
        .endObject()
        .endObject();
    return j;
}

int runAmqpBench(Context& ctx, const BenchSettings& s, const delayq::ConnectionOptions& options)
{
    Args& a = ctx.args();
    AmqpBenchSettings settings;
    settings.url = a.value("amqp");
    if (settings.url.rfind("amqp://", 0) != 0 && settings.url.rfind("amqps://", 0) != 0)
        throw UsageError("--amqp needs the broker's amqp:// or amqps:// URL");
    settings.tasks = a.number("amqp-tasks", 1, 10'000'000, settings.tasks);
    settings.threads = s.threads;
    settings.batch = s.batch;
    AmqpBench bench(options, settings, [](const std::string& line) {
        std::fprintf(stderr, "bench: %s\n", line.c_str());
    });
    const AmqpBenchFigures f = bench.run();
    if (ctx.json())
        ctx.printJson(amqpBenchJson(settings, f));
    else
        ctx.print(amqpBenchText(settings, f));
    return ExitOk;
}

} // namespace cli
