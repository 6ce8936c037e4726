#include "taskline.h"

#include <delayq/error.h>
#include <delayq/utf8.h>

#include <nlohmann/json.hpp>
#include <openssl/evp.h>

#include <charconv>
#include <chrono>

namespace delayq {

namespace {

using Json = nlohmann::ordered_json;

void refuse(const std::string& why)
{
    throw Error(ErrorCode::InvalidArgument, why);
}

// The bytes as text when they are UTF-8, else base64 with an encoding field saying so.
void putBytes(Json& j, const char* name, const char* encodingName, const std::string& bytes)
{
    if (TaskLine::isUtf8(bytes)) {
        j[name] = bytes;
    } else {
        j[name] = TaskLine::base64(bytes);
        j[encodingName] = "base64";
    }
}

std::string getBytes(const Json& j, const char* name, const char* encodingName)
{
    auto it = j.find(name);
    if (it == j.end() || !it->is_string())
        refuse(std::string("\"") + name + "\" is missing or not a string");
    auto encoding = j.find(encodingName);
    if (encoding == j.end())
        return it->get<std::string>();
    if (*encoding != "base64")
        refuse(std::string("\"") + encodingName + "\" must be \"base64\" when given");
    auto bytes = TaskLine::fromBase64(it->get<std::string>());
    if (!bytes)
        refuse(std::string("\"") + name + "\" is not valid base64");
    return *bytes;
}

long long getInteger(const Json& j, const char* name, std::optional<long long> fallback = {})
{
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) {
        if (!fallback)
            refuse(std::string("\"") + name + "\" is missing");
        return *fallback;
    }
    if (!it->is_number_integer())
        refuse(std::string("\"") + name + "\" must be a whole number");
    if (it->is_number_unsigned() && it->get<unsigned long long>() > 9'000'000'000'000'000ULL)
        refuse(std::string("\"") + name + "\" is out of range");
    return it->get<long long>();
}

int getCount(const Json& j, const char* name)
{
    const long long n = getInteger(j, name, 0);
    if (n < 0 || n > 1'000'000'000)
        refuse(std::string("\"") + name + "\" must be 0 to 1000000000");
    return static_cast<int>(n);
}

std::string getText(const Json& j, const char* name)
{
    auto it = j.find(name);
    if (it == j.end() || it->is_null())
        return {};
    if (!it->is_string())
        refuse(std::string("\"") + name + "\" must be a string");
    return it->get<std::string>();
}

// A task's history (docs/cli.md, "Export and import"): one object an event, oldest first.
Json historyJson(const std::vector<TaskEvent>& events)
{
    Json list = Json::array();
    for (const TaskEvent& e : events) {
        Json event;
        event["at"] = e.at;
        event["kind"] = e.kind;
        if (e.due)
            event["due"] = *e.due;
        putBytes(event, "who", "who_encoding", e.who);
        putBytes(event, "text", "text_encoding", e.text);
        list.push_back(std::move(event));
    }
    return list;
}

std::vector<TaskEvent> historyFromJson(const Json& list)
{
    if (!list.is_array())
        refuse("\"history\" must be a list of events");
    std::vector<TaskEvent> events;
    for (const Json& event : list) {
        if (!event.is_object())
            refuse("each event of \"history\" must be an object");
        TaskEvent e{getInteger(event, "at"), getText(event, "kind"), std::nullopt,
                    getBytes(event, "who", "who_encoding"),
                    getBytes(event, "text", "text_encoding")};
        if (event.contains("due"))
            e.due = getInteger(event, "due");
        events.push_back(std::move(e));
    }
    return events;
}

Json parseObject(std::string_view line)
{
    Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded())
        refuse("not valid JSON");
    if (!j.is_object())
        refuse("not a JSON object");
    return j;
}

} // namespace

bool TaskLine::isUtf8(std::string_view text)
{
    unsigned codePoint = 0;
    for (size_t i = 0; i < text.size();) {
        const size_t n = utf8SequenceLength(text, i, codePoint);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

std::string TaskLine::base64(std::string_view data)
{
    std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(data.data()),
                                  static_cast<int>(data.size()));
    out.resize(static_cast<size_t>(n));
    return out;
}

std::optional<std::string> TaskLine::fromBase64(std::string_view text)
{
    // EVP_DecodeBlock skips blanks at either end and counts padding as zero bytes: refuse the
    // one, take the other back off.
    if (text.size() % 4 != 0 || text.find_first_of(" \t\r\n") != std::string_view::npos)
        return std::nullopt;
    std::string out(text.size() / 4 * 3 + 1, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()),
                                  static_cast<int>(text.size()));
    if (n < 0)
        return std::nullopt;
    size_t padding = 0;
    if (!text.empty() && text.back() == '=')
        padding = text.size() >= 2 && text[text.size() - 2] == '=' ? 2 : 1;
    // '=' anywhere but the end is not base64.
    if (text.substr(0, text.size() - padding).find('=') != std::string_view::npos)
        return std::nullopt;
    out.resize(static_cast<size_t>(n) - padding);
    return out;
}

std::string TaskLine::fromTask(const Task& task)
{
    Json j;
    j["id"] = task.id;
    j["state"] = task.state;
    j["due"] = task.due;
    if (task.state == "dead")
        j["died"] = task.score;
    j["created"] = task.created;
    j["attempts"] = task.attempts;
    j["max_attempts"] = task.maxAttempts;
    j["backoff"] = task.backoff;
    // An error is cut by bytes (and a handler's stderr can be anything): bytes as well.
    putBytes(j, "last_error", "last_error_encoding", task.lastError);
    putBytes(j, "payload", "payload_encoding", task.payload);
    if (!task.history.empty())
        j["history"] = historyJson(task.history);
    // Fair order's tags, only when the task has them: a file of untagged tasks is as before.
    if (task.priority != 0)
        j["priority"] = task.priority;
    if (!task.group.empty())
        j["group"] = task.group;
    // Its own start-by time (push --expires-at/--max-age), only when it has one.
    if (task.expiresAt && task.state != "dead")
        j["expires_at"] = *task.expiresAt;
    return j.dump();
}

Task TaskLine::toTask(std::string_view line)
{
    const Json j = parseObject(line);
    Task task;
    task.id = getText(j, "id");
    if (task.id.empty())
        refuse("\"id\" is missing or empty");
    task.state = getText(j, "state");
    if (task.state.empty())
        task.state = "pending";
    task.due = getInteger(j, "due");
    if (task.state == "dead")
        task.score = getInteger(j, "died");
    else
        task.score = task.due;
    const long long now = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
    task.created = getInteger(j, "created", now);
    task.attempts = getCount(j, "attempts");
    task.maxAttempts = getCount(j, "max_attempts");
    task.backoff = getText(j, "backoff");
    if (j.contains("last_error"))
        task.lastError = getBytes(j, "last_error", "last_error_encoding");
    task.payload = getBytes(j, "payload", "payload_encoding");
    if (j.contains("history"))
        task.history = historyFromJson(j["history"]);
    // The group's form is checked by TaskImport::check, as the other values are.
    const long long priority = getInteger(j, "priority", 0);
    if (priority < -9 || priority > 9)
        refuse("\"priority\" must be -9 to 9");
    task.priority = static_cast<int>(priority);
    task.group = getText(j, "group");
    if (j.contains("expires_at")) {
        const long long at = getInteger(j, "expires_at");
        if (at <= 0)
            refuse("\"expires_at\" must be a time in ms after 1970");
        task.expiresAt = at;
    }
    return task;
}

std::string TaskLine::fromSchedule(const ScheduleRule& rule)
{
    Json j;
    j["schedule"] = rule.name;
    if (rule.cron.empty()) {
        j["every_ms"] = rule.everyMs;
        j["start"] = rule.anchorMs;
    } else {
        j["cron"] = rule.cron;
        j["zone"] = rule.zone;
    }
    j["catch_up_ms"] = rule.catchUpMs;
    j["max_attempts"] = rule.maxAttempts;
    j["backoff"] = rule.backoff;
    j["paused"] = rule.paused;
    putBytes(j, "payload", "payload_encoding", rule.payload);
    return j.dump();
}

bool TaskLine::isSchedule(std::string_view line)
{
    // Most lines are tasks: only one that holds the key at all is parsed here.
    if (line.find("\"schedule\"") == std::string_view::npos)
        return false;
    const Json j = Json::parse(line, nullptr, false);
    return j.is_object() && j.contains("schedule");
}

ScheduleRule TaskLine::toSchedule(std::string_view line)
{
    const Json j = parseObject(line);
    ScheduleRule rule;
    rule.name = getText(j, "schedule");
    rule.cron = getText(j, "cron");
    if (!rule.cron.empty())
        rule.zone = j.contains("zone") ? getText(j, "zone") : "UTC";
    else
        rule.zone.clear();
    rule.everyMs = getInteger(j, "every_ms", 0);
    rule.anchorMs = getInteger(j, "start", 0);
    rule.catchUpMs = getInteger(j, "catch_up_ms", rule.catchUpMs);
    rule.maxAttempts = getCount(j, "max_attempts");
    rule.backoff = getText(j, "backoff");
    if (j.contains("paused")) {
        if (!j["paused"].is_boolean())
            refuse("\"paused\" must be true or false");
        rule.paused = j["paused"].get<bool>();
    }
    if (j.contains("payload"))
        rule.payload = getBytes(j, "payload", "payload_encoding");
    return rule;
}

std::string TaskLine::fromMember(const PlainQueue::Member& member)
{
    Json j;
    putBytes(j, "member", "member_encoding", member.member);
    long long whole = 0;
    const char* end = member.score.data() + member.score.size();
    auto [ptr, ec] = std::from_chars(member.score.data(), end, whole);
    if (ec == std::errc() && ptr == end)
        j["score"] = whole;
    else
        j["score"] = std::stod(member.score); // printed back exactly (17 digits when needed)
    return j.dump();
}

PlainQueue::Member TaskLine::toMember(std::string_view line)
{
    const Json j = parseObject(line);
    PlainQueue::Member member;
    member.member = getBytes(j, "member", "member_encoding");
    auto score = j.find("score");
    if (score == j.end() || !score->is_number())
        refuse("\"score\" is missing or not a number");
    member.score =
        score->is_number_integer() ? std::to_string(score->get<long long>()) : score->dump();
    return member;
}

} // namespace delayq
