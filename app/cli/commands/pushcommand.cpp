#include "commands/commands.h"
#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/timeparse.h>

#include <chrono>
#include <cstdio>
#include <map>

namespace cli {

std::string readStdin()
{
    std::string data;
    char buffer[65536];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0) {
        data.append(buffer, n);
        if (data.size() > 512u * 1024 * 1024)
            throw UsageError("the payload on stdin is larger than 512 MB");
    }
    return data;
}

namespace {

std::string statusHint(delayq::PushResult::Status status)
{
    switch (status) {
    case delayq::PushResult::Status::Exists:
        return "a task with this id exists (--replace overwrites it)";
    case delayq::PushResult::Status::TooLarge:
        return "the payload is larger than the queue's max_payload";
    case delayq::PushResult::Status::Active:
        return "a worker holds this task right now; it cannot be replaced";
    case delayq::PushResult::Status::RecentlyDone:
        return "a task with this id finished within its dedup window, which ends at the due "
               "time shown";
    default:
        return "";
    }
}

// The task to push, from the command line; refuses a bad value before stdin is read.
delayq::PushRequest requestFrom(const Args& a)
{
    delayq::PushRequest request;
    if (const auto at = a.time("at"))
        request.dueAtMs = *at;
    request.delayMs = a.duration("in", 0);
    request.id = a.value("id");
    if (!request.id.empty())
        delayq::Keys::validateTaskId(request.id);
    request.replace = a.has("replace");
    request.maxAttempts = static_cast<int>(a.number("max-attempts", 1, 1'000'000, 0));
    request.backoff = a.value("backoff");
    if (a.has("backoff") && request.backoff.empty())
        throw UsageError("--backoff is empty");
    delayq::Queue::normalizeBackoff(request.backoff);
    request.priority = static_cast<int>(a.number("priority", -9, 9, 0));
    request.group = a.value("group");
    if (a.has("group") && request.group.empty())
        throw UsageError("--group is empty (leave it out for no group)");
    request.dedupMs = a.duration("dedup", 0);
    if (a.has("dedup") && request.dedupMs < 1000)
        throw UsageError("--dedup must be at least 1s");
    request.debounceMaxWaitMs = a.duration("debounce", 0);
    if (a.has("debounce") && request.debounceMaxWaitMs < 1)
        throw UsageError("--debounce needs the maximum wait, e.g. --debounce 30m");
    request.debouncePayload = a.has("debounce-payload");
    if (request.debouncePayload && !a.has("debounce"))
        throw UsageError("--debounce-payload needs --debounce MAX_WAIT");
    if (a.has("debounce") && a.has("replace"))
        throw UsageError("--debounce and --replace cannot be combined: replace overwrites the "
                         "task, debounce moves it");
    if (a.has("debounce") && !a.has("id"))
        throw UsageError("--debounce needs --id: it moves the task that has this id");
    // Expiry (since 2.9): a start-by time, or a maximum age counted from the push.
    request.expiresAtMs = a.time("expires-at");
    request.maxAgeMs = a.duration("max-age", 0);
    if (a.has("max-age") && request.maxAgeMs < 1)
        throw UsageError("--max-age must be above 0, e.g. --max-age 2h");
    if (a.positional().size() > 1)
        request.payload = a.positional()[1] == "-" ? readStdin() : a.positional()[1];
    return request;
}

int pushOne(Context& ctx, delayq::Queue& queue, const delayq::PushRequest& request)
{
    const delayq::PushResult r = queue.push(request);
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("queue", queue.name())
            .field("id", r.id)
            .field("status", delayq::pushStatusName(r.status))
            .field("due", r.due)
            .endObject();
        ctx.printJson(j);
    } else {
        ctx.print(std::string(delayq::pushStatusName(r.status)) + " " + printable(r.id) + " due " +
                  ctx.when(r.due) + "\n");
    }
    if (r.status != delayq::PushResult::Status::Created &&
        r.status != delayq::PushResult::Status::Replaced &&
        r.status != delayq::PushResult::Status::Debounced &&
        r.status != delayq::PushResult::Status::FollowUp) {
        std::fprintf(stderr, "delayq: task %s not pushed: %s\n", printable(r.id).c_str(),
                     statusHint(r.status).c_str());
        return ExitRefused;
    }
    return ExitOk;
}

// Copies in batches: one script call per 200 (inside pushBatch), 10000 per round trip.
int pushCopies(Context& ctx, delayq::Queue& queue, const delayq::PushRequest& request,
               long long count)
{
    std::map<std::string, long long> statuses;
    const auto start = std::chrono::steady_clock::now();
    std::vector<delayq::PushRequest> batch;
    for (long long done = 0; done < count;) {
        const long long n = std::min<long long>(10000, count - done);
        batch.assign(static_cast<size_t>(n), request);
        for (const auto& r : queue.pushBatch(batch))
            ++statuses[delayq::pushStatusName(r.status)];
        done += n;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const long long created = statuses["created"];
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("queue", queue.name()).field("requested", count);
        for (const auto& [status, n] : statuses)
            j.field(status, n);
        j.field("seconds", seconds).endObject();
        ctx.printJson(j);
    } else {
        char line[256];
        std::snprintf(line, sizeof line, "pushed %lld of %lld tasks in %.3f s (%.0f tasks/s)\n",
                      created, count, seconds, seconds > 0 ? created / seconds : 0.0);
        ctx.print(line);
    }
    if (created != count) {
        std::fprintf(stderr, "delayq: %lld of %lld tasks were not pushed\n", count - created,
                     count);
        return ExitRefused;
    }
    return ExitOk;
}

} // namespace

int runPush(Context& ctx)
{
    if (ctx.global().plain)
        return runPlainPush(ctx);
    Args& a = ctx.args();
    a.parse({{"in", true},
             {"at", true},
             {"id", true},
             {"replace", false},
             {"max-attempts", true},
             {"backoff", true},
             {"priority", true},
             {"group", true},
             {"dedup", true},
             {"debounce", true},
             {"debounce-payload", false},
             {"expires-at", true},
             {"max-age", true},
             {"count", true}},
            1, 2);
    a.exclusive({"in", "at"});
    a.exclusive({"expires-at", "max-age"});
    const long long count = a.number("count", 1, 10'000'000, 1);
    if (count > 1 && a.has("id"))
        throw UsageError("--id names one task; it cannot be used with --count");
    const delayq::PushRequest request = requestFrom(a);
    delayq::Queue queue = ctx.queue();
    return count == 1 ? pushOne(ctx, queue, request) : pushCopies(ctx, queue, request, count);
}

} // namespace cli
