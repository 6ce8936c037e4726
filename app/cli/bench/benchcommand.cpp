#include "bench/bench.h"
#include "bench/benchamqp.h"
#include "bench/benchpipe.h"
#include "bench/benchreport.h"
#include "bench/benchwebhook.h"
#include "commands/commands.h"
#include "output/textoutput.h"

#include <delayq/error.h>

#include <cstdio>

namespace cli {

namespace {

// bench --webhook: the webhook target against exec:true (benchwebhook.h).
int runBenchWebhook(Context& ctx, const delayq::ConnectionOptions& options, const BenchSettings& s)
{
    const Args& a = ctx.args();
    BenchWebhook::Settings w;
    w.tasks = a.number("drain-tasks", 1, 10'000'000, w.tasks);
    w.execTasks = a.number("exec-tasks", 1, 1'000'000, w.execTasks);
    w.threads = s.threads;
    w.batch = s.batch;
    BenchWebhook bench(options, w, [](const std::string& line) {
        std::fprintf(stderr, "bench: %s\n", line.c_str());
    });
    const BenchWebhook::Figures f = bench.run();
    if (ctx.json())
        ctx.printJson(BenchWebhook::json(w, f));
    else
        ctx.print(BenchWebhook::text(w, f));
    return ExitOk;
}

} // namespace

int runBench(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"force", false},       {"tasks", true},       {"single-tasks", true},
             {"threads", true},      {"batch", true},       {"rate", true},
             {"duration", true},     {"seed-tasks", true},  {"drain-tasks", true},
             {"memory-tasks", true}, {"skip-seeds", false}, {"queues", true},
             {"history", true},      {"pipe", false},       {"pipe-tasks", true},
             {"exec-tasks", true},   {"consumer", true},    {"webhook", false},
             {"amqp", true},         {"amqp-tasks", true}},
            0, 0);
    a.exclusive({"pipe", "webhook", "amqp"});
    if (!a.has("pipe") && (a.has("pipe-tasks") || a.has("consumer")))
        throw UsageError("--pipe-tasks and --consumer go with --pipe");
    if (a.has("exec-tasks") && !a.has("pipe") && !a.has("webhook"))
        throw UsageError("--exec-tasks goes with --pipe or --webhook");
    if (!a.has("amqp") && a.has("amqp-tasks"))
        throw UsageError("--amqp-tasks goes with --amqp URL");
    BenchSettings s;
    s.tasks = a.number("tasks", 1, 100'000'000, s.tasks);
    s.singleTasks = a.number("single-tasks", 1, 10'000'000, s.singleTasks);
    s.threads = static_cast<int>(a.number("threads", 1, 64, s.threads));
    if (a.has("batch"))
        s.batch = static_cast<int>(a.number("batch", 1, 1000, 0));
    s.rate = a.number("rate", 1, 100'000, s.rate);
    s.durationMs = a.duration("duration", s.durationMs);
    if (s.durationMs < 100 || s.durationMs > 3'600'000)
        throw UsageError("--duration must be from 100ms to 1h");
    s.seedTasks = a.number("seed-tasks", 1, 10'000'000, s.seedTasks);
    s.drainTasks = a.number("drain-tasks", 1, 10'000'000, s.drainTasks);
    s.memoryTasks = a.number("memory-tasks", 1, 10'000'000, s.memoryTasks);
    s.seeds = !a.has("skip-seeds");
    s.queues = static_cast<int>(a.number("queues", 1, 16, s.queues));
    s.historyEvents = static_cast<int>(a.number("history", 0, 100, s.historyEvents));

    delayq::Connection& conn = ctx.connection();
    if (conn.options().readOnly)
        throw delayq::Error(delayq::ErrorCode::NoPermission,
                            "bench writes and deletes keys: it cannot run with --read-only");
    long long keys = 0;
    for (const std::string& master : conn.masters()) // a cluster: each master holds a part
        keys += conn.pipelineOn(master, {{"DBSIZE"}})[0].toInteger(0);
    if (keys > 0 && !a.has("force"))
        throw delayq::Error(delayq::ErrorCode::Exists,
                            "the database at " + conn.options().displayUrl() + " holds " +
                                std::to_string(keys) +
                                " keys; bench wants an empty one (pick another /db) or --force "
                                "(its keys go under a private prefix that it deletes)");

    // The bench's own throw-away queues are no person's action: no audit entries.
    delayq::ConnectionOptions benchOptions = conn.options();
    benchOptions.actor = {};
    if (a.has("pipe"))
        return runPipeBench(ctx, s, benchOptions);
    if (a.has("webhook"))
        return runBenchWebhook(ctx, benchOptions, s);
    if (a.has("amqp"))
        return runAmqpBench(ctx, s, benchOptions);
    Bench bench(benchOptions, s,
                [](const std::string& line) { std::fprintf(stderr, "bench: %s\n", line.c_str()); });
    const BenchFigures f = bench.run();

    if (ctx.json())
        ctx.printJson(benchJson(s, f));
    else
        ctx.print(benchText(s, f));
    return ExitOk;
}

} // namespace cli
