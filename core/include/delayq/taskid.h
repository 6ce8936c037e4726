#pragma once

#include <string>

namespace delayq {

// A new 26-character ULID-style id: 48 bits of ms time then 80 random bits, in Crockford
// base32, so ids sort by creation time. Within one ms of one process the random part
// counts up, so tasks pushed with equal due times keep their push order. Thread-safe.
std::string generateTaskId();

// A random token (hex) for lease tokens and worker names.
std::string randomToken(int bytes = 8);

} // namespace delayq
