#include "webhooktarget.h"

#include <delayq/error.h>

// Placeholder until the webhook target lands: refuses the spec with a clear error.
namespace delayq::webhook {

DeliveryFactory factory(const std::string&, const DeliveryOptions&)
{
    throw Error(ErrorCode::InvalidArgument, "the webhook target is not built yet");
}

void check(const std::string& spec, const DeliveryOptions& options)
{
    factory(spec, options);
}

std::string printable(const std::string& spec)
{
    return spec;
}

} // namespace delayq::webhook
