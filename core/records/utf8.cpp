#include <delayq/utf8.h>

namespace delayq {

size_t utf8SequenceLength(std::string_view s, size_t i, unsigned& cp)
{
    const auto b = static_cast<unsigned char>(s[i]);
    size_t len = 0;
    unsigned min = 0;
    if (b < 0x80) {
        cp = b;
        return 1;
    }
    if ((b & 0xE0) == 0xC0) {
        len = 2;
        cp = b & 0x1F;
        min = 0x80;
    } else if ((b & 0xF0) == 0xE0) {
        len = 3;
        cp = b & 0x0F;
        min = 0x800;
    } else if ((b & 0xF8) == 0xF0) {
        len = 4;
        cp = b & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (i + len > s.size())
        return 0;
    for (size_t k = 1; k < len; ++k) {
        const auto c = static_cast<unsigned char>(s[i + k]);
        if ((c & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (c & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

std::string_view utf8Prefix(std::string_view s, size_t maxBytes)
{
    if (s.size() <= maxBytes)
        return s;
    const auto continues = [&](size_t i) {
        return (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;
    };
    size_t cut = maxBytes;
    // Back over at most three continuation bytes to the lead byte of the character cut in two.
    while (cut + 3 > maxBytes && cut > 0 && continues(cut))
        --cut;
    if (continues(cut))
        cut = maxBytes; // no lead byte within reach: not UTF-8
    return s.substr(0, cut);
}

} // namespace delayq
