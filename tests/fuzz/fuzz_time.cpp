// libFuzzer target: durations and ISO 8601 times. Refusals are Error(InvalidArgument);
// accepted values stay in the documented ranges.
#include <delayq/error.h>
#include <delayq/timeparse.h>

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        long long ms = delayq::parseDuration(text);
        if (ms < 0 || ms > 3650LL * 86'400'000)
            std::abort();
        (void)delayq::formatDuration(ms);
    } catch (const delayq::Error& e) {
        if (e.code() != delayq::ErrorCode::InvalidArgument)
            std::abort();
    }
    try {
        long long ms = delayq::parseTime(text);
        // 1970 minus a day of time zone .. the end of 9999 plus a day.
        if (ms < -86'400'000LL || ms > 253402300799999LL + 86'400'000LL)
            std::abort();
        (void)delayq::formatTime(ms, true);
        (void)delayq::formatRelative(ms, 1'700'000'000'000LL);
    } catch (const delayq::Error& e) {
        if (e.code() != delayq::ErrorCode::InvalidArgument)
            std::abort();
    }
    return 0;
}
