#pragma once

#include "args.h"
#include <delayq/delivery.h>

#include <string>
#include <vector>

namespace cli {

// The options of `delayq work` for a delivery target (--handler amqp://…, http(s)://…,
// pipe:CMD): what the target's kind needs besides its URL or command.
std::vector<OptionSpec> deliveryOptionSpecs();

// Refuses an option of another target's kind (also with a handler that is no target, such as
// exec:CMD), or a bad value, before anything connects. Webhooks: --http-method,
// --http-header (repeatable), --http-timeout, --http-ca, and the signing secret from
// --webhook-secret-file or DELAYQ_WEBHOOK_SECRET (never the command line).
delayq::DeliveryOptions deliveryOptionsFrom(const Args& a, const std::string& spec);

} // namespace cli
