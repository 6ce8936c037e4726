#include "transport/replychecks.h"

#include <delayq/connection.h>
#include <delayq/error.h>

#include <string>

namespace delayq {

void throwIfError(const Reply& reply)
{
    if (reply.isError())
        throw errorFromReply(reply.str);
}

void requireArray(const Reply& reply, size_t minSize, const char* what)
{
    throwIfError(reply);
    if (!reply.isArray() || reply.elements.size() < minSize)
        throw Error(ErrorCode::Protocol, std::string("unexpected reply shape from ") + what);
}

void throwFirstError(const std::vector<Reply>& replies)
{
    for (const auto& r : replies)
        if (r.isError())
            throw errorFromReply(r.str);
}

} // namespace delayq
