#include "commands/commands.h"
#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/plainfailures.h>
#include <delayq/timeparse.h>
#include <delayq/workerregistry.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QVariant>

#include <cstdio>

namespace cli {

namespace {

using delayq::PlainQueue;

// The members after the key, or stdin one per line when the only one is "-". Lines keep
// every byte but the newline; empty lines are skipped (an empty member cannot be typed).
std::vector<std::string> membersFrom(Context& ctx, bool noneOk = false)
{
    const auto& words = ctx.args().positional();
    std::vector<std::string> members(words.begin() + 1, words.end());
    if (members.size() == 1 && members.front() == "-") {
        members.clear();
        std::string data;
        char buffer[65536];
        size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0)
            data.append(buffer, n);
        size_t start = 0;
        while (start < data.size()) {
            size_t end = data.find('\n', start);
            if (end == std::string::npos)
                end = data.size();
            if (end > start)
                members.push_back(data.substr(start, end - start));
            start = end + 1;
        }
    }
    if (members.empty() && !noneOk)
        throw UsageError("give the members, or - to read them from stdin one per line");
    return members;
}

// A member in JSON: readable text (bad UTF-8 replaced) and every byte in member_base64.
void writeMember(JsonWriter& j, const std::string& member)
{
    j.field("member", member).field("member_base64", JsonWriter::base64(member));
}

// The message shapes the seed designs use, for their own columns.
struct Shape
{
    bool idMsg = false;
    bool dataTimes = false;
    std::string id, msg, data, times;
};

std::string jsonText(const QJsonValue& v)
{
    if (v.isObject())
        return QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact).toStdString();
    if (v.isArray())
        return QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact).toStdString();
    if (v.isNull())
        return "null";
    return v.toVariant().toString().toStdString();
}

Shape shapeOf(const std::string& member)
{
    Shape s;
    if (member.empty() || member.front() != '{')
        return s;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(
        QByteArray::fromRawData(member.data(), static_cast<qsizetype>(member.size())), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return s;
    const QJsonObject o = doc.object();
    if (o.contains("id") && o.contains("msg")) {
        s.idMsg = true;
        s.id = jsonText(o.value("id"));
        s.msg = jsonText(o.value("msg"));
    }
    if (o.contains("data") && (o.contains("times") || o.contains("timestamp"))) {
        s.dataTimes = true;
        s.data = jsonText(o.value("data"));
        s.times = o.contains("times") ? jsonText(o.value("times")) : "";
    }
    return s;
}

long long dueFromOptions(Context& ctx)
{
    Args& a = ctx.args();
    if (const auto at = a.time("at"))
        return *at;
    return ctx.serverNow() + a.duration("in", 0);
}

// One line (or JSON entry) per member; exit 1 when any was refused.
int report(Context& ctx, const PlainQueue& queue, const std::vector<std::string>& members,
           const std::vector<bool>& done, const char* doneWord, const char* refusedWord)
{
    long long refused = 0;
    for (bool d : done)
        refused += !d;
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("key", queue.key())
            .field("done", static_cast<long long>(done.size()) - refused)
            .field("refused", refused)
            .key("results")
            .beginArray();
        for (size_t i = 0; i < members.size() && i < done.size(); ++i) {
            j.beginObject();
            writeMember(j, members[i]);
            j.field("status", done[i] ? doneWord : refusedWord).endObject();
        }
        j.endArray().endObject();
        ctx.printJson(j);
    } else {
        std::string text;
        for (size_t i = 0; i < members.size() && i < done.size(); ++i)
            text += std::string(done[i] ? doneWord : refusedWord) + ": " +
                    preview(members[i], 200) + "\n";
        ctx.print(text);
    }
    return refused > 0 ? ExitRefused : ExitOk;
}

// Every JSON answer about a plain key starts with the key, its unit and its size.
JsonWriter& beginKeyObject(JsonWriter& j, const PlainQueue& queue, long long total)
{
    return j.beginObject()
        .field("key", queue.key())
        .field("score_unit", PlainQueue::unitName(queue.unit()))
        .field("total", total);
}

// ls --plain --json: each member with the fields of its shape.
// A member's failed deliveries in JSON, when it has any.
void writeFailure(JsonWriter& j, const delayq::PlainFailure& f)
{
    if (f.attempts > 0)
        j.field("attempts", f.attempts)
            .field("last_failed", f.lastFailedMs)
            .field("last_error", f.lastError);
    if (f.parkedMs)
        j.field("parked", *f.parkedMs);
}

void printMembersJson(Context& ctx, const PlainQueue& queue, long long total,
                      const std::vector<PlainQueue::Member>& members,
                      const std::vector<Shape>& shapes,
                      const std::vector<delayq::PlainFailure>& failures)
{
    JsonWriter j;
    beginKeyObject(j, queue, total).key("members").beginArray();
    for (size_t i = 0; i < members.size(); ++i) {
        j.beginObject();
        writeMember(j, members[i].member);
        j.field("score", members[i].score).field("due", members[i].dueMs);
        if (shapes[i].idMsg)
            j.field("id", shapes[i].id).field("msg", shapes[i].msg);
        if (shapes[i].dataTimes)
            j.field("data", shapes[i].data).field("times", shapes[i].times);
        writeFailure(j, failures[i]);
        j.endObject();
    }
    j.endArray().endObject();
    ctx.printJson(j);
}

// ls --plain as a table: a shape's columns only when some member has that shape.
void printMembersTable(Context& ctx, const PlainQueue& queue, long long total,
                       const std::vector<PlainQueue::Member>& members,
                       const std::vector<Shape>& shapes,
                       const std::vector<delayq::PlainFailure>& failures)
{
    bool anyIdMsg = false;
    bool anyDataTimes = false;
    bool anyFailed = false;
    for (const auto& f : failures)
        anyFailed |= f.attempts > 0;
    for (const Shape& s : shapes) {
        anyIdMsg |= s.idMsg;
        anyDataTimes |= s.dataTimes;
    }
    const long long now = ctx.serverNow();
    std::vector<std::string> headers = {"DUE", ""};
    if (anyIdMsg)
        headers.insert(headers.end(), {"ID", "MSG"});
    if (anyDataTimes)
        headers.insert(headers.end(), {"DATA", "TIMES"});
    if (anyFailed)
        headers.insert(headers.end(), {"FAILED", "LAST ERROR"});
    headers.push_back("MEMBER");
    TextTable table(headers);
    for (size_t i = 0; i < members.size(); ++i) {
        const Shape& s = shapes[i];
        std::vector<std::string> row = {delayq::formatTime(members[i].dueMs),
                                        delayq::formatRelative(members[i].dueMs, now)};
        if (anyIdMsg) {
            row.push_back(preview(s.id, 40));
            row.push_back(preview(s.msg, 40));
        }
        if (anyDataTimes) {
            row.push_back(preview(s.data, 40));
            row.push_back(preview(s.times, 12));
        }
        if (anyFailed) {
            const delayq::PlainFailure& f = failures[i];
            row.push_back(f.attempts > 0 ? std::to_string(f.attempts) : "");
            row.push_back(f.attempts > 0 ? preview(f.lastError, 50) : "");
        }
        row.push_back(preview(members[i].member, 60));
        table.addRow(row);
    }
    ctx.print(table.render());
    ctx.print(std::to_string(members.size()) + " of " + std::to_string(total) +
              " members (scores in " + PlainQueue::unitName(queue.unit()) + ")\n");
}

} // namespace

namespace {

delayq::PlainFailures failuresOf(Context& ctx, const PlainQueue& queue)
{
    return delayq::PlainFailures(ctx.connection(), ctx.global().prefix, queue.key());
}

// ls --plain KEY --parked: the members a forwarder parked, with their last error.
int printParked(Context& ctx, const PlainQueue& queue, long long offset, long long limit)
{
    delayq::PlainFailures failures = failuresOf(ctx, queue);
    const auto parked = failures.parkedPage(offset, limit);
    const long long total = failures.parkedCount();
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("key", queue.key()).field("parked_total", total);
        j.key("parked").beginArray();
        for (const auto& f : parked) {
            j.beginObject();
            writeMember(j, f.member);
            writeFailure(j, f);
            j.endObject();
        }
        j.endArray().endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    if (parked.empty()) {
        ctx.print("no parked members of " + printable(queue.key()) + "\n");
        return ExitOk;
    }
    const long long now = ctx.serverNow();
    TextTable table({"PARKED", "FAILED", "LAST ERROR", "MEMBER"});
    for (const auto& f : parked)
        table.addRow({formatAgo(f.parkedMs.value_or(0), now), std::to_string(f.attempts),
                      preview(f.lastError, 60), preview(f.member, 60)});
    ctx.print(table.render());
    ctx.print(std::to_string(parked.size()) + " of " + std::to_string(total) +
              " parked members (requeue --plain KEY MEMBER... | --all; rm-dead --plain "
              "KEY MEMBER... | --all)\n");
    return ExitOk;
}

} // namespace

int runPlainLs(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"limit", true}, {"offset", true}, {"from", true}, {"parked", false}}, 1, 1);
    a.exclusive({"offset", "from"});
    a.exclusive({"parked", "from"});
    const long long limit = a.number("limit", 1, 10000, 20);
    const long long offset = a.number("offset", 0, 1LL << 50, 0);
    const std::optional<long long> from = a.time("from");
    PlainQueue queue = ctx.plainQueue();
    if (a.has("parked"))
        return printParked(ctx, queue, offset, limit);
    const auto members = from ? queue.pageFromTime(*from, limit) : queue.page(offset, limit);
    const long long total = queue.size();
    std::vector<Shape> shapes;
    std::vector<std::string> names;
    for (const auto& m : members) {
        shapes.push_back(shapeOf(m.member));
        names.push_back(m.member);
    }
    const auto failures = failuresOf(ctx, queue).read(names);
    if (ctx.json()) {
        printMembersJson(ctx, queue, total, members, shapes, failures);
        return ExitOk;
    }
    if (members.empty()) {
        ctx.print("no members in " + printable(queue.key()) +
                  (total > 0 ? " at that position (" + std::to_string(total) + " in all)" : "") +
                  "\n");
        return ExitOk;
    }
    printMembersTable(ctx, queue, total, members, shapes, failures);
    return ExitOk;
}

int runPlainShow(Context& ctx)
{
    ctx.args().parse({}, 2, 2);
    const std::string& member = ctx.args().positional()[1];
    PlainQueue queue = ctx.plainQueue();
    const auto found = queue.find(member);
    const delayq::PlainFailure f = failuresOf(ctx, queue).read({member}).front();
    if (!found && !f.parkedMs)
        throw delayq::Error(delayq::ErrorCode::NotFound,
                            "'" + printable(member.substr(0, 200)) + "' is neither in " +
                                printable(queue.key()) + " nor parked");
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("key", queue.key());
        writeMember(j, member);
        j.field("in_key", found.has_value());
        if (found)
            j.field("score", found->score).field("due", found->dueMs);
        j.field("attempts", f.attempts);
        if (f.attempts > 0)
            j.field("last_failed", f.lastFailedMs).field("last_error", f.lastError);
        if (f.parkedMs)
            j.field("parked", *f.parkedMs);
        j.endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    std::string text = "member:      " + preview(member, 200) + "\n";
    if (found)
        text +=
            "due:         " + ctx.when(found->dueMs) + " (score " + printable(found->score) + ")\n";
    else
        text += "in the key:  no\n";
    text += "failed:      " + std::to_string(f.attempts) + " attempt(s)\n";
    if (f.attempts > 0)
        text += "last failed: " + ctx.whenPast(f.lastFailedMs) + "\n" +
                "last error:  " + preview(f.lastError, 2000) + "\n";
    if (f.parkedMs)
        text += "parked:      " + ctx.whenPast(*f.parkedMs) +
                " (requeue --plain KEY MEMBER, or rm-dead --plain KEY MEMBER)\n";
    ctx.print(text);
    return ExitOk;
}

namespace {

// requeue/rm-dead --plain KEY (MEMBER...|-|--all).
std::vector<std::string> parkedNamed(Context& ctx, delayq::PlainFailures& failures)
{
    Args& a = ctx.args();
    const auto named = membersFrom(ctx, a.has("all"));
    if (a.has("all") && !named.empty())
        throw UsageError("give the members or --all, not both");
    return a.has("all") ? failures.parkedMembers() : named;
}

} // namespace

int runPlainRequeue(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"all", false}, {"in", true}, {"at", true}}, 1, -1);
    a.exclusive({"in", "at"});
    PlainQueue queue = ctx.plainQueue();
    // An empty key's unit is a guess: a requeue in the wrong unit is decades early or late.
    if (!queue.unitKnown())
        throw UsageError("plain key '" + printable(queue.key().substr(0, 200)) +
                         "' is empty, so its scores cannot say whether due times are in s or "
                         "ms: give --score-unit s or --score-unit ms");
    delayq::PlainFailures failures = failuresOf(ctx, queue);
    const auto members = parkedNamed(ctx, failures);
    return report(ctx, queue, members, failures.requeue(queue, members, dueFromOptions(ctx)),
                  "requeued", "not parked");
}

int runPlainRmDead(Context& ctx)
{
    ctx.args().parse({{"all", false}}, 1, -1);
    PlainQueue queue = ctx.plainQueue();
    delayq::PlainFailures failures = failuresOf(ctx, queue);
    const auto members = parkedNamed(ctx, failures);
    return report(ctx, queue, members, failures.remove(members), "deleted", "not parked");
}

int runPlainStats(Context& ctx)
{
    ctx.args().parse({}, 1, 1);
    PlainQueue queue = ctx.plainQueue();
    const long long total = queue.size();
    const long long dueNow = queue.dueNow();
    const auto first = queue.page(0, 1);
    delayq::PlainFailures failures = failuresOf(ctx, queue);
    const long long parked = failures.parkedCount();
    const long long failing =
        ctx.connection().command({"HLEN", failures.keys().failures()}).toInteger() - parked;
    // What the consumers running now give: a forwarder leases (at least once), a pop
    // consumer takes the member out of the key before it runs (at most once).
    delayq::WorkerRegistry registry(ctx.connection(), ctx.global().prefix);
    long long forwarders = 0;
    long long poppers = 0;
    for (const auto& w : registry.readPlain({queue.key()}))
        if (w.live)
            ++(w.atLeastOnce() ? forwarders : poppers);
    const char* guarantee = forwarders > 0 && poppers > 0 ? "mixed"
                            : forwarders > 0              ? "at_least_once"
                            : poppers > 0                 ? "at_most_once"
                                                          : "none";
    if (ctx.json()) {
        JsonWriter j;
        beginKeyObject(j, queue, total).field("due_now", dueNow).key("next_due");
        if (first.empty())
            j.null();
        else
            j.value(first.front().dueMs);
        j.field("failing", std::max(0LL, failing))
            .field("parked", parked)
            .field("forwarders", forwarders)
            .field("pop_consumers", poppers)
            .field("delivery", guarantee);
        j.endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    const auto plural = [](long long n, const char* one, const char* many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::string delivery;
    if (forwarders > 0)
        delivery = "at least once: " + plural(forwarders, "forwarder", "forwarders") +
                   " (a member leaves the key once its target confirmed it)";
    if (poppers > 0)
        delivery += std::string(delivery.empty() ? "" : "; ") +
                    "at most once: " + plural(poppers, "pop consumer", "pop consumers") +
                    " (a popped member is gone from the key)";
    if (delivery.empty())
        delivery = "no live consumer";
    std::string text =
        "key:        " + printable(queue.key()) + " (plain sorted set, scores in " +
        PlainQueue::unitName(queue.unit()) + (queue.unitKnown() ? "" : ", assumed: empty") + ")\n" +
        "members:    " + std::to_string(total) + "\n" + "due now:    " + std::to_string(dueNow) +
        "\n" + "next due:   " + (first.empty() ? std::string("-") : ctx.when(first.front().dueMs)) +
        "\n" + "failing:    " + std::to_string(std::max(0LL, failing)) + "\n" +
        "parked:     " + std::to_string(parked) +
        (parked > 0 ? " (delayq ls --plain KEY --parked)" : "") + "\n" + "delivery:   " + delivery +
        "\n";
    ctx.print(text);
    return ExitOk;
}

int runPlainPush(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"in", true}, {"at", true}}, 2, -1);
    a.exclusive({"in", "at"});
    const auto members = membersFrom(ctx);
    PlainQueue queue = ctx.plainQueue();
    return report(ctx, queue, members, queue.push(members, dueFromOptions(ctx)), "added",
                  "already there (its due time is left alone)");
}

int runPlainCancel(Context& ctx)
{
    ctx.args().parse({}, 2, -1);
    const auto members = membersFrom(ctx);
    PlainQueue queue = ctx.plainQueue();
    const std::vector<bool> done = queue.cancel(members);
    // A cancelled member's failure record has nothing left to describe (a parked one keeps
    // its own: the parked set shows it).
    std::vector<std::string> gone;
    for (size_t i = 0; i < members.size() && i < done.size(); ++i)
        if (done[i])
            gone.push_back(members[i]);
    if (!gone.empty()) {
        delayq::PlainFailures failures = failuresOf(ctx, queue);
        const auto records = failures.read(gone);
        std::vector<std::string> forget;
        for (const auto& f : records)
            if (f.attempts > 0 && !f.parkedMs)
                forget.push_back(f.member);
        failures.forget(forget);
    }
    return report(ctx, queue, members, done, "cancelled", "no longer there");
}

int runPlainReschedule(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"in", true}, {"at", true}, {"now", false}}, 2, -1);
    a.exclusive({"in", "at", "now"});
    if (!a.has("in") && !a.has("at") && !a.has("now"))
        throw UsageError("say when: --in D, --at TIME or --now");
    const auto members = membersFrom(ctx);
    PlainQueue queue = ctx.plainQueue();
    return report(ctx, queue, members, queue.reschedule(members, dueFromOptions(ctx)),
                  "rescheduled", "no longer there");
}

int runMigrate(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"limit", true}}, 2, 2);
    const long long limit = a.number("limit", 1, 1LL << 50, 0);
    const std::string& target = a.positional()[1];
    delayq::Keys::validateQueueName(target);
    PlainQueue source = ctx.plainQueue(0);
    const auto r = source.migrateTo(target, ctx.global().prefix, limit);
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject()
            .field("key", source.key())
            .field("queue", target)
            .field("moved", r.moved)
            .field("skipped", r.skipped)
            .field("remaining", r.remaining)
            .endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    ctx.print("moved " + std::to_string(r.moved) + " members of " + printable(source.key()) +
              " into queue " + printable(target) + " (" + std::to_string(r.skipped) +
              " already there from an earlier run), " + std::to_string(r.remaining) +
              " left in the key\n");
    return ExitOk;
}

} // namespace cli
