#pragma once

#include <delayq/delivery.h>

#include <string>

namespace delayq {

// The delivery targets a worker can hand tasks to (docs/delivery.md), by the --handler spec:
//   amqp://user:pw@host:5672/vhost?exchange=E&routing_key=K (amqps:// with TLS)
//   http://host/path, https://host/path (a webhook)
//   pipe:CMD (a long-lived consumer process per worker thread)
// In the delayq::delivery library (delayq_delivery), which links rabbitmq-c and libcurl, so
// that a service linking only delayq::core needs neither.

// True when the spec names one of the targets above (by its scheme).
bool isDeliverySpec(const std::string& spec);

// The factory for a spec. Throws Error(InvalidArgument) naming the cause for a malformed spec
// (an unknown URL key, no exchange, an empty command); nothing connects yet.
DeliveryFactory deliveryFor(const std::string& spec, const DeliveryOptions& options);

// Connects once and checks what can be checked before anything is claimed: the broker's
// credentials, vhost and exchange; that the endpoint answers; that the command starts.
// Throws Error with the cause (Auth, ConnectionFailed, NotFound...).
void checkDelivery(const std::string& spec, const DeliveryOptions& options);

// The spec as it may be printed: a password in a URL becomes "***".
std::string printableSpec(const std::string& spec);

} // namespace delayq
