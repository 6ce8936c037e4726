#include "webhooktarget.h"

#include "webhookdelivery.h"
#include "webhooksettings.h"
#include <delayq/error.h>

#include <curl/curl.h>

#include <algorithm>
#include <memory>
#include <mutex>

// The webhook target (docs/targets/webhook.md): POSTs each task's payload to an http(s) URL
// through libcurl, a multi handle per worker thread.
namespace delayq::webhook {

namespace {

// Once per process, before any thread makes a handle (curl_global_init is not thread-safe
// in every libcurl build).
void initCurl()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

ErrorCode codeOf(CURLcode code)
{
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
        return ErrorCode::Timeout;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
        return ErrorCode::Tls;
    default:
        return ErrorCode::Connection;
    }
}

} // namespace

DeliveryFactory factory(const std::string& spec, const DeliveryOptions& options)
{
    initCurl();
    auto settings = std::make_shared<const WebhookSettings>(WebhookSettings::from(spec, options));
    auto aborted = options.aborted;
    return [settings, aborted](int) -> std::unique_ptr<Delivery> {
        return std::make_unique<WebhookDelivery>(settings, aborted);
    };
}

void check(const std::string& spec, const DeliveryOptions& options)
{
    initCurl();
    const WebhookSettings s = WebhookSettings::from(spec, options);
    // Connects (and for https:// does the TLS handshake with its checks), sends nothing.
    std::unique_ptr<CURL, void (*)(CURL*)> easy(curl_easy_init(), &curl_easy_cleanup);
    if (!easy)
        throw Error(ErrorCode::Connection, "libcurl could not make a request handle");
    char error[CURL_ERROR_SIZE] = {};
    const long timeout = static_cast<long>(std::min<long long>(s.timeoutMs, 10000));
    curl_easy_setopt(easy.get(), CURLOPT_URL, s.url.text().c_str());
    curl_easy_setopt(easy.get(), CURLOPT_CONNECT_ONLY, 1L);
    curl_easy_setopt(easy.get(), CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy.get(), CURLOPT_TIMEOUT_MS, timeout);
    curl_easy_setopt(easy.get(), CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(easy.get(), CURLOPT_SSL_VERIFYHOST, 2L);
    if (!s.caFile.empty())
        curl_easy_setopt(easy.get(), CURLOPT_CAINFO, s.caFile.c_str());
    curl_easy_setopt(easy.get(), CURLOPT_ERRORBUFFER, error);
    const CURLcode rc = curl_easy_perform(easy.get());
    if (rc == CURLE_OK)
        return;
    const std::string why = error[0] ? error : curl_easy_strerror(rc);
    if (rc == CURLE_COULDNT_RESOLVE_HOST)
        throw Error(ErrorCode::Connection, "cannot resolve the host " + s.url.host() + ": " + why);
    if (rc == CURLE_OPERATION_TIMEDOUT)
        throw Error(ErrorCode::Timeout,
                    s.url.hostPort() + " did not answer within " + std::to_string(timeout) + " ms");
    throw Error(codeOf(rc), "cannot connect to " + s.url.hostPort() + ": " + why);
}

std::string printable(const std::string& spec)
{
    return WebhookUrl::printable(spec);
}

} // namespace delayq::webhook
