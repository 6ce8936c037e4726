#pragma once

#include <cstddef>
#include <string_view>

namespace delayq {

// Length of the valid UTF-8 sequence starting at s[i] (1-4), or 0 when the byte there starts
// none (bad lead byte, truncated, overlong, surrogate, beyond U+10FFFF). codePoint gets the
// decoded value when the length is not 0.
size_t utf8SequenceLength(std::string_view s, size_t i, unsigned& codePoint);

// The first at most maxBytes bytes of s, never ending inside a UTF-8 character: as nack.lua
// cuts an error (cut_utf8 in lua/common.lua). A cut that would split a character drops the
// whole character; bytes that are not UTF-8 are cut as bytes.
std::string_view utf8Prefix(std::string_view s, size_t maxBytes);

} // namespace delayq
