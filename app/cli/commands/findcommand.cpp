#include "commands/commands.h"
#include "output/textoutput.h"

#include <cstdio>

#include <delayq/error.h>
#include <delayq/taskscan.h>
#include <delayq/timeparse.h>

namespace cli {

namespace {

delayq::ScanField findField(const std::string& text)
{
    if (text == "payload")
        return delayq::ScanField::Payload;
    if (text == "error")
        return delayq::ScanField::Error;
    if (text == "worker")
        return delayq::ScanField::Worker;
    throw UsageError("--in must be payload, error or worker");
}

struct FindOutcome
{
    std::vector<delayq::Task> matches;
    long long read = 0;
    bool complete = false; // the whole set was read (else --limit stopped it)
};

// Bounded steps until the set is read or --limit matches are found: each step holds Redis
// no longer than reading one page does, whatever the queue's size.
FindOutcome scanAll(delayq::Queue& queue, const delayq::TaskFilter& filter, long long limit,
                    int step)
{
    delayq::TaskScan scan(queue);
    FindOutcome out;
    delayq::ScanCursor cursor;
    while (!cursor.done && static_cast<long long>(out.matches.size()) < limit) {
        delayq::ScanStep s = scan.step(filter, cursor, step);
        cursor = s.cursor;
        out.read += s.read;
        for (auto& t : s.matches) {
            if (static_cast<long long>(out.matches.size()) >= limit)
                return out;
            out.matches.push_back(std::move(t));
        }
    }
    out.complete = cursor.done;
    return out;
}

} // namespace

int runFind(Context& ctx)
{
    if (ctx.global().plain)
        throw UsageError("find searches native queues; a plain key's members are searched in "
                         "delayq-admin");
    Args& a = ctx.args();
    a.parse({{"state", true}, {"in", true}, {"limit", true}, {"step", true}}, 2, 2);
    delayq::TaskFilter filter;
    filter.field = findField(a.value("in", "payload"));
    // Errors are mostly looked for among the dead.
    filter.set =
        parseState(a.value("state", filter.field == delayq::ScanField::Error ? "dead" : "pending"));
    filter.text = a.positional()[1];
    if (filter.text.empty())
        throw UsageError("TEXT is empty: give the text to look for (ls lists every task)");
    const long long limit = a.number("limit", 1, 10000, 100);
    const int step = static_cast<int>(a.number("step", 1, 1000, 250));
    delayq::Queue queue = ctx.queue();
    const long long total = queue.size(filter.set);
    const FindOutcome found = scanAll(queue, filter, limit, step);
    const char* setName = delayq::taskSetName(filter.set);
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", queue.name())
            .field("state", setName)
            .field("in", delayq::scanFieldName(filter.field))
            .field("text", filter.text)
            .field("read", found.read)
            .field("total", total)
            .field("complete", found.complete)
            .key("matches")
            .beginArray();
        for (const auto& t : found.matches)
            writeTask(j, t, filter.set);
        j.endArray().endObject();
        ctx.printJson(j);
        return found.matches.empty() ? ExitRefused : ExitOk;
    }
    const std::string where =
        std::string(filter.field == delayq::ScanField::Error ? "the last error" : "the payload") +
        " of " + std::to_string(found.read) + " " + setName + " tasks read";
    if (found.matches.empty()) {
        std::fprintf(stderr, "delayq: no match in %s\n", where.c_str());
        return ExitRefused;
    }
    const long long now = ctx.serverNow();
    const bool errors =
        filter.field == delayq::ScanField::Error || filter.set == delayq::TaskSet::Dead;
    TextTable table({filter.set == delayq::TaskSet::Pending  ? "DUE"
                     : filter.set == delayq::TaskSet::Active ? "LEASE UNTIL"
                                                             : "DIED",
                     "", "ID", errors ? "LAST ERROR" : "PAYLOAD", errors ? "PAYLOAD" : ""});
    for (const auto& t : found.matches)
        table.addRow({delayq::formatTime(t.score),
                      filter.set == delayq::TaskSet::Dead ? formatAgo(t.score, now)
                                                          : delayq::formatRelative(t.score, now),
                      printable(t.id), preview(errors ? t.lastError : t.payload, 60),
                      errors ? preview(t.payload, 40) : std::string()});
    ctx.print(table.render());
    ctx.print(std::to_string(found.matches.size()) + " matches in " + where + " (of " +
              std::to_string(total) + ")" +
              (found.complete ? "" : "; --limit stopped the search, more may match") + "\n");
    return ExitOk;
}

} // namespace cli
