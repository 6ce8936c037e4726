#include "output/historyoutput.h"

#include "output/textoutput.h"

#include <delayq/timeparse.h>

namespace cli {

namespace {

// What an event's due time means, by kind.
const char* dueLabel(const std::string& kind)
{
    if (kind == "claimed")
        return "was due";
    if (kind == "failed")
        return "retry at";
    if (kind == "expired")
        return "due again";
    return "due";
}

std::string describe(const delayq::TaskEvent& e)
{
    std::string out;
    auto add = [&out](const std::string& part) {
        if (!out.empty())
            out += ", ";
        out += part;
    };
    if (!e.who.empty())
        add("by " + printable(e.who));
    if (!e.text.empty())
        add(printable(e.text));
    if (e.due)
        add(std::string(dueLabel(e.kind)) + " " + delayq::formatTime(*e.due));
    return out;
}

} // namespace

std::string historyText(const delayq::TaskHistory& history)
{
    if (history.events.empty())
        return "history       none recorded (the queue's history setting is off, or was when "
               "this task was pushed: delayq config QUEUE history N)\n";
    std::string text = "history       " + std::to_string(history.events.size()) + " event" +
                       (history.events.size() == 1 ? "" : "s") + ", oldest first\n";
    for (const auto& e : history.events) {
        std::string kind = printable(e.kind);
        kind.resize(std::max<size_t>(kind.size(), 12), ' ');
        text += "  " + delayq::formatTime(e.at) + "  " + kind + describe(e) + "\n";
    }
    return text;
}

void writeHistory(JsonWriter& j, const delayq::TaskHistory& history)
{
    j.beginArray();
    for (const auto& e : history.events) {
        j.beginObject().field("at", e.at).field("kind", e.kind);
        if (e.due)
            j.field("due", *e.due);
        // who and text come from workers and handlers: *_base64 keeps bytes that are not UTF-8.
        j.bytesField("who", e.who).bytesField("text", e.text).endObject();
    }
    j.endArray();
}

} // namespace cli
