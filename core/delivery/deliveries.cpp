#include <delayq/deliveries.h>

#include "amqp/amqptarget.h"
#include "pipe/pipetarget.h"
#include "webhook/webhooktarget.h"
#include <delayq/error.h>

namespace delayq {

namespace {

enum class Kind
{
    None,
    Amqp,
    Webhook,
    Pipe
};

bool startsWith(const std::string& s, const char* prefix)
{
    return s.rfind(prefix, 0) == 0;
}

Kind kindOf(const std::string& spec)
{
    if (startsWith(spec, "amqp://") || startsWith(spec, "amqps://"))
        return Kind::Amqp;
    if (startsWith(spec, "http://") || startsWith(spec, "https://"))
        return Kind::Webhook;
    if (startsWith(spec, "pipe:"))
        return Kind::Pipe;
    return Kind::None;
}

[[noreturn]] void notATarget()
{
    throw Error(ErrorCode::InvalidArgument,
                "a delivery target is amqp://, amqps://, http://, https:// or pipe:CMD");
}

} // namespace

bool isDeliverySpec(const std::string& spec)
{
    return kindOf(spec) != Kind::None;
}

DeliveryFactory deliveryFor(const std::string& spec, const DeliveryOptions& options)
{
    switch (kindOf(spec)) {
    case Kind::Amqp:
        return amqp::factory(spec, options);
    case Kind::Webhook:
        return webhook::factory(spec, options);
    case Kind::Pipe:
        return pipe::factory(spec, options);
    case Kind::None:
        break;
    }
    notATarget();
}

void checkDelivery(const std::string& spec, const DeliveryOptions& options)
{
    switch (kindOf(spec)) {
    case Kind::Amqp:
        return amqp::check(spec, options);
    case Kind::Webhook:
        return webhook::check(spec, options);
    case Kind::Pipe:
        return pipe::check(spec, options);
    case Kind::None:
        break;
    }
    notATarget();
}

std::string printableSpec(const std::string& spec)
{
    switch (kindOf(spec)) {
    case Kind::Amqp:
        return amqp::printable(spec);
    case Kind::Webhook:
        return webhook::printable(spec);
    case Kind::Pipe:
        return pipe::printable(spec);
    case Kind::None:
        break;
    }
    return spec;
}

} // namespace delayq
