#pragma once

#include "webhookrequest.h"
#include "webhooksettings.h"
#include <delayq/delivery.h>

#include <curl/curl.h>

#include <functional>
#include <memory>
#include <vector>

namespace delayq::webhook {

// A worker thread's webhook sender: one libcurl multi handle that sends a claim's tasks
// concurrently, at most kConnections requests at a time, over connections it keeps alive from
// one claim to the next. So neither a TCP (and TLS) handshake nor a whole round trip is paid
// per task; a request's timeout runs from when it is sent, not while it waits for a free slot.
class WebhookDelivery : public Delivery
{
public:
    WebhookDelivery(std::shared_ptr<const WebhookSettings> settings, std::function<bool()> aborted);
    ~WebhookDelivery() override;
    WebhookDelivery(const WebhookDelivery&) = delete;
    WebhookDelivery& operator=(const WebhookDelivery&) = delete;

    std::vector<HandlerResult> deliver(const std::vector<ClaimedTask>& tasks) override;

    static constexpr int kConnections = 8;

private:
    // Sends the next tasks on the free requests.
    void sendMore(const std::vector<ClaimedTask>& tasks, size_t& next);
    // Takes the finished transfers' results; how many there were.
    size_t collect(std::vector<HandlerResult>& results, std::vector<bool>& answered);
    // Drops every transfer still running (their connections close).
    void dropRunning();

    std::shared_ptr<const WebhookSettings> m_settings;
    std::function<bool()> m_aborted;
    CURLM* m_multi = nullptr;
    std::vector<std::unique_ptr<WebhookRequest>> m_requests;
    std::vector<WebhookRequest*> m_free;
};

} // namespace delayq::webhook
