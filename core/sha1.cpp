#include "sha1.h"

#include <array>
#include <cstdint>

namespace delayq {

namespace {

uint32_t rotl(uint32_t v, int n)
{
    return (v << n) | (v >> (32 - n));
}

void block(std::array<uint32_t, 5>& h, const unsigned char* p)
{
    uint32_t w[80];
    for (int i = 0; i < 16; ++i)
        w[i] = uint32_t(p[4 * i]) << 24 | uint32_t(p[4 * i + 1]) << 16 |
               uint32_t(p[4 * i + 2]) << 8 | uint32_t(p[4 * i + 3]);
    for (int i = 16; i < 80; ++i)
        w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; ++i) {
        uint32_t f, k;
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5A827999;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ED9EBA1;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8F1BBCDC;
        } else {
            f = b ^ c ^ d;
            k = 0xCA62C1D6;
        }
        uint32_t t = rotl(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rotl(b, 30);
        b = a;
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

} // namespace

std::string sha1Hex(std::string_view data)
{
    std::array<uint32_t, 5> h{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
    size_t full = data.size() / 64 * 64;
    for (size_t i = 0; i < full; i += 64)
        block(h, bytes + i);
    unsigned char tail[128] = {};
    size_t rest = data.size() - full;
    for (size_t i = 0; i < rest; ++i)
        tail[i] = bytes[full + i];
    tail[rest] = 0x80;
    size_t tailLen = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
    for (int i = 0; i < 8; ++i)
        tail[tailLen - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
    block(h, tail);
    if (tailLen == 128)
        block(h, tail + 64);
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (uint32_t v : h)
        for (int s = 28; s >= 0; s -= 4)
            out += hex[(v >> s) & 15];
    return out;
}

} // namespace delayq
