// `delayq schedule add|ls|show|edit|pause|resume|rm|run-now|backfill` (docs/schedules.md).
#include "commands/commands.h"
#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/schedules.h>
#include <delayq/taskid.h>
#include <delayq/timeparse.h>

#include <algorithm>
#include <map>

namespace cli {

namespace {

using delayq::ScheduleInfo;
using delayq::ScheduleRule;

const std::vector<OptionSpec> kOptions = {
    {"cron", true},       {"tz", true},           {"every", true},   {"start", true},
    {"catch-up", true},   {"max-attempts", true}, {"backoff", true}, {"paused"},
    {"payload", true},    {"fires", true},        {"overlap", true}, {"jitter", true},
    {"request-id", true}, {"from", true},         {"to", true}};

// The options each action takes (the rest are refused by name).
const std::map<std::string, std::vector<std::string>> kActionOptions = {
    {"add",
     {"cron", "tz", "every", "start", "catch-up", "max-attempts", "backoff", "paused", "overlap",
      "jitter"}},
    {"edit",
     {"cron", "tz", "every", "start", "catch-up", "max-attempts", "backoff", "payload", "overlap",
      "jitter"}},
    {"run-now", {"request-id"}},
    {"backfill", {"from", "to"}},
    {"show", {"fires"}},
    {"ls", {}},
    {"pause", {}},
    {"resume", {}},
    {"rm", {}}};

void refuseOthers(const Args& a, const std::string& action)
{
    const auto& allowed = kActionOptions.at(action);
    for (const auto& o : kOptions)
        if (a.has(o.name) && std::find(allowed.begin(), allowed.end(), o.name) == allowed.end())
            throw UsageError("schedule " + action + " takes no --" + o.name);
}

// The options add and edit share, applied to rule.
void applyOptions(const Args& a, ScheduleRule& rule, bool editing)
{
    a.exclusive({"cron", "every"});
    if (a.has("cron")) {
        rule.cron = a.value("cron");
        rule.everyMs = 0;
        rule.anchorMs = 0;
        if (!editing || rule.zone.empty())
            rule.zone = "UTC";
    }
    if (a.has("every")) {
        const long long every = a.duration("every", 0);
        if (every != rule.everyMs)
            rule.anchorMs = 0; // a new interval starts a new grid
        rule.everyMs = every;
        rule.cron.clear();
        rule.zone.clear();
    }
    if (a.has("tz")) {
        if (rule.cron.empty())
            throw UsageError("--tz applies to a cron schedule (an interval has no wall clock)");
        rule.zone = a.value("tz");
    }
    if (const auto start = a.time("start")) {
        if (rule.everyMs == 0)
            throw UsageError("--start applies to an --every schedule (its first fire)");
        rule.anchorMs = *start;
    }
    rule.catchUpMs = a.duration("catch-up", rule.catchUpMs);
    rule.maxAttempts =
        static_cast<int>(a.number("max-attempts", 0, 1'000'000'000, rule.maxAttempts));
    if (a.has("backoff"))
        rule.backoff = delayq::Queue::normalizeBackoff(a.value("backoff"));
    if (a.has("overlap")) {
        const auto overlap = ScheduleRule::parseOverlap(a.value("overlap"));
        if (!overlap)
            throw UsageError("--overlap is allow or skip, not '" +
                             printable(a.value("overlap").substr(0, 32)) + "'");
        rule.overlap = *overlap;
    }
    rule.jitterMs = a.duration("jitter", rule.jitterMs);
}

// The rule, and its overlap policy and jitter when it has them.
std::string ruleText(const ScheduleRule& r)
{
    return r.describe() + (r.overlap == ScheduleRule::Overlap::Skip ? ", overlap skip" : "") +
           (r.jitterMs ? ", jitter " + delayq::formatDuration(r.jitterMs) : "");
}

std::string fireText(Context& ctx, const std::optional<long long>& at)
{
    return at ? ctx.when(*at) : std::string("none");
}

std::string stateOf(const ScheduleInfo& s)
{
    if (s.rule.paused)
        return "paused";
    return s.nextFire ? "active" : "ended";
}

void writeSchedule(JsonWriter& j, const ScheduleInfo& s)
{
    const ScheduleRule& r = s.rule;
    j.beginObject().field("name", r.name).field("kind", r.cron.empty() ? "every" : "cron");
    if (r.cron.empty())
        j.field("every_ms", r.everyMs).field("start", r.anchorMs);
    else
        j.field("cron", r.cron).field("zone", r.zone);
    j.field("state", stateOf(s)).key("next_fire");
    s.nextFire ? j.value(*s.nextFire) : j.null();
    j.key("last_fire");
    s.lastFire ? j.value(s.lastFire) : j.null();
    j.field("fired", s.fired)
        .field("skipped", s.skipped)
        .field("catch_up_ms", r.catchUpMs)
        .field("max_attempts", r.maxAttempts)
        .field("backoff", r.backoff)
        .field("overlap", ScheduleRule::overlapName(r.overlap))
        .field("overlapped", s.overlapped)
        .field("jitter_ms", r.jitterMs)
        .field("payload", r.payload);
    if (!JsonWriter::isValidUtf8(r.payload))
        j.field("payload_base64", JsonWriter::base64(r.payload));
    j.field("version", s.version).field("updated", s.updatedMs).endObject();
}

// The next `count` fires from the stored next one (or, paused, from now).
std::vector<long long> nextFires(Context& ctx, const ScheduleInfo& s, int count)
{
    std::vector<long long> fires;
    std::optional<long long> at = s.nextFire ? s.nextFire : s.rule.nextFire(ctx.serverNow());
    while (at && static_cast<int>(fires.size()) < count) {
        fires.push_back(*at);
        at = s.rule.nextFire(*at);
    }
    return fires;
}

int printChanged(Context& ctx, const char* what, const std::string& queue, const ScheduleInfo& s)
{
    if (ctx.json()) {
        JsonWriter j;
        writeSchedule(j, s);
        ctx.printJson(j);
    } else {
        ctx.print(std::string(what) + " schedule " + s.rule.name + " on " + queue + ": " +
                  printable(ruleText(s.rule)) + (s.rule.paused ? ", paused" : "") + ", next fire " +
                  fireText(ctx, s.nextFire) + "\n");
    }
    return ExitOk;
}

int add(Context& ctx, delayq::Schedules& schedules, const std::string& queue)
{
    const Args& a = ctx.args();
    if (!a.has("cron") && !a.has("every"))
        throw UsageError("schedule add needs --cron 'EXPR' or --every D");
    ScheduleRule rule;
    rule.name = a.positional()[2];
    applyOptions(a, rule, false);
    rule.paused = a.has("paused");
    rule.validate(); // before stdin is read
    if (a.positional().size() > 3)
        rule.payload = a.positional()[3] == "-" ? readStdin() : a.positional()[3];
    return printChanged(ctx, "added", queue, schedules.add(rule));
}

ScheduleInfo existing(delayq::Schedules& schedules, const std::string& name,
                      const std::string& queue)
{
    std::optional<ScheduleInfo> info = schedules.get(name);
    if (!info)
        throw delayq::Error(delayq::ErrorCode::NotFound,
                            "no schedule '" + name + "' on queue '" + queue + "'");
    return *info;
}

int edit(Context& ctx, delayq::Schedules& schedules, const std::string& queue)
{
    const Args& a = ctx.args();
    const std::string& name = a.positional()[2];
    std::string payload;
    if (a.has("payload"))
        payload = a.value("payload") == "-" ? readStdin() : a.value("payload");
    // Read, change, write while nobody else changed it meanwhile: another client's edit is
    // never overwritten with what was read before it.
    for (int attempt = 0; attempt < 5; ++attempt) {
        const ScheduleInfo info = existing(schedules, name, queue);
        ScheduleRule rule = info.rule;
        applyOptions(a, rule, true);
        if (a.has("payload"))
            rule.payload = payload;
        if (auto written = schedules.replace(rule, info.version))
            return printChanged(ctx, "changed", queue, *written);
    }
    throw delayq::Error(delayq::ErrorCode::Exists,
                        "schedule '" + name + "' kept changing under other clients: try again");
}

int list(Context& ctx, delayq::Schedules& schedules, const std::string& queue)
{
    const std::vector<ScheduleInfo> all = schedules.list();
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("queue", queue).key("schedules").beginArray();
        for (const auto& s : all)
            writeSchedule(j, s);
        j.endArray().endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    if (all.empty()) {
        ctx.print("no schedules on " + queue + " (delayq schedule add " + queue +
                  " NAME --cron 'EXPR' | --every D)\n");
        return ExitOk;
    }
    TextTable table({"NAME", "RULE", "STATE", "NEXT FIRE", "LAST FIRE", "FIRED", "SKIPPED"});
    for (const auto& s : all)
        table.addRow({s.rule.name, printable(ruleText(s.rule)), stateOf(s),
                      fireText(ctx, s.nextFire),
                      s.lastFire ? ctx.whenPast(s.lastFire) : std::string("never"),
                      std::to_string(s.fired), std::to_string(s.skipped)});
    ctx.print(table.render());
    return ExitOk;
}

int show(Context& ctx, delayq::Schedules& schedules, const std::string& queue)
{
    const ScheduleInfo s = existing(schedules, ctx.args().positional()[2], queue);
    const int count = static_cast<int>(ctx.args().number("fires", 1, 1000, 10));
    const std::vector<long long> fires = nextFires(ctx, s, count);
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("queue", queue).key("schedule");
        writeSchedule(j, s);
        j.key("next_fires").beginArray();
        for (long long f : fires)
            j.value(f);
        j.endArray().endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    const ScheduleRule& r = s.rule;
    std::string out = "schedule     " + r.name + " on " + queue + "\n";
    out += "rule         " + printable(r.describe()) + "\n";
    out += "state        " + stateOf(s) + "\n";
    out += "catch-up     " + delayq::formatDuration(r.catchUpMs) + "\n";
    out += "attempts     " + (r.maxAttempts ? std::to_string(r.maxAttempts) : "the queue's") + "\n";
    out += "backoff      " + (r.backoff.empty() ? std::string("the queue's") : r.backoff) + "\n";
    out += "overlap      " + std::string(ScheduleRule::overlapName(r.overlap)) +
           (r.overlap == ScheduleRule::Overlap::Skip
                ? " (a fire is skipped while the previous fire's task is pending or active)"
                : "") +
           "\n";
    out += "jitter       " + (r.jitterMs ? "up to " + delayq::formatDuration(r.jitterMs) : "none") +
           "\n";
    out += "payload      " + preview(r.payload, 200) + " (" + std::to_string(r.payload.size()) +
           " bytes)\n";
    out += "fired        " + std::to_string(s.fired) + " tasks, skipped " +
           std::to_string(s.skipped) +
           (s.overlapped ? " (" + std::to_string(s.overlapped) + " for overlap)" : "") + ", last " +
           (s.lastFire ? ctx.whenPast(s.lastFire) : std::string("never")) + "\n";
    out += r.paused ? "would fire  (paused)\n" : "next fires\n";
    for (long long f : fires)
        out += "  " + ctx.when(f) + "  task s:" + r.name + ":" + std::to_string(f) +
               (r.jitterMs ? ", due " + ctx.when(r.dueOf(f)) : "") + "\n";
    if (fires.empty())
        out += "  none: the rule fires no more\n";
    ctx.print(out);
    return ExitOk;
}

int setPaused(Context& ctx, delayq::Schedules& schedules, const std::string& queue, bool paused)
{
    const std::string& name = ctx.args().positional()[2];
    existing(schedules, name, queue);
    return printChanged(ctx, paused ? "paused" : "resumed", queue,
                        schedules.setPaused(name, paused));
}

int remove(Context& ctx, delayq::Schedules& schedules, const std::string& queue)
{
    const std::string& name = ctx.args().positional()[2];
    if (!schedules.remove(name))
        throw delayq::Error(delayq::ErrorCode::NotFound,
                            "no schedule '" + name + "' on queue '" + queue + "'");
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", queue)
            .field("name", name)
            .field("removed", true)
            .endObject();
        ctx.printJson(j);
    } else {
        ctx.print("deleted schedule " + name + " on " + queue +
                  " (the tasks it made stay in the queue)\n");
    }
    return ExitOk;
}

int runNow(Context& ctx, delayq::Schedules& schedules, const std::string& queue)
{
    const Args& a = ctx.args();
    const std::string& name = a.positional()[2];
    // A fresh id by default; the one printed can be given again to repeat the request safely.
    const std::string request = a.has("request-id") ? a.value("request-id") : delayq::randomToken();
    const delayq::Schedules::RunNowResult r = schedules.runNow(name, request);
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", queue)
            .field("name", name)
            .field("request_id", request)
            .field("task", r.taskId)
            .field("made", r.made)
            .endObject();
        ctx.printJson(j);
    } else if (r.made) {
        ctx.print("ran schedule " + name + " on " + queue + " now: task " + r.taskId +
                  " (the rule and its next fire stay; --request-id " + request +
                  " repeats it safely)\n");
    } else {
        ctx.print("schedule " + name + " on " + queue + ": request " + request +
                  " was run already (task " + r.taskId + "); nothing made\n");
    }
    return ExitOk;
}

int backfill(Context& ctx, delayq::Schedules& schedules, const std::string& queue)
{
    const Args& a = ctx.args();
    const std::string& name = a.positional()[2];
    const std::optional<long long> from = a.time("from");
    const std::optional<long long> to = a.time("to");
    if (!from || !to)
        throw UsageError(
            "schedule backfill needs --from TIME and --to TIME (the window [from, to))");
    const delayq::Schedules::BackfillResult r = schedules.backfill(name, *from, *to);
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", queue)
            .field("name", name)
            .field("from", *from)
            .field("to", *to)
            .key("fires")
            .beginArray();
        for (long long f : r.fires)
            j.value(f);
        j.endArray().field("made", r.made).field("already", r.already).endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    if (r.fires.empty()) {
        ctx.print("schedule " + name + " on " + queue +
                  " has no fires in that window; nothing made\n");
        return ExitOk;
    }
    ctx.print("backfilled schedule " + name + " on " + queue + ": " +
              std::to_string(r.fires.size()) + " fires from " + ctx.when(r.fires.front()) + " to " +
              ctx.when(r.fires.back()) + ", " + std::to_string(r.made) + " tasks made, " +
              std::to_string(r.already) + " made before\n");
    return ExitOk;
}

} // namespace

int runSchedule(Context& ctx)
{
    Args& a = ctx.args();
    a.parse(kOptions, 2, 4);
    const std::string action = a.positional()[0];
    if (!kActionOptions.count(action))
        throw UsageError("unknown schedule action '" + printable(action.substr(0, 32)) +
                         "' (add, ls, show, edit, pause, resume, rm, run-now, backfill)");
    refuseOthers(a, action);
    const size_t words = a.positional().size();
    const size_t want = action == "ls" ? 2 : 3;
    if (words < want || (words > want && action != "add"))
        throw UsageError("schedule " + action + " takes QUEUE" + (want == 3 ? " NAME" : "") +
                         (action == "add" ? " [PAYLOAD|-]" : ""));
    const std::string& queue = a.positional()[1];
    delayq::Schedules schedules(ctx.connection(), queue, ctx.global().prefix);
    if (action == "add")
        return add(ctx, schedules, queue);
    if (action == "edit")
        return edit(ctx, schedules, queue);
    if (action == "ls")
        return list(ctx, schedules, queue);
    if (action == "show")
        return show(ctx, schedules, queue);
    if (action == "rm")
        return remove(ctx, schedules, queue);
    if (action == "run-now")
        return runNow(ctx, schedules, queue);
    if (action == "backfill")
        return backfill(ctx, schedules, queue);
    return setPaused(ctx, schedules, queue, action == "pause");
}

} // namespace cli
