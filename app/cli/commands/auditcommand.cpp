#include "commands/commands.h"
#include "output/textoutput.h"

#include <delayq/timeparse.h>

namespace cli {

namespace {

// Raw text: preview() makes the whole cell printable once.
std::string joined(const std::vector<std::string>& ids)
{
    std::string out;
    for (const auto& id : ids)
        out += (out.empty() ? "" : " ") + id;
    return out;
}

void writeEntry(JsonWriter& j, const delayq::AuditEntry& e)
{
    j.beginObject()
        .field("id", e.id)
        .field("time", e.timeMs)
        .field("action", e.action)
        .field("count", e.count)
        .key("ids")
        .beginArray();
    for (const auto& id : e.ids)
        j.value(id);
    j.endArray()
        .field("detail", e.detail)
        .field("user", e.user)
        .field("os_user", e.osUser)
        .field("host", e.host)
        .field("tool", e.tool)
        .field("version", e.version)
        .field("bin", e.bin) // the recycle bin's action (cancel, purge, delete), else ""
        .endObject();
}

} // namespace

int runAudit(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"since", true}, {"limit", true}}, 1, 1);
    const long long limit = a.number("limit", 1, 10000, 50);
    const long long since = a.duration("since", -1);
    if (a.has("since") && since <= 0)
        throw UsageError("--since must be a duration above 0, like 1h or 7d");
    // Reading the trail needs no current layout: it is how one finds out who touched a queue.
    delayq::Queue queue = ctx.queue(0, false);
    const long long now = ctx.serverNow();
    const auto entries =
        queue.audit(since > 0 ? std::max(1LL, now - since) : 0, static_cast<int>(limit));
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("queue", queue.name()).key("entries").beginArray();
        for (const auto& e : entries)
            writeEntry(j, e);
        j.endArray().endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    if (entries.empty()) {
        ctx.print("no audit entries for " + queue.name() + (since > 0 ? " in that time" : "") +
                  "\n");
        return ExitOk;
    }
    TextTable table(
        {"TIME", "", "USER", "OS USER@HOST", "TOOL", "ACTION", "COUNT", "IDS / DETAIL"});
    for (const auto& e : entries) {
        std::string what = joined(e.ids);
        if (e.count > static_cast<long long>(e.ids.size()) && !e.ids.empty())
            what += " …";
        if (!e.detail.empty())
            what += (what.empty() ? "" : "  ") + e.detail;
        if (!e.bin.empty()) // restore --action takes it (or this entry's id)
            what += (what.empty() ? "" : "  ") + ("bin=" + e.bin);
        table.addRow({delayq::formatTime(e.timeMs), formatAgo(e.timeMs, now), printable(e.user),
                      printable(e.osUser) + "@" + printable(e.host),
                      printable(e.tool) + " " + printable(e.version), printable(e.action),
                      std::to_string(e.count), preview(what, 80)});
    }
    ctx.print(table.render());
    ctx.print(std::to_string(entries.size()) + " entries, newest first\n");
    return ExitOk;
}

} // namespace cli
