#pragma once

#include "args.h"
#include <delayq/delivery.h>

#include <string>
#include <vector>

namespace cli {

// The options of `delayq work` for a delivery target (--handler amqp://…, http(s)://…,
// pipe:CMD): what the target's kind needs besides its URL or command.
std::vector<OptionSpec> deliveryOptionSpecs();

// Refuses an option of another target's kind, or a bad value, before anything connects.
delayq::DeliveryOptions deliveryOptionsFrom(const Args& a, const std::string& spec);

} // namespace cli
