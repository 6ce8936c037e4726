// delayq import: tasks (or plain members) from JSON Lines on stdin, as delayq export wrote them.
#include "commands/commands.h"

#include <delayq/plaintransfer.h>
#include <delayq/schedules.h>
#include <delayq/taskimport.h>

#include <taskline.h>

#include <cstdio>
#include <functional>
#include <iostream>

namespace cli {

namespace {

struct ImportTally
{
    long long created = 0;
    long long skipped = 0;
    long long replaced = 0;
    long long refused = 0;   // over max_payload, or held by a worker under replace
    long long badLines = 0;  // skipped under --keep-going
    long long wasActive = 0; // came back pending
    long long schedules = 0; // schedules added or replaced
    std::string stoppedBy;   // the server refused a whole batch (fair order's bound on groups)
};

// Thrown by a batch the server refused whole: the import stops there (eachLine's caller).
struct BatchRefused
{};

void reportLine(long long line, const std::string& what)
{
    std::fprintf(stderr, "line %lld: %s\n", line, what.c_str());
}

// Reads stdin line by line and hands each non-empty line with its number to `take`, which
// throws delayq::Error(InvalidArgument) for a bad line. Returns false when a bad line stopped
// the import (without --keep-going); `flush` runs before that, so every line before the bad
// one is in, and nothing after it.
bool eachLine(bool keepGoing, ImportTally& tally,
              const std::function<void(long long, const std::string&)>& take,
              const std::function<void()>& flush)
{
    std::string line;
    long long number = 0;
    while (std::getline(std::cin, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos)
            continue;
        try {
            take(number, line);
        } catch (const delayq::Error& e) {
            if (e.code() != delayq::ErrorCode::InvalidArgument)
                throw;
            reportLine(number, e.what());
            ++tally.badLines;
            if (!keepGoing) {
                flush();
                return false;
            }
        }
    }
    flush();
    return true;
}

int finish(Context& ctx, const std::string& name, const ImportTally& t, bool complete)
{
    if (!t.stoppedBy.empty())
        complete = false;
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", name)
            .field("created", t.created)
            .field("skipped", t.skipped)
            .field("replaced", t.replaced)
            .field("refused", t.refused)
            .field("bad_lines", t.badLines)
            .field("active_made_pending", t.wasActive)
            .field("schedules", t.schedules)
            .field("complete", complete)
            .endObject();
        ctx.printJson(j);
    } else {
        ctx.print("imported into " + name + ": " + std::to_string(t.created) + " created, " +
                  std::to_string(t.skipped) + " skipped (already there), " +
                  std::to_string(t.replaced) + " replaced, " + std::to_string(t.refused) +
                  " refused, " + std::to_string(t.badLines) + " bad lines" +
                  (t.schedules > 0 ? ", " + std::to_string(t.schedules) + " schedules" : "") +
                  "\n");
        if (t.wasActive > 0)
            ctx.print(std::to_string(t.wasActive) +
                      " tasks were active when exported: they are pending again, due at their "
                      "due time\n");
        if (!t.stoppedBy.empty())
            ctx.print("stopped: " + t.stoppedBy +
                      "\n(every line before that batch is in, nothing from it on)\n");
        else if (!complete)
            ctx.print("stopped at the bad line: nothing after it was imported (fix it, or skip "
                      "bad lines with --keep-going; running the import again adds nothing "
                      "twice)\n");
    }
    return complete && t.refused == 0 && t.badLines == 0 ? ExitOk : ExitRefused;
}

// A schedule line: added, or (under replace) its rule replaced; one that exists is skipped.
// The next fire is the first after now: an import is not downtime to catch up on.
void importSchedule(delayq::Schedules& schedules, const delayq::ScheduleRule& rule, bool replace,
                    ImportTally& tally)
{
    rule.validate(); // InvalidArgument: a bad line
    if (!schedules.get(rule.name)) {
        schedules.add(rule);
        ++tally.schedules;
    } else if (replace) {
        schedules.replace(rule);
        ++tally.schedules;
    } else {
        ++tally.skipped;
    }
}

int runPlainImport(Context& ctx, bool replace, bool keepGoing)
{
    delayq::PlainQueue queue = ctx.plainQueue();
    ImportTally tally;
    std::vector<delayq::PlainQueue::Member> batch;
    auto flush = [&] {
        const auto added =
            delayq::PlainTransfer::importBatch(ctx.connection(), queue.key(), batch, replace);
        for (bool a : added)
            (a ? (replace ? tally.replaced : tally.created) : tally.skipped) += 1;
        batch.clear();
    };
    auto take = [&](long long, const std::string& line) {
        batch.push_back(delayq::TaskLine::toMember(line));
        if (batch.size() == delayq::PlainTransfer::kBatch)
            flush();
    };
    const bool complete = eachLine(keepGoing, tally, take, flush);
    return finish(ctx, queue.key(), tally, complete);
}

} // namespace

int runImport(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"on-existing", true}, {"keep-going", false}}, 1, 1);
    const std::string onExisting = a.value("on-existing", "skip");
    if (onExisting != "skip" && onExisting != "replace")
        throw UsageError("--on-existing must be skip or replace");
    const bool replace = onExisting == "replace";
    const bool keepGoing = a.has("keep-going");
    if (ctx.global().plain)
        return runPlainImport(ctx, replace, keepGoing);

    delayq::Queue queue = ctx.queue();
    delayq::TaskImport importer(queue, replace);
    ImportTally tally;
    std::vector<delayq::Task> batch;
    std::vector<long long> lines;
    auto flush = [&] {
        std::vector<delayq::PushResult::Status> statuses;
        try {
            statuses = importer.importBatch(batch);
        } catch (const delayq::Error& e) {
            // The lines were checked one by one (TaskImport::check): a refusal of the batch as
            // a whole is the server's (import_tasks.lua: the bound on fair order's groups),
            // and it wrote nothing of it. The batches after it would be refused as well.
            if (e.code() != delayq::ErrorCode::InvalidArgument || lines.empty())
                throw;
            reportLine(lines.front(), "this line and the " + std::to_string(lines.size() - 1) +
                                          " after it were not imported: " + e.what());
            tally.refused += static_cast<long long>(batch.size());
            tally.stoppedBy = e.what();
            batch.clear();
            lines.clear();
            throw BatchRefused{};
        }
        using S = delayq::PushResult::Status;
        for (size_t i = 0; i < statuses.size(); ++i) {
            if (statuses[i] == S::Created)
                ++tally.created;
            else if (statuses[i] == S::Exists)
                ++tally.skipped;
            else if (statuses[i] == S::Replaced)
                ++tally.replaced;
            else {
                ++tally.refused;
                reportLine(lines[i], "task " + batch[i].id.substr(0, 64) +
                                         (statuses[i] == S::TooLarge
                                              ? ": the payload is over the queue's max_payload"
                                              : ": a worker holds it, so it was not replaced"));
            }
        }
        batch.clear();
        lines.clear();
    };
    delayq::Schedules schedules(ctx.connection(), queue.name(), ctx.global().prefix);
    auto take = [&](long long number, const std::string& line) {
        if (delayq::TaskLine::isSchedule(line)) {
            importSchedule(schedules, delayq::TaskLine::toSchedule(line), replace, tally);
            return;
        }
        delayq::Task task = delayq::TaskLine::toTask(line);
        delayq::TaskImport::check(task);
        tally.wasActive += task.state == "active";
        batch.push_back(std::move(task));
        lines.push_back(number);
        if (batch.size() == delayq::TaskImport::kBatch)
            flush();
    };
    bool complete = false;
    try {
        complete = eachLine(keepGoing, tally, take, flush);
    } catch (const BatchRefused&) {
        complete = false;
    }
    return finish(ctx, queue.name(), tally, complete);
}

} // namespace cli
