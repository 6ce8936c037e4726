// libFuzzer target: decoding Redis replies (RESP) and reading values out of them, as the
// core does with whatever a server (or something posing as one) sends.
#include "transport/replyreader.h"
#include <delayq/error.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void touch(const delayq::Reply& r, int depth)
{
    try {
        (void)r.toInteger();
    } catch (const delayq::Error& e) {
        if (e.code() != delayq::ErrorCode::Protocol)
            std::abort();
    }
    (void)r.toOptionalString();
    if (depth < 64)
        for (const auto& e : r.elements)
            touch(e, depth + 1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    try {
        delayq::ReplyReader reader;
        reader.feed(std::string_view(reinterpret_cast<const char*>(data), size));
        for (int i = 0; i < 1000; ++i) {
            auto reply = reader.next();
            if (!reply)
                break;
            touch(*reply, 0);
        }
    } catch (const delayq::Error& e) {
        if (e.code() != delayq::ErrorCode::Protocol)
            std::abort();
    }
    return 0;
}
