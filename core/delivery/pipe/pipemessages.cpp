#include "pipemessages.h"

#include <taskline.h>

#include <nlohmann/json.hpp>

namespace delayq::pipe {

namespace {

using Json = nlohmann::ordered_json;

Answer notAnAnswer(std::string problem)
{
    Answer a;
    a.problem = std::move(problem);
    return a;
}

// The text of a "fail"/"dead"/"error" field; empty when it is absent.
bool textField(const Json& j, const char* name, std::string& text, std::string& problem)
{
    const auto it = j.find(name);
    if (it == j.end())
        return true;
    if (!it->is_string()) {
        problem = std::string("\"") + name + "\" is not a string";
        return false;
    }
    text = it->get<std::string>();
    return true;
}

std::string keyOf(const Json& j, std::string& problem)
{
    const auto id = j.find("id");
    const auto id64 = j.find("id_base64");
    if (id != j.end() && id->is_string() && id64 == j.end())
        return "i:" + id->get<std::string>();
    if (id64 != j.end() && id64->is_string() && id == j.end())
        return "b:" + id64->get<std::string>();
    problem = id == j.end() && id64 == j.end() ? "no \"id\""
              : id != j.end() && id64 != j.end() ? "both \"id\" and \"id_base64\""
                                                  : "the id is not a string";
    return {};
}

// Exactly one verdict: "ack": true, "fail": TEXT, "retry_in_ms": N (with "error"), "dead": TEXT.
bool verdictOf(const Json& j, HandlerResult& result, std::string& problem)
{
    const int verdicts = static_cast<int>(j.contains("ack")) + static_cast<int>(j.contains("fail")) +
                         static_cast<int>(j.contains("retry_in_ms")) +
                         static_cast<int>(j.contains("dead"));
    if (verdicts != 1) {
        problem = verdicts == 0 ? "none of \"ack\", \"fail\", \"retry_in_ms\", \"dead\""
                                : "more than one of \"ack\", \"fail\", \"retry_in_ms\", \"dead\"";
        return false;
    }
    if (j.contains("ack")) {
        if (j["ack"] != true) {
            problem = "\"ack\" is not true";
            return false;
        }
        result = HandlerResult::ack();
        return true;
    }
    std::string text;
    if (j.contains("retry_in_ms")) {
        const Json& ms = j["retry_in_ms"];
        if (!ms.is_number_integer() || ms.get<long long>() < 0 ||
            ms.get<long long>() > kMaxRetryInMs) {
            problem = "\"retry_in_ms\" is not a whole number of ms from 0 to 31536000000";
            return false;
        }
        if (!textField(j, "error", text, problem))
            return false;
        const long long delay = ms.get<long long>();
        result = HandlerResult::fail(
            text.empty() ? "the consumer asked for a retry in " + std::to_string(delay) + " ms"
                         : text,
            delay);
        return true;
    }
    const bool dead = j.contains("dead");
    if (!textField(j, dead ? "dead" : "fail", text, problem))
        return false;
    if (text.empty())
        text = dead ? "the consumer sent it to dead" : "the consumer failed it";
    result = dead ? HandlerResult::dead(text) : HandlerResult::fail(text);
    return true;
}

} // namespace

std::string answerKey(const ClaimedTask& task)
{
    return TaskLine::isUtf8(task.id) ? "i:" + task.id : "b:" + TaskLine::base64(task.id);
}

std::string taskLine(const ClaimedTask& task, const std::string& queue)
{
    Json j;
    if (TaskLine::isUtf8(task.id))
        j["id"] = task.id;
    else
        j["id_base64"] = TaskLine::base64(task.id);
    // The queue name is validated (letters, digits and a few marks); a plain key is any
    // bytes, so it is cleaned rather than refused.
    j["queue"] = TaskLine::isUtf8(queue) ? queue : std::string("(not UTF-8)");
    j["attempt"] = task.attempts;
    j["max_attempts"] = task.maxAttempts;
    j["due"] = task.due;
    if (TaskLine::isUtf8(task.payload))
        j["payload"] = task.payload;
    else
        j["payload_base64"] = TaskLine::base64(task.payload);
    std::string line = j.dump();
    line += '\n';
    return line;
}

Answer parseAnswer(std::string_view line)
{
    Json j = Json::parse(line.begin(), line.end(), nullptr, false);
    if (j.is_discarded())
        return notAnAnswer("not JSON");
    if (!j.is_object())
        return notAnAnswer("not a JSON object");
    Answer a;
    a.key = keyOf(j, a.problem);
    if (a.key.empty())
        return a;
    if (!verdictOf(j, a.result, a.problem))
        return a;
    a.valid = true;
    return a;
}

} // namespace delayq::pipe
