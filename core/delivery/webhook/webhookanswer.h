#pragma once

#include <delayq/worker.h>

#include <string>
#include <string_view>

namespace delayq::webhook {

// What an endpoint's answer means for its task (docs/targets/webhook.md): 2xx acks; 410 Gone is
// dead at once; 429 and 503 with a Retry-After are retried at that time; anything else fails
// with the status and the start of the body, retried on the task's backoff.
class WebhookAnswer
{
public:
    // body: what was kept of it (its first bytes); retryAfter: the header's value or empty;
    // nowMs: this machine's clock, for a Retry-After given as an HTTP date.
    static HandlerResult ofStatus(long status, std::string_view body, std::string_view retryAfter,
                                  long long nowMs);
    // No answer: the request timed out after timeoutMs, or failed with curl's text.
    static HandlerResult timedOut(long long timeoutMs);
    static HandlerResult failed(std::string_view curlText);

    // Retry-After's delay in ms from nowMs: delay-seconds or an HTTP date (a past date is 0),
    // at most a week; -1 when it is neither.
    static long long retryAfterMs(std::string_view value, long long nowMs);
    // The first bytes of an untrusted body as one line of plain text: line breaks, tabs and
    // control characters become spaces (runs of them one), bytes that are not UTF-8 U+FFFD;
    // at most maxBytes bytes, then "…".
    static std::string plainText(std::string_view body, size_t maxBytes);
    // The status and its standard reason phrase ("503 Service Unavailable"), never the
    // server's own phrase.
    static std::string statusText(long status);

    static constexpr size_t kBodyBytes = 200;
    static constexpr long long kMaxRetryAfterMs = 7LL * 86'400'000;
};

} // namespace delayq::webhook
