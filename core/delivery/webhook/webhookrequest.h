#pragma once

#include "webhooksettings.h"
#include <delayq/task.h>
#include <delayq/worker.h>

#include <curl/curl.h>

#include <string>

namespace delayq::webhook {

// One libcurl easy handle and what it gathers of an answer. A WebhookDelivery keeps a few and
// sends one task at a time on each; the connections live in the delivery's multi handle, so
// they outlast every request.
class WebhookRequest
{
public:
    explicit WebhookRequest(const WebhookSettings& settings);
    ~WebhookRequest();
    WebhookRequest(const WebhookRequest&) = delete;
    WebhookRequest& operator=(const WebhookRequest&) = delete;

    CURL* handle() const { return m_easy; }
    // Sets the task's body and headers (signed when there is a secret). The payload is not
    // copied: the task outlives the transfer. index: where its result goes.
    void prepare(const ClaimedTask& task, size_t index);
    size_t index() const { return m_index; }
    // The task's result once the transfer ended with `code`.
    HandlerResult finish(CURLcode code) const;

    // "webhook-id: …" and the other values delayq sets: printable ASCII as is, every other
    // byte (and %) as %XX, so a plain key's binary member cannot break the header.
    static std::string headerValue(const std::string& text);

private:
    static size_t onBody(char* data, size_t size, size_t count, void* self);
    static size_t onHeader(char* data, size_t size, size_t count, void* self);
    void addHeader(const std::string& line);

    const WebhookSettings& m_settings;
    CURL* m_easy = nullptr;
    curl_slist* m_headers = nullptr;
    std::string m_body;       // its first bytes
    std::string m_retryAfter; // of the last response (a 100 Continue comes before it)
    char m_error[CURL_ERROR_SIZE] = {};
    size_t m_index = 0;
};

} // namespace delayq::webhook
