#pragma once

#include "webhooksignature.h"
#include "webhookurl.h"
#include <delayq/delivery.h>

#include <string>
#include <vector>

namespace delayq::webhook {

// What every request of a webhook target shares, read from its URL and DeliveryOptions and
// checked once (before any thread starts); read-only afterwards, so the threads share it.
struct WebhookSettings
{
    WebhookUrl url;
    std::string method;               // POST, PUT or PATCH
    std::vector<std::string> headers; // the extra "Name: value" lines, as given
    bool ownContentType = false;      // one of them sets Content-Type: ours is left out
    long long timeoutMs = 10000;
    std::string caFile;
    WebhookSignature signature;
    std::string queue;

    // Throws Error(InvalidArgument) naming the bad method, header, timeout or CA file.
    static WebhookSettings from(const std::string& spec, const DeliveryOptions& options);
};

} // namespace delayq::webhook
