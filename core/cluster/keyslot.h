#pragma once

#include <string>
#include <string_view>
#include <vector>

// Redis Cluster's key to slot function (CRC16/XMODEM mod 16384, hash tags honoured) and where
// a command's first key sits, for routing a command to the node that holds its slot.
namespace delayq::keyslot {

constexpr int kSlots = 16384;

// CRC16/XMODEM of the bytes, as Redis Cluster hashes a key (0..65535).
int crc16(std::string_view data);
// The slot of a key: of the text between the first '{' and the next '}' when that is not
// empty (the hash tag), else of the whole key.
int ofKey(std::string_view key);
// The slot of the command's first key, or -1 for a command that names no key (PING, TIME,
// INFO, SCRIPT, SCAN, PUBLISH, ...) or a script called with no keys. EVAL and EVALSHA route by
// KEYS[1] (args[3]).
int ofCommand(const std::vector<std::string>& args);

} // namespace delayq::keyslot
