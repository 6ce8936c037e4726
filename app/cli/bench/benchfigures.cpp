#include "bench/benchfigures.h"

#include <delayq/worker.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

namespace cli {

int effectiveBatch(const BenchSettings& settings)
{
    return settings.batch.value_or(delayq::WorkerOptions{}.batch);
}

LatenessFigures latenessOf(std::vector<long long> values)
{
    LatenessFigures f;
    f.count = static_cast<long long>(values.size());
    if (values.empty())
        return f;
    std::sort(values.begin(), values.end());
    auto at = [&](double q) {
        size_t rank = static_cast<size_t>(q * static_cast<double>(values.size()) + 0.999999);
        return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
    };
    f.p50 = at(0.50);
    f.p99 = at(0.99);
    f.max = values.back();
    return f;
}

std::string benchPayload(long long i)
{
    return R"({"order":)" + std::to_string(i) + R"(,"action":"remind","pad":"0123456789abcdef"})";
}

std::string memoryPayload(long long i)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "payload-%010lld", i % 10'000'000'000LL);
    return buf;
}

long long benchDueDelay(long long i)
{
    return i % 2 == 0 ? 0 : 100 + (i * 37) % 400;
}

long long pacedPushes(long long rate, long long durationMs,
                      const std::function<void(long long, long long)>& push)
{
    const long long total = rate * durationMs / 1000;
    const auto start = std::chrono::steady_clock::now();
    for (long long i = 0; i < total; ++i) {
        const auto at = start + std::chrono::microseconds(i * 1'000'000 / rate);
        std::this_thread::sleep_until(at);
        push(i, benchDueDelay(i));
    }
    return total;
}

} // namespace cli
