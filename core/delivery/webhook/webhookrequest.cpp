#include "webhookrequest.h"

#include "webhookanswer.h"
#include <delayq/error.h>
#include <delayq/version.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <strings.h>

namespace delayq::webhook {

namespace {

long long nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Enough of the body for the task's error; the rest is read and dropped (the connection
// stays usable only when the whole answer was read).
constexpr size_t kKeptBody = 1024;

} // namespace

WebhookRequest::WebhookRequest(const WebhookSettings& settings)
    : m_settings(settings), m_easy(curl_easy_init())
{
    if (!m_easy)
        throw Error(ErrorCode::Connection, "libcurl could not make a request handle");
    curl_easy_setopt(m_easy, CURLOPT_URL, settings.url.text().c_str());
    curl_easy_setopt(m_easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(m_easy, CURLOPT_NOSIGNAL, 1L); // threads: no SIGALRM for DNS timeouts
    curl_easy_setopt(m_easy, CURLOPT_TIMEOUT_MS, static_cast<long>(settings.timeoutMs));
    curl_easy_setopt(m_easy, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(m_easy, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!settings.caFile.empty())
        curl_easy_setopt(m_easy, CURLOPT_CAINFO, settings.caFile.c_str());
    curl_easy_setopt(m_easy, CURLOPT_FOLLOWLOCATION, 0L); // a 3xx is the endpoint's answer
    curl_easy_setopt(m_easy, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(m_easy, CURLOPT_USERAGENT, "delayq/" DELAYQ_VERSION);
    curl_easy_setopt(m_easy, CURLOPT_POST, 1L);
    if (settings.method != "POST")
        curl_easy_setopt(m_easy, CURLOPT_CUSTOMREQUEST, settings.method.c_str());
    curl_easy_setopt(m_easy, CURLOPT_WRITEFUNCTION, &WebhookRequest::onBody);
    curl_easy_setopt(m_easy, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(m_easy, CURLOPT_HEADERFUNCTION, &WebhookRequest::onHeader);
    curl_easy_setopt(m_easy, CURLOPT_HEADERDATA, this);
    curl_easy_setopt(m_easy, CURLOPT_ERRORBUFFER, m_error);
    curl_easy_setopt(m_easy, CURLOPT_PRIVATE, this);
}

WebhookRequest::~WebhookRequest()
{
    curl_easy_cleanup(m_easy);
    curl_slist_free_all(m_headers);
}

std::string WebhookRequest::headerValue(const std::string& text)
{
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (c > 0x20 && c < 0x7f && c != '%') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

void WebhookRequest::addHeader(const std::string& line)
{
    curl_slist* next = curl_slist_append(m_headers, line.c_str());
    if (!next)
        throw Error(ErrorCode::Connection, "out of memory building a webhook request");
    m_headers = next;
}

void WebhookRequest::prepare(const ClaimedTask& task, size_t index)
{
    m_index = index;
    m_body.clear();
    m_retryAfter.clear();
    m_error[0] = '\0';
    curl_slist_free_all(m_headers);
    m_headers = nullptr;

    const std::string id = headerValue(task.id);
    const std::string timestamp = std::to_string(nowMs() / 1000);
    if (!m_settings.ownContentType)
        addHeader(nlohmann::json::accept(task.payload) ? "Content-Type: application/json"
                                                       : "Content-Type: application/octet-stream");
    addHeader("webhook-id: " + id);
    addHeader("webhook-timestamp: " + timestamp);
    if (m_settings.signature.enabled())
        addHeader("webhook-signature: " + m_settings.signature.sign(id, timestamp, task.payload));
    addHeader("delayq-queue: " + headerValue(m_settings.queue));
    addHeader("delayq-attempt: " + std::to_string(task.attempts));
    addHeader("delayq-max-attempts: " + std::to_string(task.maxAttempts));
    addHeader("delayq-due: " + std::to_string(task.due));
    for (const std::string& header : m_settings.headers)
        addHeader(header);
    addHeader("Expect:"); // no 100-continue round trip before a larger body
    curl_easy_setopt(m_easy, CURLOPT_HTTPHEADER, m_headers);
    curl_easy_setopt(m_easy, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(task.payload.size()));
    curl_easy_setopt(m_easy, CURLOPT_POSTFIELDS, task.payload.data());
}

HandlerResult WebhookRequest::finish(CURLcode code) const
{
    if (code == CURLE_OPERATION_TIMEDOUT)
        return WebhookAnswer::timedOut(m_settings.timeoutMs);
    if (code != CURLE_OK)
        return WebhookAnswer::failed(m_error[0] ? m_error : curl_easy_strerror(code));
    long status = 0;
    curl_easy_getinfo(m_easy, CURLINFO_RESPONSE_CODE, &status);
    return WebhookAnswer::ofStatus(status, m_body, m_retryAfter, nowMs());
}

size_t WebhookRequest::onBody(char* data, size_t size, size_t count, void* self)
{
    auto* r = static_cast<WebhookRequest*>(self);
    const size_t n = size * count;
    if (r->m_body.size() < kKeptBody)
        r->m_body.append(data, std::min(n, kKeptBody - r->m_body.size()));
    return n;
}

size_t WebhookRequest::onHeader(char* data, size_t size, size_t count, void* self)
{
    auto* r = static_cast<WebhookRequest*>(self);
    const size_t n = size * count;
    static constexpr char name[] = "retry-after:";
    const size_t nameLength = sizeof name - 1;
    if (n >= 5 && std::memcmp(data, "HTTP/", 5) == 0)
        r->m_retryAfter.clear(); // a new response (after a 100 Continue)
    else if (n > nameLength && ::strncasecmp(data, name, nameLength) == 0)
        r->m_retryAfter.assign(data + nameLength, std::min<size_t>(n - nameLength, 200));
    while (!r->m_retryAfter.empty() &&
           (r->m_retryAfter.back() == '\r' || r->m_retryAfter.back() == '\n'))
        r->m_retryAfter.pop_back();
    return n;
}

} // namespace delayq::webhook
