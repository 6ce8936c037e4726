// libFuzzer target: cron expressions. Refusals are Error(InvalidArgument); an accepted one
// gives fires that strictly ascend and match it.
#include <delayq/cron.h>
#include <delayq/error.h>

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const delayq::Cron cron = delayq::Cron::parse(text);
        long long at = 1'780'000'000'000LL; // 2026
        for (int i = 0; i < 3; ++i) {
            const auto next = cron.next(at, i == 1 ? "America/New_York" : "UTC");
            if (!next)
                break;
            if (*next <= at)
                std::abort();
            at = *next;
        }
    } catch (const delayq::Error& e) {
        if (e.code() != delayq::ErrorCode::InvalidArgument)
            std::abort();
    }
    return 0;
}
