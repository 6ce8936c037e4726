#include "commands/commands.h"
#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/recyclebin.h>
#include <delayq/timeparse.h>

#include <cstdio>

namespace cli {

namespace {

// An audit entry is "MS-SEQ"; anything else given to --action is an action id.
bool looksLikeAuditEntry(const std::string& text)
{
    const size_t dash = text.find('-');
    if (dash == 0 || dash == std::string::npos || dash + 1 == text.size())
        return false;
    for (size_t i = 0; i < text.size(); ++i)
        if (i != dash && (text[i] < '0' || text[i] > '9'))
            return false;
    return true;
}

const char* wordOf(delayq::IdResult::Status status)
{
    switch (status) {
    case delayq::IdResult::Status::Done:
        return "restored";
    case delayq::IdResult::Status::Exists:
        return "refused (a task with this id is in the queue again)";
    case delayq::IdResult::Status::Moved:
        return "refused (a reshard since made another shard its home; push it again)";
    default:
        return "not in the recycle bin";
    }
}

} // namespace

int runRestore(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"action", true}, {"all", false}, {"due", true}}, 1, -1);
    const auto& words = a.positional();
    const int ways = (words.size() > 1) + a.has("action") + a.has("all");
    if (ways != 1)
        throw UsageError("give the ids to restore, --action ACTION (or its audit entry), or --all "
                         "(one of them)");
    delayq::Queue queue = ctx.queue();
    std::optional<long long> due;
    if (a.has("due"))
        due = a.value("due") == "now" ? queue.connection().serverNowMs() : a.time("due");
    delayq::RecycleBin bin(queue);
    std::vector<delayq::IdResult> results;
    if (a.has("all")) {
        results = bin.restoreAll(due);
    } else if (a.has("action")) {
        const std::string given = a.value("action");
        results = bin.restoreAction(
            looksLikeAuditEntry(given) ? bin.actionOfAuditEntry(given) : given, due);
    } else {
        results = bin.restore({words.begin() + 1, words.end()}, due);
    }
    long long done = 0;
    for (const auto& r : results)
        done += r.status == delayq::IdResult::Status::Done;
    const long long refused = static_cast<long long>(results.size()) - done;
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", queue.name())
            .field("restored", done)
            .field("refused", refused);
        writeIdResults(j, results);
        j.endObject();
        ctx.printJson(j);
    } else {
        std::string text;
        for (const auto& r : results)
            if (r.status != delayq::IdResult::Status::Done || results.size() <= 50)
                text += std::string(wordOf(r.status)) + " " + printable(r.id) + "\n";
        text += "restored " + std::to_string(done) + " tasks to " + queue.name() + "\n";
        ctx.print(text);
    }
    if (refused > 0) {
        std::fprintf(stderr, "delayq: %lld of %zu tasks were not restored\n", refused,
                     results.size());
        return ExitRefused;
    }
    return ExitOk;
}

int runBin(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"ids", false}, {"action", true}, {"limit", true}}, 1, 1);
    const long long limit = a.number("limit", 1, 100000, 1000);
    delayq::Queue queue = ctx.queue(0, false);
    delayq::RecycleBin bin(queue);
    const long long now = queue.connection().serverNowMs();
    if (a.has("ids") || a.has("action")) {
        const auto tasks = bin.tasks(a.value("action"), static_cast<size_t>(limit));
        if (ctx.json()) {
            JsonWriter j;
            j.beginObject().field("queue", queue.name()).key("tasks").beginArray();
            for (const auto& t : tasks)
                j.beginObject()
                    .field("id", t.id)
                    .field("action", t.action)
                    .field("state", t.state)
                    .field("removed_ms", t.removedMs)
                    .endObject();
            j.endArray().endObject();
            ctx.printJson(j);
            return ExitOk;
        }
        TextTable table({"ID", "WAS", "REMOVED", "ACTION"});
        for (const auto& t : tasks)
            table.addRow(
                {printable(t.id), t.state, formatAgo(t.removedMs, now), printable(t.action)});
        ctx.print(table.rowCount() ? table.render()
                                   : "the recycle bin of " + queue.name() + " is empty\n");
        return ExitOk;
    }
    const auto actions = bin.actions();
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("queue", queue.name()).key("actions").beginArray();
        for (const auto& b : actions)
            j.beginObject()
                .field("action", b.action)
                .field("kind", b.kind)
                .field("tasks", b.tasks)
                .field("removed_ms", b.removedMs)
                .field("audit_entry", b.auditEntry)
                .endObject();
        j.endArray().endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    if (actions.empty()) {
        ctx.print("the recycle bin of " + queue.name() + " is empty\n");
        return ExitOk;
    }
    TextTable table({"ACTION", "KIND", "TASKS", "REMOVED", "AUDIT ENTRY"});
    for (const auto& b : actions)
        table.addRow({printable(b.action), b.kind, std::to_string(b.tasks),
                      formatAgo(b.removedMs, now), b.auditEntry.empty() ? "-" : b.auditEntry});
    ctx.print(table.render() + "restore with: delayq restore " + queue.name() +
              " --action ACTION (or its audit entry)\n");
    return ExitOk;
}

// After a cancel, rm-dead or purge that removed something: how to take it back (stderr, so
// the output a script reads stays as it was).
void printBinHint(Context& ctx, delayq::Queue& queue)
{
    if (ctx.json() || queue.binAction().empty())
        return;
    const delayq::QueueConfig c = queue.config();
    if (c.binKeepMs <= 0 || c.binMax <= 0 || c.binBytes <= 0)
        return; // the bin is off: the removal was final

    std::fprintf(stderr, "kept in the recycle bin: delayq restore %s --action %s\n",
                 printable(queue.name()).c_str(), queue.binAction().c_str());
}

} // namespace cli
