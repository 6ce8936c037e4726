#pragma once

#include <delayq/delivery.h>

#include <string>

// The pipe target's entry points, called by deliveries.cpp for its scheme (see
// <delayq/deliveries.h> for what each must do).
namespace delayq::pipe {

DeliveryFactory factory(const std::string& spec, const DeliveryOptions& options);
void check(const std::string& spec, const DeliveryOptions& options);
std::string printable(const std::string& spec);

} // namespace delayq::pipe
