#include "webhookanswer.h"

#include <delayq/utf8.h>

#include <curl/curl.h>

#include <algorithm>
#include <charconv>
#include <map>

namespace delayq::webhook {

namespace {

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

// "HTTP 503 Service Unavailable" and, when the body says anything, ": " and its start.
std::string describe(long status, std::string_view body, std::string_view note = {})
{
    std::string text = "HTTP " + WebhookAnswer::statusText(status);
    if (!note.empty())
        text.append(" (").append(note).append(")");
    const std::string shown = WebhookAnswer::plainText(body, WebhookAnswer::kBodyBytes);
    if (!shown.empty())
        text += ": " + shown;
    return text;
}

} // namespace

HandlerResult WebhookAnswer::ofStatus(long status, std::string_view body,
                                      std::string_view retryAfter, long long nowMs)
{
    if (status >= 200 && status <= 299)
        return HandlerResult::ack();
    if (status == 410)
        return HandlerResult::dead(describe(status, body));
    if ((status == 429 || status == 503) && !trimmed(retryAfter).empty()) {
        const long long delay = retryAfterMs(retryAfter, nowMs);
        if (delay >= 0)
            return HandlerResult::fail(
                describe(status, body, "Retry-After: " + plainText(trimmed(retryAfter), 40)),
                delay);
    }
    return HandlerResult::fail(describe(status, body));
}

HandlerResult WebhookAnswer::timedOut(long long timeoutMs)
{
    return HandlerResult::fail("no answer within " + std::to_string(timeoutMs) + " ms");
}

HandlerResult WebhookAnswer::failed(std::string_view curlText)
{
    return HandlerResult::fail(plainText(curlText, 300));
}

long long WebhookAnswer::retryAfterMs(std::string_view value, long long nowMs)
{
    value = trimmed(value);
    if (value.empty())
        return -1;
    if (std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        long long seconds = 0;
        auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
        if (ec == std::errc::result_out_of_range || seconds > kMaxRetryAfterMs / 1000)
            return kMaxRetryAfterMs;
        return ec == std::errc() ? seconds * 1000 : -1;
    }
    // An HTTP date (IMF-fixdate, or the two obsolete forms); curl_getdate reads all three.
    const std::string date(value);
    const time_t at = curl_getdate(date.c_str(), nullptr);
    if (at < 0)
        return -1;
    return std::clamp(static_cast<long long>(at) * 1000 - nowMs, 0LL, kMaxRetryAfterMs);
}

std::string WebhookAnswer::plainText(std::string_view body, size_t maxBytes)
{
    std::string out;
    bool gap = false; // a space is owed before the next visible character
    for (size_t i = 0; i < body.size();) {
        unsigned cp = 0;
        const size_t len = utf8SequenceLength(body, i, cp);
        const std::string_view piece = len ? body.substr(i, len) : "\xEF\xBF\xBD";
        i += len ? len : 1;
        if (len && (cp <= 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))) {
            gap = !out.empty();
            continue;
        }
        const size_t size = piece.size() + (gap ? 1 : 0);
        if (out.size() + size > maxBytes)
            return out + "…";
        if (gap)
            out += ' ';
        out.append(piece);
        gap = false;
    }
    return out;
}

std::string WebhookAnswer::statusText(long status)
{
    static const std::map<long, const char*> reasons = {{300, "Multiple Choices"},
                                                        {301, "Moved Permanently"},
                                                        {302, "Found"},
                                                        {303, "See Other"},
                                                        {304, "Not Modified"},
                                                        {307, "Temporary Redirect"},
                                                        {308, "Permanent Redirect"},
                                                        {400, "Bad Request"},
                                                        {401, "Unauthorized"},
                                                        {403, "Forbidden"},
                                                        {404, "Not Found"},
                                                        {405, "Method Not Allowed"},
                                                        {408, "Request Timeout"},
                                                        {409, "Conflict"},
                                                        {410, "Gone"},
                                                        {413, "Content Too Large"},
                                                        {415, "Unsupported Media Type"},
                                                        {422, "Unprocessable Content"},
                                                        {429, "Too Many Requests"},
                                                        {500, "Internal Server Error"},
                                                        {501, "Not Implemented"},
                                                        {502, "Bad Gateway"},
                                                        {503, "Service Unavailable"},
                                                        {504, "Gateway Timeout"}};
    auto it = reasons.find(status);
    return std::to_string(status) + (it == reasons.end() ? "" : std::string(" ") + it->second);
}

} // namespace delayq::webhook
