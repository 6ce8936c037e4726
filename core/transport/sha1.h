#pragma once

#include <string>
#include <string_view>

namespace delayq {

// SHA-1 of bytes, as 40 lower-case hex digits. Used to derive stable task ids from plain
// queue members, so that migrating twice never makes two tasks of one member.
std::string sha1Hex(std::string_view data);

} // namespace delayq
