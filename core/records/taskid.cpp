#include <delayq/taskid.h>

#include <array>
#include <chrono>
#include <mutex>
#include <random>

namespace delayq {

namespace {

std::mt19937_64& generator()
{
    thread_local std::mt19937_64 gen{
        std::random_device{}() ^ static_cast<unsigned long long>(
                                     std::chrono::steady_clock::now().time_since_epoch().count())};
    return gen;
}

} // namespace

std::string generateTaskId()
{
    static const char* alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    static std::mutex mutex;
    static unsigned long long lastMs = 0;
    static std::array<unsigned char, 10> lastRandom{};

    unsigned long long ms =
        static_cast<unsigned long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                            std::chrono::system_clock::now().time_since_epoch())
                                            .count());
    std::array<unsigned char, 10> random{};
    {
        std::lock_guard lock(mutex);
        if (ms <= lastMs) {
            // Same (or a stepped-back) ms: count up so the order stays the push order.
            ms = lastMs;
            random = lastRandom;
            for (int i = 9; i >= 0; --i)
                if (++random[i] != 0)
                    break;
        } else {
            auto& gen = generator();
            for (auto& b : random)
                b = static_cast<unsigned char>(gen());
            random[0] &= 0x7f; // room to count up within one ms
        }
        lastMs = ms;
        lastRandom = random;
    }

    // 128 bits: 48 time + 80 random, written as 26 base32 digits (130 bits, top 2 zero).
    std::array<unsigned char, 16> bytes{};
    for (int i = 0; i < 6; ++i)
        bytes[i] = static_cast<unsigned char>(ms >> (8 * (5 - i)));
    for (int i = 0; i < 10; ++i)
        bytes[6 + i] = random[i];
    std::string out(26, '0');
    for (int digit = 25, bit = 0; digit >= 0; --digit, bit += 5) {
        int value = 0;
        for (int k = 0; k < 5; ++k) {
            int b = bit + k;
            if (b < 128 && (bytes[15 - b / 8] >> (b % 8)) & 1)
                value |= 1 << k;
        }
        out[digit] = alphabet[value];
    }
    return out;
}

std::string randomToken(int bytes)
{
    static const char* hex = "0123456789abcdef";
    std::string out;
    auto& gen = generator();
    for (int i = 0; i < bytes; ++i) {
        auto b = static_cast<unsigned char>(gen());
        out += hex[b >> 4];
        out += hex[b & 15];
    }
    return out;
}

} // namespace delayq
