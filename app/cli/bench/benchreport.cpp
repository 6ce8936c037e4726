#include "bench/benchreport.h"

#include "output/textoutput.h"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace cli {

namespace {

std::string format(const char* pattern, double value)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, pattern, value);
    return buf;
}

std::string rate(double perSecond)
{
    return rateText(perSecond);
}

std::string micros(double us)
{
    return microsText(us);
}

std::string bytes(double b)
{
    return format("%.0f B", b);
}

std::string ratio(double ours, double theirs)
{
    return ratioText(ours, theirs);
}

std::string ms(long long value)
{
    return std::to_string(value) + " ms";
}

double overPayload(const MemoryFigures& m)
{
    return m.bytesPerTask - static_cast<double>(m.payloadBytes);
}

void writeDesign(JsonWriter& j, const DesignFigures& d)
{
    j.beginObject()
        .field("design", d.label)
        .field("kind", d.kind)
        .field("claim_per_s", d.claim.perSecond)
        .field("claim_tasks", d.claim.tasks)
        .field("claim_cpu_us_per_task", d.claim.cpuUsPerTask);
    if (d.drain) {
        j.key("drain");
        writePhase(j, *d.drain);
    }
    j.key("lateness_ms")
        .beginObject()
        .field("count", d.lateness.count)
        .field("p50", d.lateness.p50)
        .field("p99", d.lateness.p99)
        .field("max", d.lateness.max)
        .endObject()
        .field("lateness_cpu_us_per_task", d.latenessCpuUsPerTask)
        .key("memory")
        .beginObject()
        .field("tasks", d.memory.tasks)
        .field("payload_bytes", d.memory.payloadBytes)
        .field("bytes_per_task", d.memory.bytesPerTask)
        .field("bytes_per_task_over_payload", overPayload(d.memory))
        .endObject()
        .endObject();
}

void writeSettings(JsonWriter& j, const BenchSettings& s)
{
    j.key("settings")
        .beginObject()
        .field("tasks", s.tasks)
        .field("single_tasks", s.singleTasks)
        .field("threads", s.threads)
        .field("batch", effectiveBatch(s))
        .field("batch_from", s.batch ? "--batch" : "worker default")
        .field("rate", s.rate)
        .field("duration_ms", s.durationMs)
        .field("seed_tasks", s.seedTasks)
        .field("drain_tasks", s.drainTasks)
        .field("drain_workers", s.threads)
        .field("memory_tasks", s.memoryTasks);
    // The fields of --queues only with more than one, so the default output stays as it was.
    if (s.queues > 1)
        j.field("queues", s.queues);
    j.endObject();
}

void writeRatios(JsonWriter& j, const BenchFigures& f)
{
    const DesignFigures& o = f.ours;
    j.key("ratios").beginArray();
    for (const auto& d : f.seeds) {
        j.beginObject()
            .field("design", d.label)
            .field("kind", d.kind)
            .field("claim_ours_over_theirs",
                   d.claim.perSecond > 0 ? o.claim.perSecond / d.claim.perSecond : 0.0)
            .field("claim_cpu_ours_over_theirs",
                   d.claim.cpuUsPerTask > 0 ? o.claim.cpuUsPerTask / d.claim.cpuUsPerTask : 0.0)
            .field("p99_lateness_theirs_over_ours",
                   static_cast<double>(d.lateness.p99) / std::max(1LL, o.lateness.p99))
            .field("memory_ours_over_theirs",
                   d.memory.bytesPerTask > 0 ? o.memory.bytesPerTask / d.memory.bytesPerTask : 0.0);
        if (d.drain && o.drain && d.drain->perSecond > 0)
            j.field("drain_ours_over_theirs", o.drain->perSecond / d.drain->perSecond)
                .field("drain_cpu_ours_over_theirs",
                       d.drain->cpuUsPerTask > 0 ? o.drain->cpuUsPerTask / d.drain->cpuUsPerTask
                                                 : 0.0);
        j.endObject();
    }
    j.endArray();
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
           (f.masters == 1 ? " master" : " masters") + ", batch " +
           std::to_string(effectiveBatch(s)) + ", lateness at " + std::to_string(s.rate) +
           " tasks/s\n\n" + table.render() + "\n";
}

using Cell = std::function<std::string(const DesignFigures&)>;

// One row per figure: delayq's, each seed design's, then ours against each.
class FigureTable
{
public:
    explicit FigureTable(const BenchFigures& f) : m_f(f), m_table(headers(f)) {}

    void add(const std::string& name, const Cell& value, const Cell& compare)
    {
        std::vector<std::string> cells = {name, value(m_f.ours)};
        for (const auto& d : m_f.seeds)
            cells.push_back(value(d));
        for (const auto& d : m_f.seeds)
            cells.push_back(compare(d));
        m_table.addRow(cells);
    }
    // A figure only delayq has.
    void addOurs(const std::string& name, const std::string& value)
    {
        m_table.addRow({name, value});
    }
    std::string render() const { return m_table.render(); }

private:
    static std::vector<std::string> headers(const BenchFigures& f)
    {
        std::vector<std::string> h = {"", "delayq"};
        for (const auto& d : f.seeds)
            h.push_back(d.label);
        for (const auto& d : f.seeds)
            h.push_back("ours/" + d.label.substr(0, 3));
        return h;
    }

    const BenchFigures& m_f;
    TextTable m_table;
};

void addLateness(FigureTable& t, const BenchFigures& f)
{
    // For lateness lower is better: the ratio column says how many times lower ours is.
    auto lower = [](long long ours, long long theirs) {
        return ratio(static_cast<double>(theirs), static_cast<double>(std::max(1LL, ours))) +
               " lower";
    };
    const LatenessFigures& o = f.ours.lateness;
    t.add(
        "lateness p50", [](const DesignFigures& d) { return ms(d.lateness.p50); },
        [&](const DesignFigures& d) { return lower(o.p50, d.lateness.p50); });
    t.add(
        "lateness p99", [](const DesignFigures& d) { return ms(d.lateness.p99); },
        [&](const DesignFigures& d) { return lower(o.p99, d.lateness.p99); });
    t.add(
        "lateness max", [](const DesignFigures& d) { return ms(d.lateness.max); },
        [&](const DesignFigures& d) { return lower(o.max, d.lateness.max); });
    t.add(
        "  Redis CPU per task",
        [](const DesignFigures& d) { return micros(d.latenessCpuUsPerTask); },
        [&](const DesignFigures& d) {
            return ratio(f.ours.latenessCpuUsPerTask, d.latenessCpuUsPerTask);
        });
}

void addDrainAndMemory(FigureTable& t, const BenchSettings& s, const BenchFigures& f)
{
    const DesignFigures& o = f.ours;
    t.add(
        "drain, " + std::to_string(s.drainTasks) + " due at once, " + std::to_string(s.threads) +
            " workers",
        [](const DesignFigures& d) { return d.drain ? rate(d.drain->perSecond) : "-"; },
        [&](const DesignFigures& d) {
            return d.drain ? ratio(o.drain->perSecond, d.drain->perSecond) : "";
        });
    t.add(
        "  Redis CPU per task",
        [](const DesignFigures& d) { return d.drain ? micros(d.drain->cpuUsPerTask) : "-"; },
        [&](const DesignFigures& d) {
            return d.drain ? ratio(o.drain->cpuUsPerTask, d.drain->cpuUsPerTask) : "";
        });
    t.add(
        "memory per task, " + std::to_string(s.memoryTasks) + " pending",
        [](const DesignFigures& d) { return bytes(d.memory.bytesPerTask); },
        [&](const DesignFigures& d) {
            return ratio(o.memory.bytesPerTask, d.memory.bytesPerTask);
        });
    t.add(
        "  minus the " + std::to_string(kMemoryPayloadBytes) + "-byte payload",
        [](const DesignFigures& d) { return bytes(overPayload(d.memory)); },
        [&](const DesignFigures& d) {
            return ratio(overPayload(o.memory), overPayload(d.memory));
        });
}

} // namespace

JsonWriter benchJson(const BenchSettings& s, const BenchFigures& f)
{
    JsonWriter j;
    j.beginObject().field("server", f.server);
    writeSettings(j, s);
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
    j.field("push_batched_per_s", f.pushBatched.perSecond)
        .field("push_batched_cpu_us_per_task", f.pushBatched.cpuUsPerTask)
        .field("push_single_per_s", f.pushSingle.perSecond)
        .field("push_single_cpu_us_per_task", f.pushSingle.cpuUsPerTask)
        .key("ours");
    writeDesign(j, f.ours);
    j.key("seeds").beginArray();
    for (const auto& d : f.seeds)
        writeDesign(j, d);
    j.endArray();
    writeRatios(j, f);
    if (f.history.events > 0) {
        j.key("history").beginObject().field("events", f.history.events).key("push");
        writePhase(j, f.history.push);
        j.key("claim");
        writePhase(j, f.history.claim);
        j.key("memory")
            .beginObject()
            .field("tasks", f.history.memory.tasks)
            .field("bytes_per_task", f.history.memory.bytesPerTask)
            .endObject()
            .endObject();
    }
    j.field("seconds", f.seconds).endObject();
    return j;
}

std::string rateText(double perSecond)
{
    return format("%.0f/s", perSecond);
}

std::string microsText(double us)
{
    return format("%.1f µs", us);
}

std::string ratioText(double ours, double theirs)
{
    return theirs > 0 ? format("%.1fx", ours / theirs) : "-";
}

std::string secondsText(double seconds)
{
    return format("%.1f", seconds);
}

void writePhase(JsonWriter& j, const PhaseFigures& p)
{
    j.beginObject()
        .field("tasks", p.tasks)
        .field("per_s", p.perSecond)
        .field("cpu_us_per_task", p.cpuUsPerTask);
    if (p.firstMs >= 0)
        j.field("first_ms", p.firstMs);
    j.endObject();
}

// The task-history phases beside the same phases without it, as ratios of their costs.
std::string historyText(const BenchFigures& f)
{
    const HistoryFigures& h = f.history;
    auto cost = [](const char* what, double with, double without, const char* unit) {
        char line[160];
        std::snprintf(line, sizeof line, "  %-26s %8.1f %s  (off: %.1f %s, %s)\n", what, with, unit,
                      without, unit, ratioText(with, without).c_str());
        return std::string(line);
    };
    return "\ntask history on (" + std::to_string(h.events) + " events kept a task):\n" +
           cost("push, Redis CPU per task", h.push.cpuUsPerTask, f.pushBatched.cpuUsPerTask, "µs") +
           cost("claim+ack, Redis CPU/task", h.claim.cpuUsPerTask, f.ours.claim.cpuUsPerTask,
                "µs") +
           cost("memory per pending task", h.memory.bytesPerTask, f.ours.memory.bytesPerTask, "B");
}

std::string benchText(const BenchSettings& s, const BenchFigures& f)
{
    const std::string batch =
        std::to_string(effectiveBatch(s)) + (s.batch ? std::string() : " (delayq work's default)");
    std::string text = "delayq bench on " + printable(f.server) + ": " + std::to_string(s.threads) +
                       " threads, batch " + batch + ", lateness at " + std::to_string(s.rate) +
                       " tasks/s\n\n";
    if (s.queues > 1)
        text = queuesText(s, f);
    FigureTable t(f);
    t.addOurs("push, batched (" + std::to_string(s.tasks) + " tasks)",
              rate(f.pushBatched.perSecond));
    t.addOurs("  Redis CPU per task", micros(f.pushBatched.cpuUsPerTask));
    t.addOurs("push, one by one (" + std::to_string(s.singleTasks) + " tasks)",
              rate(f.pushSingle.perSecond));
    t.addOurs("  Redis CPU per task", micros(f.pushSingle.cpuUsPerTask));
    t.add(
        "claim+ack (" + std::to_string(s.tasks) +
            (f.seeds.empty() ? " tasks)" : "; seeds: claim " + std::to_string(s.seedTasks) + ")"),
        [](const DesignFigures& d) { return rate(d.claim.perSecond); },
        [&](const DesignFigures& d) { return ratio(f.ours.claim.perSecond, d.claim.perSecond); });
    t.add(
        "  Redis CPU per task", [](const DesignFigures& d) { return micros(d.claim.cpuUsPerTask); },
        [&](const DesignFigures& d) {
            return ratio(f.ours.claim.cpuUsPerTask, d.claim.cpuUsPerTask);
        });
    addDrainAndMemory(t, s, f);
    addLateness(t, f);
    text += t.render();
    if (f.history.events > 0)
        text += historyText(f);
    text += "\n" + secondsText(f.seconds) + " s in all. Lateness: taken minus due, over " +
            std::to_string(f.ours.lateness.count) +
            " tasks each. Drain: from the moment the backlog fell due (workers already\n"
            "waiting) to its last task finished.\nRedis CPU: used_cpu_user + used_cpu_sys (INFO "
            "cpu) over the phase, per "
            "task; memory: used_memory\n(INFO memory) after minus before, per task. ours/theirs "
            "of a cost: below 1x is cheaper.\n";
    return text;
}

} // namespace cli
