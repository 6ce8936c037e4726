#include "retryspec.h"

#include "transport/urltext.h"
#include <delayq/error.h>
#include <delayq/queue.h>

#include <algorithm>

namespace delayq::amqp {

namespace {

const UrlText
    kRetrySpecUrl("--retry-from URL",
                  "amqp://[user[:password]@]host[:port][/vhost]?queue=DLQ[&declare=1]"
                  "[&backoff=5s,20s,30s][&max_attempts=4][&prefetch=N], or amqps://… with the "
                  "TLS keys");

} // namespace

RetrySpec parseRetrySpec(const std::string& spec)
{
    RetrySpec r;
    r.backoff = Queue::normalizeBackoff("5s,20s,30s");
    // The retry loop's own keys are taken out here; the rest (the broker, max_message_size,
    // TLS) goes to parseAmqpUrl with an empty exchange=, which it requires and we never use.
    const auto q = spec.find('?');
    std::string rest;
    bool hasQueue = false;
    for (const auto& [name, value, hasValue] :
         UrlText::queryParameters(q == std::string::npos ? "" : spec.substr(q + 1))) {
        if (name == "queue") {
            r.queue = kRetrySpecUrl.percentDecode(value, "queue");
            hasQueue = true;
        } else if (name == "declare") {
            r.declare = kRetrySpecUrl.parseSwitch(value, "declare");
        } else if (name == "backoff") {
            try {
                r.backoff = Queue::normalizeBackoff(kRetrySpecUrl.percentDecode(value, "backoff"));
            } catch (const Error& e) {
                kRetrySpecUrl.refuse(std::string("backoff=: ") + e.what());
            }
        } else if (name == "max_attempts") {
            r.maxAttempts = kRetrySpecUrl.parseNumber(value, 1, 1000000, "max_attempts");
        } else if (name == "prefetch") {
            r.prefetch = kRetrySpecUrl.parseNumber(value, 1, 65535, "prefetch");
        } else if (name == "exchange" || name == "routing_key") {
            kRetrySpecUrl.refuse(name +
                                 "= does not apply: each message goes back to the exchange and "
                                 "routing key it was first published with (its x-death header)");
        } else {
            rest += "&" + name + (hasValue ? "=" + value : "");
        }
    }
    if (!hasQueue || r.queue.empty())
        kRetrySpecUrl.refuse("queue= (the dead-letter queue to consume) is missing");
    if (r.queue.size() > 255 || UrlText::hasControl(r.queue))
        kRetrySpecUrl.refuse("queue= must be 1 to 255 bytes without control characters");
    r.broker = parseAmqpUrl(spec.substr(0, q) + "?exchange=" + rest);
    return r;
}

long long retryDelayMs(const std::string& backoff, int deaths)
{
    const int step = std::max(deaths, 1) - 1;
    if (backoff.rfind("exp:", 0) == 0) {
        // exp:BASE:MAX, both in ms: BASE doubled per death, at most MAX.
        const auto colon = backoff.find(':', 4);
        const long long base = std::stoll(backoff.substr(4, colon - 4));
        const long long most = std::stoll(backoff.substr(colon + 1));
        long long delay = base;
        for (int i = 0; i < step && delay < most; ++i)
            delay *= 2;
        return std::min(delay, most);
    }
    // "5000,20000,30000": the last one for every death after the list.
    std::vector<long long> list;
    size_t at = 0;
    while (at <= backoff.size()) {
        const size_t comma = std::min(backoff.find(',', at), backoff.size());
        list.push_back(std::stoll(backoff.substr(at, comma - at)));
        at = comma + 1;
    }
    return list[std::min<size_t>(step, list.size() - 1)];
}

} // namespace delayq::amqp
