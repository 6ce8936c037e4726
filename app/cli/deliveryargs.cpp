#include "deliveryargs.h"

namespace cli {

std::vector<OptionSpec> deliveryOptionSpecs()
{
    return {};
}

delayq::DeliveryOptions deliveryOptionsFrom(const Args&, const std::string&)
{
    return {};
}

} // namespace cli
