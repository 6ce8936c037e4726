#include "commands/commands.h"
#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/timeparse.h>

#include <algorithm>
#include <cstdio>

namespace cli {

void writeIdResults(JsonWriter& j, const std::vector<delayq::IdResult>& results)
{
    j.key("results").beginArray();
    for (const auto& r : results)
        j.beginObject()
            .field("id", r.id)
            .field("status", delayq::idStatusName(r.status))
            .endObject();
    j.endArray();
}

namespace {

std::vector<std::string> ids(Context& ctx)
{
    const auto& words = ctx.args().positional();
    return {words.begin() + 1, words.end()};
}

// Prints one line (or JSON entry) per id; exit 1 when any id was not done.
int report(Context& ctx, const std::string& queue, const char* doneWord,
           const std::vector<delayq::IdResult>& results)
{
    long long refused = 0;
    for (const auto& r : results)
        refused += r.status != delayq::IdResult::Status::Done;
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", queue)
            .field("done", static_cast<long long>(results.size()) - refused)
            .field("refused", refused);
        writeIdResults(j, results);
        j.endObject();
        ctx.printJson(j);
    } else {
        std::string text;
        for (const auto& r : results) {
            std::string word = doneWord;
            switch (r.status) {
            case delayq::IdResult::Status::Done:
                break;
            case delayq::IdResult::Status::NotFound:
                word = "not found";
                break;
            case delayq::IdResult::Status::Active:
                word = "refused (a worker holds it)";
                break;
            case delayq::IdResult::Status::Dead:
                word = "refused (it is dead)";
                break;
            case delayq::IdResult::Status::Pending:
                word = "refused (it is pending)";
                break;
            case delayq::IdResult::Status::Exists:
                word = "refused (a task with this id is in the queue again)";
                break;
            }
            text += word + " " + printable(r.id) + "\n";
        }
        ctx.print(text);
    }
    if (refused > 0) {
        std::fprintf(stderr, "delayq: %lld of %zu ids were not %s\n", refused, results.size(),
                     doneWord);
        return ExitRefused;
    }
    return ExitOk;
}

int reportBulk(Context& ctx, const std::string& queue, const char* doneWord,
               const delayq::BulkResult& r)
{
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", queue)
            .field("done", r.done)
            .field("remaining", r.remaining)
            .endObject();
        ctx.printJson(j);
    } else {
        ctx.print(std::string(doneWord) + " " + std::to_string(r.done) + " dead tasks of " + queue +
                  "\n");
    }
    return ExitOk;
}

int setPaused(Context& ctx, bool paused)
{
    ctx.args().parse({}, 1, 1);
    delayq::Queue queue = ctx.queue();
    queue.setConfig("paused", paused ? "1" : "0");
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("queue", queue.name()).field("paused", paused).endObject();
        ctx.printJson(j);
    } else {
        ctx.print(queue.name() +
                  (paused ? " paused: workers claim nothing until resume\n" : " resumed\n"));
    }
    return ExitOk;
}

// requeue and rm-dead: the dead tasks named by id, or --all of them in bounded calls.
template <class All, class ById>
int idsOrAll(Context& ctx, const char* verb, const char* doneWord, All all, ById byId)
{
    ctx.args().parse({{"all", false}}, 1, -1);
    const bool everything = ctx.args().has("all");
    if (everything == (ctx.args().positional().size() > 1))
        throw UsageError(std::string("give the ids to ") + verb + ", or --all (not both)");
    delayq::Queue queue = ctx.queue();
    if (everything)
        return reportBulk(ctx, queue.name(), doneWord, all(queue));
    return report(ctx, queue.name(), doneWord, byId(queue, ids(ctx)));
}

} // namespace

int runCancel(Context& ctx)
{
    if (ctx.global().plain)
        return runPlainCancel(ctx);
    ctx.args().parse({{"force", false}}, 2, -1);
    delayq::Queue queue = ctx.queue();
    const auto results = queue.cancel(ids(ctx), ctx.args().has("force"));
    const int code = report(ctx, queue.name(), "cancelled", results);
    if (std::any_of(results.begin(), results.end(), [](const delayq::IdResult& r) {
            return r.status == delayq::IdResult::Status::Done;
        }))
        printBinHint(ctx, queue);
    return code;
}

int runReschedule(Context& ctx)
{
    if (ctx.global().plain)
        return runPlainReschedule(ctx);
    Args& a = ctx.args();
    a.parse({{"in", true}, {"at", true}, {"now", false}}, 2, -1);
    a.exclusive({"in", "at", "now"});
    const std::optional<long long> at = a.time("at");
    if (!at && !a.has("in") && !a.has("now"))
        throw UsageError("say when: --in D, --at TIME or --now");
    const long long delay = a.duration("in", 0);
    delayq::Queue queue = ctx.queue();
    return report(ctx, queue.name(), "rescheduled", queue.reschedule(ids(ctx), at, delay));
}

int runRequeue(Context& ctx)
{
    if (ctx.global().plain)
        return runPlainRequeue(ctx);
    return idsOrAll(
        ctx, "requeue", "requeued", [](delayq::Queue& q) { return q.requeueAll(); },
        [](delayq::Queue& q, const std::vector<std::string>& named) { return q.requeue(named); });
}

int runRmDead(Context& ctx)
{
    if (ctx.global().plain)
        return runPlainRmDead(ctx);
    return idsOrAll(
        ctx, "delete", "deleted",
        [&ctx](delayq::Queue& q) {
            const auto r = q.deleteAllDead();
            if (r.done > 0)
                printBinHint(ctx, q);
            return r;
        },
        [&ctx](delayq::Queue& q, const std::vector<std::string>& named) {
            auto r = q.deleteDead(named);
            printBinHint(ctx, q);
            return r;
        });
}

int runPurge(Context& ctx)
{
    ctx.args().parse({{"yes", false}}, 1, 1);
    if (!ctx.args().has("yes"))
        throw UsageError("purge deletes every task of the queue: add --yes to confirm");
    delayq::Queue queue = ctx.queue();
    const long long deleted = queue.purge().done;
    if (deleted > 0)
        printBinHint(ctx, queue);
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("queue", queue.name()).field("deleted", deleted).endObject();
        ctx.printJson(j);
    } else {
        ctx.print("purged " + queue.name() + ": " + std::to_string(deleted) + " tasks deleted\n");
    }
    return ExitOk;
}

int runUpgrade(Context& ctx)
{
    ctx.args().parse({{"batch", true}}, 1, 1);
    const int batch = static_cast<int>(ctx.args().number("batch", 1, 1000, 500));
    delayq::Queue queue = ctx.queue(0, false);
    const bool needed = queue.needsUpgrade();
    delayq::UpgradeResult total;
    // Bounded slices, so a long upgrade says how far it got.
    while (!total.finished) {
        const delayq::UpgradeResult step = queue.upgrade(batch, 50);
        total.converted += step.converted;
        total.moved += step.moved;
        total.finished = step.finished;
        if (!total.finished && !ctx.json())
            std::fprintf(stderr, "upgrading %s: %lld tasks converted, %lld records moved so far\n",
                         printable(queue.name()).c_str(), total.converted, total.moved);
    }
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", queue.name())
            .field("converted", total.converted)
            .field("moved", total.moved)
            .field("was_current", !needed && total.converted == 0 && total.moved == 0)
            .endObject();
        ctx.printJson(j);
    } else if (!needed && total.converted == 0 && total.moved == 0) {
        ctx.print(queue.name() + " already uses the current layout: nothing to convert\n");
    } else {
        ctx.print("upgraded " + queue.name() + ": " + std::to_string(total.converted) +
                  " tasks converted from one hash per task, " + std::to_string(total.moved) +
                  " records moved to buckets that grow with the queue\n");
    }
    return ExitOk;
}

int runConfig(Context& ctx)
{
    ctx.args().parse({}, 1, 21);
    const auto& words = ctx.args().positional();
    delayq::Queue queue = ctx.queue();
    if (words.size() >= 3) {
        // KEY VALUE pairs, set together in one step ("rate 50/s burst 100").
        if (words.size() % 2 == 0)
            throw UsageError("config takes KEY VALUE pairs: '" +
                             printable(words.back().substr(0, 64)) + "' has no value");
        std::vector<std::pair<std::string, std::string>> pairs;
        for (size_t i = 1; i + 1 < words.size(); i += 2)
            pairs.emplace_back(words[i], words[i + 1]);
        queue.setConfig(pairs);
    } else if (words.size() == 2) {
        static const char* known[] = {"max_attempts",   "backoff",      "lease_ms",   "max_payload",
                                      "paused",         "audit_len",    "history",    "rate",
                                      "burst",          "cap",          "order",      "group_cap",
                                      "group_rate",     "dedup_window", "dedup_max",  "dead_max",
                                      "dead_max_bytes", "max_age",      "expired_to", "bin_keep",
                                      "bin_max",        "bin_bytes",    "shards"};
        if (std::find(std::begin(known), std::end(known), words[1]) == std::end(known))
            throw UsageError(
                "unknown config key '" + printable(words[1].substr(0, 64)) +
                "' (known: max_attempts, backoff, lease_ms, max_payload, paused, "
                "audit_len, history, rate, burst, cap, order, group_cap, group_rate, "
                "dedup_window, dedup_max, dead_max, dead_max_bytes, max_age, expired_to, "
                "bin_keep, bin_max, bin_bytes, shards)");
    }
    const delayq::QueueConfig c = queue.config();
    const std::string off = "off";
    const std::vector<std::pair<std::string, std::string>> values = {
        {"max_attempts", std::to_string(c.maxAttempts)},
        {"backoff", c.backoff},
        {"lease_ms", std::to_string(c.leaseMs)},
        {"max_payload", std::to_string(c.maxPayload)},
        {"paused", c.paused ? "1" : "0"},
        {"audit_len", std::to_string(c.auditLen)},
        {"history", std::to_string(c.history)},
        {"rate", c.rateTasks > 0
                     ? std::to_string(c.rateTasks) + "/" + delayq::formatDuration(c.rateMs)
                     : off},
        {"burst", c.burst > 0       ? std::to_string(c.burst)
                  : c.rateTasks > 0 ? std::to_string(c.rateTasks) + " (the rate's)"
                                    : off},
        {"cap", c.cap > 0 ? std::to_string(c.cap) : off},
        {"order", c.fair ? "fair" : "due"},
        {"group_cap", c.groupCap > 0 ? std::to_string(c.groupCap) : off},
        {"group_rate", c.groupRateTasks > 0 ? std::to_string(c.groupRateTasks) + "/" +
                                                  delayq::formatDuration(c.groupRateMs)
                                            : off},
        {"dedup_window", c.dedupWindowMs > 0 ? delayq::formatDuration(c.dedupWindowMs) : off},
        {"dedup_max", std::to_string(c.dedupMax)},
        {"dead_max", c.deadMax > 0 ? std::to_string(c.deadMax) : off},
        {"dead_max_bytes", c.deadMaxBytes > 0 ? std::to_string(c.deadMaxBytes) : off},
        {"max_age", c.maxAgeMs > 0 ? delayq::formatDuration(c.maxAgeMs) : off},
        {"expired_to", c.expiredToDrop ? "drop" : "dead"},
        {"bin_keep", c.binKeepMs > 0 ? delayq::formatDuration(c.binKeepMs) : off},
        {"bin_max", c.binMax > 0 ? std::to_string(c.binMax) : off},
        {"bin_bytes", c.binBytes > 0 ? std::to_string(c.binBytes) : off},
        {"shards", std::to_string(c.shards)}};
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("queue", queue.name());
        for (const auto& [k, v] : values)
            if (words.size() == 1 || k == words[1])
                j.field(k, v);
        j.endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    std::string text;
    for (const auto& [k, v] : values) {
        if (words.size() == 1)
            text += k + std::string(k.size() < 14 ? 14 - k.size() : 1, ' ') + printable(v) + "\n";
        else if (k == words[1] && words.size() <= 3)
            text += printable(v) + "\n";
        else
            // Several set at once: each, named.
            for (size_t i = 1; i + 1 < words.size(); i += 2)
                if (k == words[i])
                    text += k + std::string(k.size() < 14 ? 14 - k.size() : 1, ' ') + printable(v) +
                            "\n";
    }
    ctx.print(text);
    return ExitOk;
}

int runPause(Context& ctx)
{
    return setPaused(ctx, true);
}

int runResume(Context& ctx)
{
    return setPaused(ctx, false);
}

} // namespace cli
