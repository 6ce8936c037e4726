#include "commands.h"
#include "textoutput.h"

#include <delayq/error.h>
#include <delayq/timeparse.h>

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
std::vector<std::string> membersFrom(Context& ctx)
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
    if (members.empty())
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
void printMembersJson(Context& ctx, const PlainQueue& queue, long long total,
                      const std::vector<PlainQueue::Member>& members,
                      const std::vector<Shape>& shapes)
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
        j.endObject();
    }
    j.endArray().endObject();
    ctx.printJson(j);
}

// ls --plain as a table: a shape's columns only when some member has that shape.
void printMembersTable(Context& ctx, const PlainQueue& queue, long long total,
                       const std::vector<PlainQueue::Member>& members,
                       const std::vector<Shape>& shapes)
{
    bool anyIdMsg = false;
    bool anyDataTimes = false;
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
        row.push_back(preview(members[i].member, 60));
        table.addRow(row);
    }
    ctx.print(table.render());
    ctx.print(std::to_string(members.size()) + " of " + std::to_string(total) +
              " members (scores in " + PlainQueue::unitName(queue.unit()) + ")\n");
}

} // namespace

int runPlainLs(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"limit", true}, {"offset", true}, {"from", true}}, 1, 1);
    a.exclusive({"offset", "from"});
    const long long limit = a.number("limit", 1, 10000, 20);
    const long long offset = a.number("offset", 0, 1LL << 50, 0);
    const std::optional<long long> from = a.time("from");
    PlainQueue queue = ctx.plainQueue();
    const auto members = from ? queue.pageFromTime(*from, limit) : queue.page(offset, limit);
    const long long total = queue.size();
    std::vector<Shape> shapes;
    for (const auto& m : members)
        shapes.push_back(shapeOf(m.member));
    if (ctx.json()) {
        printMembersJson(ctx, queue, total, members, shapes);
        return ExitOk;
    }
    if (members.empty()) {
        ctx.print("no members in " + printable(queue.key()) +
                  (total > 0 ? " at that position (" + std::to_string(total) + " in all)" : "") +
                  "\n");
        return ExitOk;
    }
    printMembersTable(ctx, queue, total, members, shapes);
    return ExitOk;
}

int runPlainStats(Context& ctx)
{
    ctx.args().parse({}, 1, 1);
    PlainQueue queue = ctx.plainQueue();
    const long long total = queue.size();
    const long long dueNow = queue.dueNow();
    const auto first = queue.page(0, 1);
    if (ctx.json()) {
        JsonWriter j;
        beginKeyObject(j, queue, total).field("due_now", dueNow).key("next_due");
        if (first.empty())
            j.null();
        else
            j.value(first.front().dueMs);
        j.endObject();
        ctx.printJson(j);
        return ExitOk;
    }
    std::string text =
        "key:        " + printable(queue.key()) + " (plain sorted set, scores in " +
        PlainQueue::unitName(queue.unit()) + ")\n" + "members:    " + std::to_string(total) + "\n" +
        "due now:    " + std::to_string(dueNow) + "\n" +
        "next due:   " + (first.empty() ? std::string("-") : ctx.when(first.front().dueMs)) + "\n" +
        "delivery:   at most once (a popped member is gone from the key)\n";
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
    return report(ctx, queue, members, queue.cancel(members), "cancelled", "no longer there");
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
