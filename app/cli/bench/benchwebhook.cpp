#include "bench/benchwebhook.h"

#include "bench/bench.h"
#include "bench/benchdrainclock.h"
#include "bench/benchendpoint.h"
#include "bench/benchreport.h"
#include "commands/exechandler.h"
#include "output/textoutput.h"

#include <delayq/connection.h>
#include <delayq/deliveries.h>
#include <delayq/queue.h>
#include <delayq/taskid.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace cli {

namespace {

using namespace std::chrono_literals;

std::string phaseLine(const std::string& label, const PhaseFigures& p)
{
    char line[200];
    std::snprintf(line, sizeof line, "  %-44s %8lld tasks %9.0f/s  Redis CPU %5.1f µs/task\n",
                  label.c_str(), p.tasks, p.perSecond, p.cpuUsPerTask);
    return line;
}

} // namespace

BenchWebhook::BenchWebhook(delayq::ConnectionOptions options, Settings settings,
                           std::function<void(const std::string&)> progress)
    : m_options(std::move(options)), m_settings(settings), m_progress(std::move(progress)),
      m_prefix("dqbench-" + delayq::randomToken(4)), m_meter(m_options)
{}

BenchWebhook::~BenchWebhook()
{
    try {
        cleanup();
    } catch (const std::exception&) {
        // Redis went away: the keys stay under the private prefix, named in the progress.
    }
}

BenchWebhook::Figures BenchWebhook::run()
{
    const auto start = std::chrono::steady_clock::now();
    Figures f;
    {
        delayq::Connection conn(m_options);
        f.server = m_options.displayUrl() + " (Redis " + conn.serverVersion() + ")";
    }
    m_progress("keys under the prefix " + m_prefix + " (deleted at the end)");
    BenchEndpoint endpoint;
    f.endpoint = endpoint.url();
    delayq::DeliveryOptions delivery;
    delivery.queue = "webhook";
    const delayq::DeliveryFactory factory = delayq::deliveryFor(endpoint.url(), delivery);
    m_progress("webhook: " + std::to_string(m_settings.tasks) + " tasks to " + endpoint.url());
    f.webhook = drain("webhook", m_settings.tasks,
                      [&](const delayq::WorkerOptions& o, const delayq::WorkerEventCallback& e) {
                          return std::make_unique<delayq::Worker>(o, factory, e);
                      });
    f.requests = endpoint.requests();
    m_progress("exec:true: " + std::to_string(m_settings.execTasks) + " tasks");
    f.exec = drain("exec", m_settings.execTasks,
                   [](const delayq::WorkerOptions& o, const delayq::WorkerEventCallback& e) {
                       return std::make_unique<delayq::Worker>(
                           o, ExecHandler("true", o.queue, [] { return false; }), e);
                   });
    cleanup();
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return f;
}

PhaseFigures BenchWebhook::drain(const std::string& queue, long long tasks, const MakeWorker& make)
{
    return BenchDrainClock::withLead(
        tasks,
        [&](long long lead, bool& late) { return drainOnce(queue, tasks, lead, late, make); },
        m_progress);
}

PhaseFigures BenchWebhook::drainOnce(const std::string& queue, long long tasks, long long leadMs,
                                     bool& late, const MakeWorker& make)
{
    delayq::Connection conn(m_options);
    delayq::Queue q(conn, queue, m_prefix);
    const long long now = conn.serverNowMs();
    BenchDrainClock clock(now + leadMs, now - BenchDrainClock::localNowMs());
    std::vector<delayq::PushRequest> batch;
    for (long long done = 0; done < tasks; done += static_cast<long long>(batch.size())) {
        batch.clear();
        for (long long i = done; i < std::min(tasks, done + 10000); ++i) {
            delayq::PushRequest r;
            r.payload = benchPayload(i);
            r.dueAtMs = clock.dueAtMs();
            batch.push_back(std::move(r));
        }
        q.pushBatch(batch);
    }
    const delayq::WorkerEventCallback onEvent = [&clock](const delayq::WorkerEvent& e) {
        if (e.kind == delayq::WorkerEvent::Kind::TaskFinished)
            clock.finished();
    };
    std::vector<std::unique_ptr<delayq::Worker>> workers;
    for (int w = 0; w < m_settings.threads; ++w)
        workers.push_back(make(workerOptions(queue), onEvent));
    for (auto& w : workers)
        w->start();
    // Each worker subscribes to the wake channel once it runs: then it waits for the due time.
    const std::vector<std::string> numsub = {"PUBSUB", "NUMSUB", q.keys().wake()};
    for (int i = 0; i < 100; ++i) {
        const delayq::Reply r = conn.command(numsub);
        if (r.elements.size() == 2 && r.elements[1].toInteger(0) >= m_settings.threads)
            break;
        std::this_thread::sleep_for(10ms);
    }
    late = conn.serverNowMs() >= clock.dueAtMs();
    const double cpuBefore = m_meter.cpuSeconds();
    for (auto& w : workers)
        while (!w->wait(100ms)) {
        }
    long long acked = 0;
    for (auto& w : workers) {
        w->stop();
        acked += w->counters().acked;
    }
    if (acked != tasks)
        m_progress("warning: " + std::to_string(acked) + " of " + std::to_string(tasks) + " " +
                   queue + " tasks acked");
    return clock.figures(m_meter, cpuBefore, clock.finishedCount());
}

delayq::WorkerOptions BenchWebhook::workerOptions(const std::string& queue) const
{
    delayq::WorkerOptions o;
    o.connection = m_options;
    o.queue = queue;
    o.prefix = m_prefix;
    if (m_settings.batch)
        o.batch = *m_settings.batch;
    o.untilEmpty = true;
    return o;
}

void BenchWebhook::cleanup()
{
    removeBenchKeys(m_options, m_prefix);
}

std::string BenchWebhook::text(const Settings& s, const Figures& f)
{
    const std::string batch =
        s.batch ? std::to_string(*s.batch)
                : std::to_string(delayq::WorkerOptions{}.batch) + " (delayq work's default)";
    std::string text = "delayq bench --webhook on " + printable(f.server) + ": " +
                       std::to_string(s.threads) + " workers of one thread, batch " + batch +
                       "\n\n";
    text += phaseLine("webhook (a local endpoint answering 204)", f.webhook);
    text += phaseLine("exec:true (a process per task)", f.exec);
    text +=
        "  webhook over exec:true: " + ratioText(f.webhook.perSecond, f.exec.perSecond) + "\n\n";
    text += "From the moment each backlog fell due (workers already waiting) to its last task\n"
            "finished. The endpoint (libmicrohttpd, in this process, on " +
            f.endpoint + ") answered " + std::to_string(f.requests) + " requests; " +
            secondsText(f.seconds) + " s in all.\n";
    return text;
}

JsonWriter BenchWebhook::json(const Settings& s, const Figures& f)
{
    JsonWriter j;
    j.beginObject()
        .field("server", f.server)
        .field("threads", s.threads)
        .field("batch", s.batch.value_or(delayq::WorkerOptions{}.batch))
        .field("endpoint", f.endpoint)
        .field("endpoint_requests", f.requests)
        .key("webhook");
    writePhase(j, f.webhook);
    j.key("exec");
    writePhase(j, f.exec);
    j.field("webhook_over_exec",
            f.exec.perSecond > 0 ? f.webhook.perSecond / f.exec.perSecond : 0.0)
        .field("seconds", f.seconds)
        .endObject();
    return j;
}

} // namespace cli
