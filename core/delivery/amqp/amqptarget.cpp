#include "amqptarget.h"

#include <delayq/error.h>

// Placeholder until the amqp target lands: refuses the spec with a clear error.
namespace delayq::amqp {

DeliveryFactory factory(const std::string&, const DeliveryOptions&)
{
    throw Error(ErrorCode::InvalidArgument, "the amqp target is not built yet");
}

void check(const std::string& spec, const DeliveryOptions& options)
{
    factory(spec, options);
}

std::string printable(const std::string& spec)
{
    return spec;
}

} // namespace delayq::amqp
