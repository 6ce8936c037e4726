#include "bench/benchpipe.h"

#include "bench/bench.h"
#include "bench/benchreport.h"
#include "bench/servermeter.h"
#include "commands/commands.h"
#include "commands/exechandler.h"

#include <delayq/connection.h>
#include <delayq/deliveries.h>
#include <delayq/queue.h>
#include <delayq/taskid.h>
#include <delayq/worker.h>

#include <chrono>
#include <cstdio>
#include <unistd.h>

namespace cli {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Reads whatever has arrived (a whole batch, mostly), answers it with one write: the cost
// left is Python's json per line. No single quote inside (the command is sh -c '…').
constexpr const char* kConsumerScript = R"PY(import os, json
buf = b""
while True:
    chunk = os.read(0, 1 << 20)
    if not chunk:
        break
    buf += chunk
    *lines, buf = buf.split(b"\n")
    os.write(1, b"".join(b"{\"id\":%s,\"ack\":true}\n" % json.dumps(json.loads(l)["id"]).encode()
                         for l in lines if l))
)PY";

} // namespace

PipeBench::PipeBench(delayq::ConnectionOptions options, PipeBenchSettings settings,
                     std::function<void(const std::string&)> progress)
    : m_options(std::move(options)), m_settings(std::move(settings)),
      m_progress(std::move(progress)), m_prefix("dqbench-" + delayq::randomToken(4)),
      m_consumer(m_settings.consumer.empty() ? builtinConsumer() : m_settings.consumer)
{}

PipeBench::~PipeBench()
{
    try {
        cleanup();
    } catch (const std::exception&) {
        // Redis went away: the keys stay under the private prefix.
    }
}

std::string PipeBench::builtinConsumer()
{
    // Debian's python3 before a version manager's shim on PATH, which can cost 0.5 s a start.
    const char* python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    return std::string("exec ") + python + " -c '" + kConsumerScript + "'";
}

PipeBenchFigures PipeBench::run()
{
    PipeBenchFigures f;
    {
        delayq::Connection conn(m_options);
        f.server = m_options.displayUrl() + " (Redis " + conn.serverVersion() + ")";
    }
    f.consumer = m_consumer;
    m_progress("keys under the prefix " + m_prefix + " (deleted at the end)");
    f.ack = drain(Mode::Ack, m_settings.tasks);
    f.pipe = drain(Mode::Pipe, m_settings.tasks);
    f.exec = drain(Mode::Exec, m_settings.execTasks);
    cleanup();
    return f;
}

void PipeBench::fill(const std::string& queue, long long tasks)
{
    delayq::Connection conn(m_options);
    delayq::Queue q(conn, queue, m_prefix);
    std::vector<delayq::PushRequest> batch;
    for (long long done = 0; done < tasks;) {
        batch.clear();
        for (long long i = 0; i < 10000 && done + i < tasks; ++i) {
            delayq::PushRequest r;
            r.payload = benchPayload(done + i);
            batch.push_back(std::move(r));
        }
        q.pushBatch(batch);
        done += static_cast<long long>(batch.size());
    }
}

PhaseFigures PipeBench::drain(Mode mode, long long tasks)
{
    const char* name = mode == Mode::Ack ? "ack" : mode == Mode::Pipe ? "pipe" : "exec";
    m_progress(std::string("drain, ") +
               (mode == Mode::Ack    ? "in-process ack"
                : mode == Mode::Pipe ? "pipe: consumer"
                                     : "exec:true") +
               ": " + std::to_string(tasks) + " due tasks, " + std::to_string(m_settings.threads) +
               " threads");
    fill(name, tasks);
    delayq::WorkerOptions o;
    o.connection = m_options;
    o.queue = name;
    o.prefix = m_prefix;
    o.concurrency = m_settings.threads;
    if (m_settings.batch)
        o.batch = *m_settings.batch;
    o.untilEmpty = true;
    const delayq::Worker* self = nullptr;
    auto aborted = [&self] { return self && self->abortRequested(); };
    std::unique_ptr<delayq::Worker> worker;
    if (mode == Mode::Pipe) {
        delayq::DeliveryOptions d;
        d.queue = name;
        d.aborted = aborted;
        d.notice = m_progress;
        worker = std::make_unique<delayq::Worker>(o, delayq::deliveryFor("pipe:" + m_consumer, d));
    } else if (mode == Mode::Exec) {
        worker = std::make_unique<delayq::Worker>(o, ExecHandler("true", name, aborted));
    } else {
        worker = std::make_unique<delayq::Worker>(
            o, [](const delayq::ClaimedTask&) { return delayq::HandlerResult::ack(); });
    }
    self = worker.get();
    ServerMeter meter(m_options);
    const double cpuBefore = meter.cpuSeconds();
    const auto start = Clock::now();
    worker->start();
    while (!worker->wait(100ms)) {
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    worker->stop();
    const long long acked = worker->counters().acked;
    if (acked != tasks)
        m_progress("warning: " + std::to_string(acked) + " of " + std::to_string(tasks) + " " +
                   name + " tasks acked");
    return meter.phase(cpuBefore, acked, seconds);
}

void PipeBench::cleanup()
{
    removeBenchKeys(m_options, m_prefix);
}

std::string pipeBenchText(const PipeBenchSettings& settings, const PipeBenchFigures& f)
{
    std::string out = "pipe bench on " + f.server + ", " + std::to_string(settings.threads) +
                      " threads, a due backlog drained\n";
    char line[160];
    std::snprintf(line, sizeof line, "  %-22s %10s %12s %16s\n", "handler", "tasks", "tasks/s",
                  "Redis CPU/task");
    out += line;
    const auto row = [&](const char* label, const PhaseFigures& p) {
        std::snprintf(line, sizeof line, "  %-22s %10lld %12s %16s\n", label, p.tasks,
                      rateText(p.perSecond).c_str(), microsText(p.cpuUsPerTask).c_str());
        out += line;
    };
    row("in-process ack", f.ack);
    row("pipe:", f.pipe);
    row("exec:true", f.exec);
    if (f.exec.perSecond > 0 && f.ack.perSecond > 0) {
        std::snprintf(line, sizeof line,
                      "  pipe: is %.1fx exec:true and %.2fx the in-process ack\n",
                      f.pipe.perSecond / f.exec.perSecond, f.pipe.perSecond / f.ack.perSecond);
        out += line;
    }
    out += "  pipe consumer (one a thread): " +
           (settings.consumer.empty() ? std::string("the built-in Python loop") : f.consumer) +
           "\n";
    return out;
}

JsonWriter pipeBenchJson(const PipeBenchSettings& settings, const PipeBenchFigures& f)
{
    JsonWriter j;
    j.beginObject()
        .key("pipe_bench")
        .beginObject()
        .field("server", f.server)
        .field("threads", settings.threads)
        .field("consumer", f.consumer);
    j.key("ack");
    writePhase(j, f.ack);
    j.key("pipe");
    writePhase(j, f.pipe);
    j.key("exec");
    writePhase(j, f.exec);
    j.endObject().endObject();
    return j;
}

// --pipe: the pipe: target beside exec:true (benchpipe.h), instead of the other phases.
int runPipeBench(Context& ctx, const BenchSettings& s, const delayq::ConnectionOptions& options)
{
    Args& a = ctx.args();
    PipeBenchSettings p;
    p.tasks = a.number("pipe-tasks", 1, 10'000'000, p.tasks);
    p.execTasks = a.number("exec-tasks", 1, 1'000'000, p.execTasks);
    p.threads = s.threads;
    p.batch = s.batch;
    p.consumer = a.value("consumer");
    if (a.has("consumer") && p.consumer.empty())
        throw UsageError("--consumer needs a command");
    PipeBench bench(options, p, [](const std::string& line) {
        std::fprintf(stderr, "bench: %s\n", line.c_str());
    });
    const PipeBenchFigures f = bench.run();
    if (ctx.json())
        ctx.printJson(pipeBenchJson(p, f));
    else
        ctx.print(pipeBenchText(p, f));
    return ExitOk;
}

} // namespace cli
