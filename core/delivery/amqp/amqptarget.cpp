#include "amqptarget.h"

#include "amqpconnection.h"
#include "amqpdelivery.h"
#include "amqpurl.h"
#include <delayq/error.h>

#include <algorithm>
#include <atomic>

// The amqp:// and amqps:// target (docs/targets/amqp.md).
namespace delayq::amqp {

DeliveryFactory factory(const std::string& spec, const DeliveryOptions& options)
{
    const AmqpUrl url = parseAmqpUrl(spec); // refuses a bad URL now, before any thread starts
    // Dead tasks not published to dead_exchange=, counted over the worker's threads.
    auto deadUnsent = std::make_shared<std::atomic<long long>>(0);
    return [url, options, deadUnsent](int thread) {
        return std::make_unique<AmqpDelivery>(url, options, thread, deadUnsent);
    };
}

void check(const std::string& spec, const DeliveryOptions& options)
{
    // What a worker needs before it claims anything: the broker answers, takes the user,
    // opens the vhost, and has the exchange (the default exchange "" always exists).
    const AmqpUrl url = parseAmqpUrl(spec);
    AmqpConnection connection(url, std::clamp(options.answerTimeoutMs, 1000LL, 30000LL),
                              "delayq check");
    if (!url.exchange.empty())
        connection.requireExchange(url.exchange, url.vhost);
    if (url.deadExchange && !url.deadExchange->empty() && *url.deadExchange != url.exchange) {
        try {
            connection.requireExchange(*url.deadExchange, url.vhost);
        } catch (const Error& e) {
            throw Error(e.code(), std::string(e.what()) + " (dead_exchange= in the URL)");
        }
    }
    connection.closeCleanly();
}

std::string printable(const std::string& spec)
{
    return printableAmqpUrl(spec);
}

} // namespace delayq::amqp
