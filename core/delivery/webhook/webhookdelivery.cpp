#include "webhookdelivery.h"

#include <delayq/error.h>

#include <algorithm>

namespace delayq::webhook {

WebhookDelivery::WebhookDelivery(std::shared_ptr<const WebhookSettings> settings,
                                 std::function<bool()> aborted)
    : m_settings(std::move(settings)), m_aborted(std::move(aborted)), m_multi(curl_multi_init())
{
    if (!m_multi)
        throw Error(ErrorCode::Connection, "libcurl could not make a multi handle");
    curl_multi_setopt(m_multi, CURLMOPT_MAX_HOST_CONNECTIONS, static_cast<long>(kConnections));
    curl_multi_setopt(m_multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, static_cast<long>(kConnections));
    curl_multi_setopt(m_multi, CURLMOPT_MAXCONNECTS, static_cast<long>(kConnections));
    for (int i = 0; i < kConnections; ++i) {
        m_requests.push_back(std::make_unique<WebhookRequest>(*m_settings));
        m_free.push_back(m_requests.back().get());
    }
}

WebhookDelivery::~WebhookDelivery()
{
    dropRunning();
    m_requests.clear(); // the easy handles go before the multi handle that holds the connections
    curl_multi_cleanup(m_multi);
}

std::vector<HandlerResult> WebhookDelivery::deliver(const std::vector<ClaimedTask>& tasks)
{
    std::vector<HandlerResult> results(tasks.size());
    std::vector<bool> answered(tasks.size(), false);
    std::string unanswered = "the worker was stopped at once"; // the worker hands those back
    size_t next = 0;
    size_t done = 0;
    try {
        while (done < tasks.size() && !(m_aborted && m_aborted())) {
            sendMore(tasks, next);
            int running = 0;
            if (const CURLMcode rc = curl_multi_perform(m_multi, &running); rc != CURLM_OK)
                throw Error(ErrorCode::Connection,
                            std::string("libcurl failed: ") + curl_multi_strerror(rc));
            const size_t finished = collect(results, answered);
            done += finished;
            // Wait for the sockets, but look at the stop flag at least every 100 ms.
            if (finished == 0 && done < tasks.size())
                curl_multi_poll(m_multi, nullptr, 0, 100, nullptr);
        }
    } catch (const std::exception& e) {
        unanswered = e.what();
    }
    if (done < tasks.size()) {
        dropRunning();
        for (size_t i = 0; i < tasks.size(); ++i)
            if (!answered[i])
                results[i] = HandlerResult::fail(unanswered);
    }
    return results;
}

void WebhookDelivery::sendMore(const std::vector<ClaimedTask>& tasks, size_t& next)
{
    while (!m_free.empty() && next < tasks.size()) {
        WebhookRequest* r = m_free.back();
        r->prepare(tasks[next], next);
        if (curl_multi_add_handle(m_multi, r->handle()) != CURLM_OK)
            throw Error(ErrorCode::Connection, "libcurl refused a request");
        m_free.pop_back();
        ++next;
    }
}

size_t WebhookDelivery::collect(std::vector<HandlerResult>& results, std::vector<bool>& answered)
{
    size_t finished = 0;
    int queued = 0;
    while (CURLMsg* msg = curl_multi_info_read(m_multi, &queued)) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        WebhookRequest* r = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &r);
        const CURLcode code = msg->data.result; // msg is freed by the removal below
        curl_multi_remove_handle(m_multi, msg->easy_handle);
        results[r->index()] = r->finish(code);
        answered[r->index()] = true;
        m_free.push_back(r);
        ++finished;
    }
    return finished;
}

void WebhookDelivery::dropRunning()
{
    for (auto& r : m_requests)
        if (std::find(m_free.begin(), m_free.end(), r.get()) == m_free.end()) {
            curl_multi_remove_handle(m_multi, r->handle());
            m_free.push_back(r.get());
        }
}

} // namespace delayq::webhook
