#include "pipetarget.h"

#include <delayq/error.h>

// Placeholder until the pipe target lands: refuses the spec with a clear error.
namespace delayq::pipe {

DeliveryFactory factory(const std::string&, const DeliveryOptions&)
{
    throw Error(ErrorCode::InvalidArgument, "the pipe target is not built yet");
}

void check(const std::string& spec, const DeliveryOptions& options)
{
    factory(spec, options);
}

std::string printable(const std::string& spec)
{
    return spec;
}

} // namespace delayq::pipe
