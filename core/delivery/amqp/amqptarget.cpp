#include "amqptarget.h"

#include "amqpconnection.h"
#include "amqpdelivery.h"
#include "amqpurl.h"

#include <algorithm>

// The amqp:// and amqps:// target (docs/targets/amqp.md).
namespace delayq::amqp {

DeliveryFactory factory(const std::string& spec, const DeliveryOptions& options)
{
    const AmqpUrl url = parseAmqpUrl(spec); // refuses a bad URL now, before any thread starts
    return
        [url, options](int thread) { return std::make_unique<AmqpDelivery>(url, options, thread); };
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
    connection.closeCleanly();
}

std::string printable(const std::string& spec)
{
    return printableAmqpUrl(spec);
}

} // namespace delayq::amqp
