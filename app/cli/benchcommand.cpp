#include "bench.h"
#include "commands.h"
#include "textoutput.h"

#include <delayq/error.h>

#include <cstdio>

namespace cli {

namespace {

std::string rate(double perSecond)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f/s", perSecond);
    return buf;
}

std::string ratio(double ours, double theirs)
{
    if (theirs <= 0)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1fx", ours / theirs);
    return buf;
}

std::string ms(long long value)
{
    return std::to_string(value) + " ms";
}

void writeDesign(JsonWriter& j, const DesignFigures& d)
{
    j.beginObject()
        .field("design", d.label)
        .field("claim_per_s", d.claimPerSecond)
        .key("lateness_ms")
        .beginObject()
        .field("count", d.lateness.count)
        .field("p50", d.lateness.p50)
        .field("p99", d.lateness.p99)
        .field("max", d.lateness.max)
        .endObject()
        .endObject();
}

JsonWriter benchJson(const BenchSettings& s, const BenchFigures& f)
{
    JsonWriter j;
    j.beginObject()
        .field("server", f.server)
        .key("settings")
        .beginObject()
        .field("tasks", s.tasks)
        .field("single_tasks", s.singleTasks)
        .field("threads", s.threads)
        .field("batch", s.batch)
        .field("rate", s.rate)
        .field("duration_ms", s.durationMs)
        .field("seed_tasks", s.seedTasks);
    // The fields of --queues only with more than one, so the default output stays as it was.
    if (s.queues > 1)
        j.field("queues", s.queues);
    j.endObject();
    if (s.queues > 1) {
        j.field("masters", f.masters).key("queues").beginArray();
        for (const BenchQueue& q : f.queues)
            j.beginObject()
                .field("name", q.name)
                .field("node", q.node)
                .field("threads", q.threads)
                .field("tasks", q.tasks)
                .endObject();
        j.endArray();
    }
    j.field("push_batched_per_s", f.pushBatchedPerSecond)
        .field("push_single_per_s", f.pushSinglePerSecond)
        .key("ours");
    writeDesign(j, f.ours);
    j.key("seeds").beginArray();
    for (const auto& d : f.seeds)
        writeDesign(j, d);
    j.endArray().key("ratios").beginArray();
    for (const auto& d : f.seeds)
        j.beginObject()
            .field("design", d.label)
            .field("claim_ours_over_theirs",
                   d.claimPerSecond > 0 ? f.ours.claimPerSecond / d.claimPerSecond : 0.0)
            .field("p99_lateness_theirs_over_ours",
                   static_cast<double>(d.lateness.p99) / std::max(1LL, f.ours.lateness.p99))
            .endObject();
    j.endArray().field("seconds", f.seconds).endObject();
    return j;
}

// The heading and the table of queues with --queues: the threads are those actually run
// (each queue gets at least one).
std::string queuesText(const BenchSettings& s, const BenchFigures& f)
{
    int threads = 0;
    TextTable table({"QUEUE", "NODE", "THREADS", "TASKS"});
    for (const BenchQueue& q : f.queues) {
        threads += q.threads;
        table.addRow({q.name, q.node, std::to_string(q.threads), std::to_string(q.tasks)});
    }
    return "delayq bench on " + printable(f.server) + ": " + std::to_string(threads) +
           " threads over " + std::to_string(s.queues) + " queues on " + std::to_string(f.masters) +
           (f.masters == 1 ? " master" : " masters") + ", batch " + std::to_string(s.batch) +
           ", lateness at " + std::to_string(s.rate) + " tasks/s\n\n" + table.render() + "\n";
}

std::string benchText(const BenchSettings& s, const BenchFigures& f)
{
    std::string text = "delayq bench on " + printable(f.server) + ": " + std::to_string(s.threads) +
                       " threads, batch " + std::to_string(s.batch) + ", lateness at " +
                       std::to_string(s.rate) + " tasks/s\n\n";
    if (s.queues > 1)
        text = queuesText(s, f);
    TextTable push({"PUSH", "TASKS/S"});
    push.addRow({"batched (" + std::to_string(s.tasks) + " tasks)", rate(f.pushBatchedPerSecond)});
    push.addRow(
        {"one by one (" + std::to_string(s.singleTasks) + " tasks)", rate(f.pushSinglePerSecond)});
    text += push.render() + "\n";

    std::vector<std::string> headers = {"CLAIM", "delayq (claim+ack)"};
    for (const auto& d : f.seeds)
        headers.push_back(d.label);
    for (const auto& d : f.seeds)
        headers.push_back("ours/" + d.label.substr(0, 3));
    TextTable table(headers);
    auto row = [&](const std::string& name, auto value, auto compare) {
        std::vector<std::string> cells = {name, value(f.ours)};
        for (const auto& d : f.seeds)
            cells.push_back(value(d));
        for (const auto& d : f.seeds)
            cells.push_back(compare(d));
        table.addRow(cells);
    };
    row(
        "throughput", [](const DesignFigures& d) { return rate(d.claimPerSecond); },
        [&](const DesignFigures& d) { return ratio(f.ours.claimPerSecond, d.claimPerSecond); });
    // For lateness lower is better: the ratio column says how many times lower ours is.
    auto lateRatio = [](long long ours, long long theirs) {
        return ratio(static_cast<double>(theirs), static_cast<double>(std::max(1LL, ours))) +
               " lower";
    };
    row(
        "lateness p50", [](const DesignFigures& d) { return ms(d.lateness.p50); },
        [&](const DesignFigures& d) { return lateRatio(f.ours.lateness.p50, d.lateness.p50); });
    row(
        "lateness p99", [](const DesignFigures& d) { return ms(d.lateness.p99); },
        [&](const DesignFigures& d) { return lateRatio(f.ours.lateness.p99, d.lateness.p99); });
    row(
        "lateness max", [](const DesignFigures& d) { return ms(d.lateness.max); },
        [&](const DesignFigures& d) { return lateRatio(f.ours.lateness.max, d.lateness.max); });
    text += table.render();
    char tail[128];
    std::snprintf(tail, sizeof tail,
                  "\n(%.1f s in all; lateness = taken minus due, over %lld "
                  "tasks each)\n",
                  f.seconds, f.ours.lateness.count);
    text += tail;
    return text;
}

} // namespace

int runBench(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"force", false},
             {"tasks", true},
             {"single-tasks", true},
             {"threads", true},
             {"batch", true},
             {"rate", true},
             {"duration", true},
             {"seed-tasks", true},
             {"skip-seeds", false},
             {"queues", true}},
            0, 0);
    BenchSettings s;
    s.tasks = a.number("tasks", 1, 100'000'000, s.tasks);
    s.singleTasks = a.number("single-tasks", 1, 10'000'000, s.singleTasks);
    s.threads = static_cast<int>(a.number("threads", 1, 64, s.threads));
    s.batch = static_cast<int>(a.number("batch", 1, 1000, s.batch));
    s.rate = a.number("rate", 1, 100'000, s.rate);
    s.durationMs = a.duration("duration", s.durationMs);
    if (s.durationMs < 100 || s.durationMs > 3'600'000)
        throw UsageError("--duration must be from 100ms to 1h");
    s.seedTasks = a.number("seed-tasks", 1, 10'000'000, s.seedTasks);
    s.seeds = !a.has("skip-seeds");
    s.queues = static_cast<int>(a.number("queues", 1, 16, s.queues));

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

    Bench bench(conn.options(), s,
                [](const std::string& line) { std::fprintf(stderr, "bench: %s\n", line.c_str()); });
    const BenchFigures f = bench.run();

    if (ctx.json())
        ctx.printJson(benchJson(s, f));
    else
        ctx.print(benchText(s, f));
    return ExitOk;
}

} // namespace cli
