// delayq export: a queue's tasks (or a plain key's members) as JSON Lines on stdout.
#include "commands/commands.h"

#include <delayq/plaintransfer.h>
#include <delayq/schedules.h>
#include <delayq/taskexport.h>

#include <taskline.h>

#include <cstdio>

namespace cli {

namespace {

void writeLine(const std::string& line)
{
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
}

std::vector<delayq::TaskSet> setsOf(const std::string& state)
{
    using delayq::TaskSet;
    if (state == "all")
        return {TaskSet::Pending, TaskSet::Active, TaskSet::Dead};
    if (state == "pending")
        return {TaskSet::Pending};
    if (state == "active")
        return {TaskSet::Active};
    if (state == "dead")
        return {TaskSet::Dead};
    throw UsageError("--state must be pending, active, dead or all");
}

// Stdout closed early (| head) or a full disk must not pass for a complete export.
void requireWritten()
{
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
        throw delayq::Error(delayq::ErrorCode::Protocol,
                            "could not write the export to stdout: it is incomplete");
}

int runPlainExport(Context& ctx)
{
    ctx.args().parse({{"step", true}}, 1, 1);
    const int step = static_cast<int>(ctx.args().number("step", 1, 10000, 1000));
    delayq::PlainQueue queue = ctx.plainQueue();
    delayq::PlainTransfer transfer(ctx.connection(), queue.key(), step);
    long long exported = 0;
    while (!transfer.atEnd())
        for (const auto& member : transfer.next()) {
            writeLine(delayq::TaskLine::fromMember(member));
            ++exported;
        }
    requireWritten();
    std::fprintf(stderr, "exported %lld members of %s\n", exported, queue.key().c_str());
    return ExitOk;
}

} // namespace

int runExport(Context& ctx)
{
    if (ctx.global().plain)
        return runPlainExport(ctx);
    ctx.args().parse({{"state", true}, {"match", true}, {"step", true}}, 1, 1);
    const auto sets = setsOf(ctx.args().value("state", "all"));
    const int step = static_cast<int>(ctx.args().number("step", 1, 10000, 500));
    delayq::Queue queue = ctx.queue();
    delayq::TaskExport exporter(queue, sets, step);
    exporter.setMatch(ctx.args().value("match"));
    long long exported = 0;
    long long active = 0;
    while (!exporter.atEnd())
        for (const auto& task : exporter.next()) {
            writeLine(delayq::TaskLine::fromTask(task));
            ++exported;
            active += task.state == "active";
        }
    // The whole queue (every state, no --match) carries its schedules too, after the tasks.
    long long schedules = 0;
    if (sets.size() == 3 && ctx.args().value("match").empty())
        for (const auto& s :
             delayq::Schedules(ctx.connection(), queue.name(), ctx.global().prefix).list()) {
            writeLine(delayq::TaskLine::fromSchedule(s.rule));
            ++schedules;
        }
    requireWritten();
    std::fprintf(stderr, "exported %lld tasks", exported);
    if (schedules > 0)
        std::fprintf(stderr, " and %lld schedules", schedules);
    std::fprintf(stderr, " of %s", queue.name().c_str());
    if (active > 0)
        std::fprintf(stderr, " (%lld active: an import brings them back pending)", active);
    if (exporter.brokenSkipped() > 0)
        std::fprintf(stderr, "; left out %lld listed ids without readable data",
                     exporter.brokenSkipped());
    std::fprintf(stderr, "\n");
    return ExitOk;
}

} // namespace cli
