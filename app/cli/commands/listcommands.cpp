#include "commands/commands.h"
#include "output/historyoutput.h"
#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/queuereader.h>
#include <delayq/timeparse.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace cli {

delayq::TaskSet parseState(const std::string& text)
{
    for (auto set : {delayq::TaskSet::Pending, delayq::TaskSet::Active, delayq::TaskSet::Dead})
        if (text == delayq::taskSetName(set))
            return set;
    throw UsageError("--state must be pending, active or dead");
}

namespace {

std::string attempts(const delayq::Task& t)
{
    return std::to_string(t.attempts) + "/" + std::to_string(t.maxAttempts);
}

// After stats' active count: the leases that ran out and wait for a reap (nothing when none).
std::string leasesExpired(const delayq::QueueCounts& counts)
{
    if (counts.leaseExpired == 0)
        return {};
    return " (" + std::to_string(counts.leaseExpired) + " lease" +
           (counts.leaseExpired == 1 ? "" : "s") + " expired, waiting for a reap)";
}

// 12000 -> "12,000": the figures an operator reads at a glance.
std::string grouped(long long n)
{
    std::string digits = std::to_string(n < 0 ? -n : n);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(static_cast<size_t>(i), ",");
    return (n < 0 ? "-" : "") + digits;
}

// What holds the queue back now, as stats says it after the queue's name: "limited by rate
// 50/s: 12,000 due tasks waiting", "limited by cap 5: 5 active"; "" when nothing does.
std::string limitedText(const delayq::FlowStatus& flow)
{
    if (flow.heldNowBy == "rate")
        return "limited by rate " + flow.rateText() + ": " + grouped(flow.dueWaiting) +
               " due task" + (flow.dueWaiting == 1 ? "" : "s") + " waiting";
    if (flow.heldNowBy == "cap")
        return "limited by cap " + grouped(flow.cap) + ": " + grouped(flow.activeLive) +
               " active, " + grouped(flow.dueWaiting) + " due waiting";
    return {};
}

// A queue's limits on one line, as `queues` shows them: "rate 50/s burst 100, cap 5, fair,
// group cap 1, group rate 5/s"; "" when it has none and hands out in due order.
std::string limitsText(const delayq::FlowStatus& flow)
{
    std::vector<std::string> parts;
    if (flow.rateTasks > 0)
        parts.push_back("rate " + flow.rateText() + " burst " + grouped(flow.effectiveBurst()));
    if (flow.cap > 0)
        parts.push_back("cap " + grouped(flow.cap));
    if (flow.fair)
        parts.push_back("fair");
    // The group limits hold only in fair order; said anyway, so a setting is never hidden.
    if (flow.groupCap > 0)
        parts.push_back("group cap " + grouped(flow.groupCap));
    if (flow.groupRateTasks > 0)
        parts.push_back("group rate " +
                        delayq::FlowStatus::rateText(flow.groupRateTasks, flow.groupRateMs));
    std::string text;
    for (const auto& part : parts)
        text += (text.empty() ? "" : ", ") + part;
    return text;
}

// What holds the queue back now, as `queues` says it after its limits: "limited: 12,000
// waiting" (by the rate), "limited: 5 active, 40 waiting" (by the cap); "" when nothing does.
std::string heldText(const delayq::FlowStatus& flow)
{
    if (!flow.heldNow)
        return {};
    return "limited: " +
           (flow.heldNowBy == "cap" ? grouped(flow.activeLive) + " active, " : std::string()) +
           grouped(flow.dueWaiting) + " waiting";
}

// The limits of `stats --json` and `queues --json` ("flow"): each null when off.
void writeLimits(JsonWriter& j, const delayq::FlowStatus& flow)
{
    j.key("rate");
    flow.rateTasks > 0 ? j.value(flow.rateText()) : j.null();
    j.key("rate_per_second");
    flow.rateTasks > 0 ? j.value(flow.ratePerSecond()) : j.null();
    j.key("burst");
    flow.rateTasks > 0 ? j.value(flow.effectiveBurst()) : j.null();
    j.key("cap");
    flow.cap > 0 ? j.value(flow.cap) : j.null();
    j.field("order", flow.fair ? "fair" : "due").key("group_cap");
    flow.groupCap > 0 ? j.value(flow.groupCap) : j.null();
    j.key("group_rate");
    flow.groupRateTasks > 0
        ? j.value(delayq::FlowStatus::rateText(flow.groupRateTasks, flow.groupRateMs))
        : j.null();
}

// An active task's deadline as ls shows it beside the time: "in 25s", or, once it has passed,
// that the task waits for a reap (its worker died or hung; a reap hands it on).
std::string leaseRelative(long long deadline, long long now)
{
    if (deadline > now)
        return delayq::formatRelative(deadline, now);
    const long long ago = (now - deadline) / 1000 * 1000;
    return "expired" + (ago > 0 ? " " + delayq::formatDuration(ago) + " ago" : std::string()) +
           ", waiting for a reap";
}

} // namespace

// Binary payloads keep every byte in JSON: payload_base64 is added when the text is not UTF-8,
// and so are worker_base64 and last_error_base64 (an exec handler's stderr can be any bytes).
void writeTask(JsonWriter& j, const delayq::Task& t, delayq::TaskSet set,
               std::optional<long long> now)
{
    j.beginObject()
        .field("id", t.id)
        .field("set", delayq::taskSetName(set))
        .field("score", t.score)
        .field("due", t.due)
        .field("created", t.created)
        .field("attempts", t.attempts)
        .field("max_attempts", t.maxAttempts)
        .field("backoff", t.backoff)
        .bytesField("worker", t.worker)
        .bytesField("last_error", t.lastError)
        .field("state", t.state)
        .field("broken", t.broken)
        .field("priority", t.priority)
        .field("group", t.group)
        .key("expires_at"); // since 2.9: when a claim would no longer start it; null: never
    t.expiresAt ? j.value(*t.expiresAt) : j.null();
    j.field("payload", t.payload);
    if (set == delayq::TaskSet::Active && now)
        j.field("lease_expired", t.score <= *now);
    if (!JsonWriter::isValidUtf8(t.payload))
        j.field("payload_base64", JsonWriter::base64(t.payload));
    j.endObject();
}

int runLs(Context& ctx)
{
    if (ctx.global().plain)
        return runPlainLs(ctx);
    Args& a = ctx.args();
    a.parse({{"state", true}, {"limit", true}, {"offset", true}, {"from", true}}, 1, 1);
    a.exclusive({"offset", "from"});
    const delayq::TaskSet set = parseState(a.value("state", "pending"));
    const long long limit = a.number("limit", 1, 10000, 20);
    const long long offset = a.number("offset", 0, 1LL << 50, 0);
    const std::optional<long long> from = a.time("from");
    delayq::Queue queue = ctx.queue();
    const auto tasks =
        from ? queue.pageFromScore(set, *from, limit) : queue.page(set, offset, limit);
    const long long total = queue.size(set);
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", queue.name())
            .field("state", delayq::taskSetName(set))
            .field("total", total)
            .key("tasks")
            .beginArray();
        const long long now = ctx.serverNow();
        for (const auto& t : tasks)
            writeTask(j, t, set, now);
        j.endArray().endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    if (tasks.empty()) {
        ctx.print("no " + std::string(delayq::taskSetName(set)) + " tasks in " + queue.name() +
                  (total > 0 ? " at that position (" + std::to_string(total) + " in all)" : "") +
                  "\n");
        return ExitOk;
    }
    const long long now = ctx.serverNow();
    const char* when = set == delayq::TaskSet::Pending  ? "DUE"
                       : set == delayq::TaskSet::Active ? "LEASE UNTIL"
                                                        : "DIED";
    TextTable table({when, "", "ID", "ATTEMPTS",
                     set == delayq::TaskSet::Pending ? "PAYLOAD" : "WORKER / LAST ERROR",
                     set == delayq::TaskSet::Pending ? "" : "PAYLOAD"});
    long long expired = 0;
    for (const auto& t : tasks) {
        const bool active = set == delayq::TaskSet::Active;
        if (active && t.score <= now)
            ++expired;
        // A death is in the past: "21m 53s ago", not "overdue".
        std::vector<std::string> row = {delayq::formatTime(t.score),
                                        active ? leaseRelative(t.score, now)
                                        : set == delayq::TaskSet::Dead
                                            ? formatAgo(t.score, now)
                                            : delayq::formatRelative(t.score, now),
                                        printable(t.id), attempts(t)};
        if (set == delayq::TaskSet::Pending) {
            row.push_back(t.broken ? "(broken: " + preview(t.lastError, 60) + ")"
                                   : preview(t.payload, 60));
        } else {
            row.push_back(preview(set == delayq::TaskSet::Active ? t.worker : t.lastError, 50));
            row.push_back(preview(t.payload, 40));
        }
        table.addRow(row);
    }
    ctx.print(table.render());
    ctx.print(std::to_string(tasks.size()) + " of " + std::to_string(total) + " " +
              delayq::taskSetName(set) + " tasks" +
              (expired > 0 ? ", " + std::to_string(expired) + " shown with an expired lease"
                           : std::string()) +
              "\n");
    return ExitOk;
}

int runShow(Context& ctx)
{
    if (ctx.global().plain)
        return runPlainShow(ctx);
    Args& a = ctx.args();
    a.parse({{"history", false}}, 2, 2);
    const std::string& id = a.positional()[1];
    delayq::Keys::validateTaskId(id);
    delayq::Queue queue = ctx.queue();
    auto found = queue.find(id);
    std::optional<delayq::TaskHistory> history;
    if (a.has("history"))
        history = queue.taskHistory(id);
    // A task that finished (acked, cancelled) is gone, but its kept history says what happened.
    const bool finished = !found && history && history->finished && !history->events.empty();
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("queue", queue.name());
        if (!found || history) // else the task's own fields name it
            j.field("id", id);
        j.key("task");
        if (found)
            writeTask(j, found->second, found->first, ctx.serverNow());
        else
            j.null();
        if (history) {
            j.field("finished", finished).key("history");
            writeHistory(j, *history);
        }
        j.endObject();
        ctx.printJson(j);
    }
    if (finished) {
        if (!ctx.json())
            ctx.print("task " + printable(id) + " has left queue " + queue.name() +
                      "; its kept history:\n" + historyText(*history));
        return ExitOk;
    }
    if (!found) {
        std::fprintf(stderr, "delayq: task %s not found in queue %s\n", printable(id).c_str(),
                     queue.name().c_str());
        return ExitRefused;
    }
    if (ctx.json())
        return ExitOk;
    const auto& [set, t] = *found;
    std::string text;
    auto line = [&](const char* name, const std::string& value) {
        text += std::string(name) + std::string(14 - std::strlen(name), ' ') + value + "\n";
    };
    line("id", printable(t.id));
    line("set", delayq::taskSetName(set));
    if (set == delayq::TaskSet::Active)
        line("lease until",
             delayq::formatTime(t.score) + " (" + leaseRelative(t.score, ctx.serverNow()) + ")");
    if (set == delayq::TaskSet::Dead)
        line("died", ctx.whenPast(t.score));
    // A dead task's due time passed long ago and is owed no more: "ago", not "overdue".
    line("due", set == delayq::TaskSet::Dead ? ctx.whenPast(t.due) : ctx.when(t.due));
    line("created", delayq::formatTime(t.created));
    line("attempts", attempts(t));
    line("backoff", t.backoff.empty() ? "(queue default)" : printable(t.backoff));
    if (!t.worker.empty())
        line("worker", printable(t.worker));
    if (!t.lastError.empty())
        line("last error", printable(t.lastError));
    if (t.broken)
        line("broken", "yes: the task's data is missing or garbled");
    // Fair order's tags (push --priority, --group), when the task was pushed with either.
    if (t.priority != 0 || !t.group.empty())
        line("fair order", "priority " + std::to_string(t.priority) +
                               (t.group.empty() ? "" : ", group " + printable(t.group)));
    // Expiry (push --expires-at / --max-age, or the queue's max_age).
    if (t.expiresAt && set != delayq::TaskSet::Dead)
        line("expires", ctx.when(*t.expiresAt) + " (not started by then, it never runs)");
    if (history)
        text += historyText(*history);
    line("payload",
         std::to_string(t.payload.size()) + (t.payload.size() == 1 ? " byte" : " bytes"));
    ctx.print(text + printable(t.payload) + "\n");
    return ExitOk;
}

int runQueues(Context& ctx)
{
    ctx.args().parse({{"names-only", false}}, 0, 0);
    auto& conn = ctx.connection();
    const auto names = delayq::Queue::listQueues(conn, ctx.global().prefix);
    // One SSCAN and no counts: cheap enough for shell completion to ask while one types.
    if (ctx.args().has("names-only")) {
        std::string text;
        for (const auto& name : names)
            text += printable(name) + "\n";
        ctx.print(text);
        return ExitOk;
    }
    const auto summaries = delayq::Queue::summaries(conn, names, ctx.global().prefix);
    // On a cluster each queue lives on the master of its slot: say which.
    std::vector<std::string> nodes;
    if (conn.isCluster())
        for (const auto& s : summaries)
            nodes.push_back(conn.nodeForKey(delayq::Keys(ctx.global().prefix, s.name).pending()));
    if (ctx.json()) {
        JsonWriter j;
        j.beginArray();
        for (size_t i = 0; i < summaries.size(); ++i) {
            const auto& s = summaries[i];
            j.beginObject().field("name", s.name);
            if (!nodes.empty())
                j.field("node", nodes[i]);
            j.field("pending", s.counts.pending)
                .field("due_now", s.counts.dueNow)
                .field("active", s.counts.active)
                .field("dead", s.counts.dead)
                .key("flow")
                .beginObject();
            writeLimits(j, s.flow);
            j.field("active_live", s.flow.activeLive)
                .field("due_waiting", s.flow.dueWaiting)
                .field("held_now", s.flow.heldNow)
                .key("held_by");
            s.flow.heldNow ? j.value(s.flow.heldNowBy) : j.null();
            j.endObject().endObject();
        }
        j.endArray();
        ctx.printJson(j);
        return ExitOk;
    }
    if (summaries.empty()) {
        ctx.print("no queues under the prefix " + ctx.global().prefix + "\n");
        return ExitOk;
    }
    std::vector<std::string> header{"QUEUE", "PENDING", "DUE NOW", "ACTIVE", "DEAD"};
    if (!nodes.empty())
        header.insert(header.begin() + 1, "NODE");
    // The limits' column only when a queue has one (or fair order): the flow limits, and what
    // holds the queue back now, as stats says them.
    const bool limits = std::any_of(summaries.begin(), summaries.end(),
                                    [](const auto& s) { return !limitsText(s.flow).empty(); });
    if (limits)
        header.push_back("LIMITS");
    TextTable table(header);
    for (size_t i = 0; i < summaries.size(); ++i) {
        const auto& s = summaries[i];
        std::vector<std::string> row{
            printable(s.name), std::to_string(s.counts.pending), std::to_string(s.counts.dueNow),
            std::to_string(s.counts.active), std::to_string(s.counts.dead)};
        if (!nodes.empty())
            row.insert(row.begin() + 1, nodes[i]);
        if (limits) {
            const std::string set = limitsText(s.flow), held = heldText(s.flow);
            row.push_back(set.empty() ? "-" : set + (held.empty() ? "" : " (" + held + ")"));
        }
        table.addRow(row);
    }
    ctx.print(table.render());
    return ExitOk;
}

namespace {

// The groups stats lists of a queue in fair order, the busiest first.
constexpr int kBusiestGroups = 20;

// The dead bound (docs/design/bounds.md) is near when dead holds 90 % of its count or bytes.
bool deadBoundNear(long long dead, long long bytes, const delayq::QueueConfig& c)
{
    return (c.deadMax > 0 && dead * 10 >= c.deadMax * 9) ||
           (c.deadMaxBytes > 0 && bytes * 10 >= c.deadMaxBytes * 9);
}

// " (bound 100000 / 64.0 MB, 1.2 MB now, 0 dropped)", with a warning when near it.
std::string deadBoundText(const delayq::QueueCounts& counts, const delayq::Counters& counters,
                          const delayq::QueueConfig& c, long long bytes)
{
    char size[64];
    std::snprintf(size, sizeof size, "%.1f MB", bytes / 1048576.0);
    char bound[64];
    std::snprintf(bound, sizeof bound, "%.1f MB", c.deadMaxBytes / 1048576.0);
    return " (bound " + (c.deadMax > 0 ? grouped(c.deadMax) : std::string("off")) + " / " +
           (c.deadMaxBytes > 0 ? std::string(bound) : std::string("off")) + ", " + size + " now, " +
           grouped(counters.at("dead_dropped")) + " dropped" +
           (deadBoundNear(counts.dead, bytes, c) ? "; NEAR THE BOUND: the oldest are dropped next"
                                                 : "") +
           ")";
}

// A group key as stats shows it: the ungrouped tasks (pushed without --group) by a name no
// group can have, since a group holds no brackets or spaces.
std::string groupName(const std::string& group)
{
    return group.empty() ? "(no group)" : printable(group);
}

// Fair order's line of stats, and under it the busiest groups (docs/cli.md).
std::string groupsText(const delayq::FlowStatus& flow, const delayq::GroupLoads& loads)
{
    std::string text = "order           fair";
    if (flow.groupCap > 0)
        text += ", group cap " + grouped(flow.groupCap);
    if (flow.groupRateTasks > 0)
        text +=
            ", group rate " + delayq::FlowStatus::rateText(flow.groupRateTasks, flow.groupRateMs);
    text += "\ngroups          " + grouped(loads.ready) + " in turn with due tasks, " +
            grouped(loads.atCap) + " at their cap, " + grouped(loads.atRate) +
            " waiting for their rate (" + grouped(loads.known) +
            (loads.shards > 1 ? " tracked in the fullest of " + grouped(loads.shards) +
                                    " shards, at most 100,000 a shard)\n"
                              : " tracked, at most 100,000)\n");
    if (loads.groups.empty())
        return text;
    // A column of what holds a group, when one is held.
    const bool held = std::any_of(loads.groups.begin(), loads.groups.end(),
                                  [](const auto& g) { return g.atCap || g.atRate; });
    TextTable table(held ? std::vector<std::string>{"GROUP", "DUE WAITING", "ACTIVE", "HELD BY"}
                         : std::vector<std::string>{"GROUP", "DUE WAITING", "ACTIVE"});
    for (const auto& g : loads.groups) {
        std::vector<std::string> row{groupName(g.group), grouped(g.dueWaiting), grouped(g.active)};
        if (held)
            row.push_back(g.atCap ? "its cap" : g.atRate ? "its rate" : "-");
        table.addRow(std::move(row));
    }
    // Indented under the groups line; the table's own lines end in a newline.
    std::string rendered = table.render();
    for (size_t at = 0; at < rendered.size();) {
        const size_t end = rendered.find('\n', at);
        text += "  " + rendered.substr(at, end == std::string::npos ? end : end - at + 1);
        at = end == std::string::npos ? rendered.size() : end + 1;
    }
    text += "  the busiest " + std::to_string(loads.groups.size()) +
            (loads.complete ? " of every group"
                            : " of the " + grouped(loads.examined) + " groups looked at") +
            "\n";
    return text;
}

void writeGroups(JsonWriter& j, const delayq::GroupLoads& loads)
{
    j.beginObject()
        .field("with_due_tasks", loads.ready)
        .field("at_cap", loads.atCap)
        .field("waiting_for_rate", loads.atRate)
        .field("known", loads.known)
        .field("shards", loads.shards)
        .field("examined", loads.examined)
        .field("complete", loads.complete)
        .key("busiest")
        .beginArray();
    for (const auto& g : loads.groups)
        j.beginObject()
            .field("group", g.group)
            .field("due_waiting", g.dueWaiting)
            .field("active", g.active)
            .field("at_cap", g.atCap)
            .field("waiting_for_rate", g.atRate)
            .endObject();
    j.endArray().endObject();
}

} // namespace

int runStats(Context& ctx)
{
    if (ctx.global().plain)
        return runPlainStats(ctx);
    ctx.args().parse({}, 1, 1);
    delayq::Queue queue = ctx.queue();
    const auto counts = queue.counts();
    const auto counters = queue.stats();
    const auto config = queue.config();
    const auto next = queue.earliest(delayq::TaskSet::Pending);
    const long long now = ctx.serverNow();
    const bool overdue = next && *next <= now;
    const delayq::FlowStatus flow = queue.flowStatus();
    const long long deadBytes = queue.deadBytes();
    // Fair order's busiest groups: two bounded round trips more, only in fair order.
    const delayq::GroupLoads groups =
        flow.fair ? queue.busyGroups(kBusiestGroups) : delayq::GroupLoads{};
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", queue.name())
            .field("server_now", now)
            .field("pending", counts.pending)
            .field("due_now", counts.dueNow)
            .field("active", counts.active)
            .field("leases_expired", counts.leaseExpired)
            .field("dead", counts.dead)
            .field("paused", config.paused)
            .key("counters")
            .beginObject();
        for (const auto& [name, n] : counters)
            j.field(name, n);
        j.endObject().key("next_due");
        next ? j.value(*next) : j.null();
        j.key("oldest_overdue_ms");
        overdue ? j.value(now - *next) : j.null();
        // The flow limits (null when off) and what they hold back now.
        j.key("flow").beginObject();
        writeLimits(j, flow);
        j.field("started_last_minute", flow.startsPerMinute)
            .field("active_live", flow.activeLive)
            .field("due_waiting", flow.dueWaiting)
            .field("held_now", flow.heldNow)
            .key("held_by");
        flow.heldNow ? j.value(flow.heldNowBy) : j.null();
        j.key("last_held_at");
        flow.heldAtMs > 0 ? j.value(flow.heldAtMs) : j.null();
        j.key("last_held_by");
        flow.heldAtMs > 0 ? j.value(flow.heldBy) : j.null();
        j.endObject();
        // Fair order's groups, the busiest first (null in due order).
        j.key("groups");
        groups.fair ? writeGroups(j, groups) : static_cast<void>(j.null());
        // The dead bound (docs/design/bounds.md): what it allows, how full it is, what it dropped.
        j.key("dead_bound").beginObject().key("max");
        config.deadMax > 0 ? j.value(config.deadMax) : j.null();
        j.key("max_bytes");
        config.deadMaxBytes > 0 ? j.value(config.deadMaxBytes) : j.null();
        j.field("bytes", deadBytes)
            .field("dropped", counters.at("dead_dropped"))
            .field("near", deadBoundNear(counts.dead, deadBytes, config))
            .endObject();
        j.endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    const std::string limited = limitedText(flow);
    std::string text = "queue           " + queue.name() + (config.paused ? " (paused)" : "") +
                       (limited.empty() ? "" : " (" + limited + ")") + "\n";
    text += "pending         " + std::to_string(counts.pending) + " (" +
            std::to_string(counts.dueNow) + " due now)\n";
    text += "active          " + std::to_string(counts.active) + leasesExpired(counts) + "\n";
    text += "dead            " + std::to_string(counts.dead) +
            deadBoundText(counts, counters, config, deadBytes) + "\n";
    text += "next due        " + (next ? ctx.when(*next) : std::string("-")) + "\n";
    text += "oldest overdue  " +
            (overdue ? delayq::formatDuration(now - *next) + " late" : std::string("-")) + "\n";
    if (flow.rateTasks > 0)
        text += "rate            " + flow.rateText() + ", burst " + grouped(flow.effectiveBurst()) +
                " (" + grouped(flow.startsPerMinute) + " started in the last minute)\n";
    if (flow.cap > 0)
        text +=
            "cap             " + grouped(flow.cap) + " (" + grouped(flow.activeLive) + " active)\n";
    if (groups.fair)
        text += groupsText(flow, groups);
    text += "counters       ";
    for (const auto& [name, n] : counters)
        text += " " + name + "=" + std::to_string(n);
    ctx.print(text + "\n");
    return ExitOk;
}

} // namespace cli
