#pragma once

#include <delayq/task.h>
#include <delayq/worker.h>

#include <string>
#include <string_view>

// The pipe target's line protocol (docs/targets/pipe.md): one JSON object a line each way.
namespace delayq::pipe {

// The key an answer is matched by: the id as sent, in the field it was sent in ("id" for
// UTF-8, "id_base64" for any other bytes), so two ids never meet under one key.
std::string answerKey(const ClaimedTask& task);

// The task's line for the consumer's stdin, "\n" included:
// {"id":…,"queue":…,"attempt":N,"max_attempts":M,"due":MS,"payload":…}
// with "id_base64" / "payload_base64" instead when those bytes are not UTF-8.
std::string taskLine(const ClaimedTask& task, const std::string& queue);

// One line the consumer wrote on its stdout (without the "\n"), read as an answer.
struct Answer
{
    bool valid = false;
    std::string problem; // when not valid: why, for the operator ("no \"id\"")
    std::string key;     // answerKey() of the task it answers
    HandlerResult result;
};
Answer parseAnswer(std::string_view line);

// The longest retry_in_ms an answer may ask for (365 days).
constexpr long long kMaxRetryInMs = 365LL * 24 * 3600 * 1000;

} // namespace delayq::pipe
