#include "cluster/keyslot.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>

namespace delayq::keyslot {

namespace {

constexpr std::array<uint16_t, 256> makeTable()
{
    std::array<uint16_t, 256> table{};
    for (unsigned i = 0; i < 256; ++i) {
        uint16_t crc = static_cast<uint16_t>(i << 8);
        for (int bit = 0; bit < 8; ++bit)
            crc = static_cast<uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
        table[i] = crc;
    }
    return table;
}

constexpr auto kTable = makeTable();

bool equalsUpper(const std::string& word, const char* upper)
{
    size_t i = 0;
    for (; upper[i] && i < word.size(); ++i)
        if (std::toupper(static_cast<unsigned char>(word[i])) != upper[i])
            return false;
    return !upper[i] && i == word.size();
}

bool isOneOf(const std::string& verb, std::initializer_list<const char*> words)
{
    for (const char* w : words)
        if (equalsUpper(verb, w))
            return true;
    return false;
}

} // namespace

int crc16(std::string_view data)
{
    uint16_t crc = 0;
    for (unsigned char c : data)
        crc = static_cast<uint16_t>((crc << 8) ^ kTable[((crc >> 8) ^ c) & 0xff]);
    return crc;
}

int ofKey(std::string_view key)
{
    if (const auto open = key.find('{'); open != std::string_view::npos) {
        const auto close = key.find('}', open + 1);
        if (close != std::string_view::npos && close > open + 1)
            key = key.substr(open + 1, close - open - 1);
    }
    return crc16(key) & (kSlots - 1);
}

int ofCommand(const std::vector<std::string>& args)
{
    if (args.size() < 2)
        return -1;
    const std::string& verb = args[0];
    if (isOneOf(verb, {"EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO"})) {
        long long numKeys = 0;
        const std::string& n = args[2 < args.size() ? 2 : 0];
        const auto [ptr, ec] = std::from_chars(n.data(), n.data() + n.size(), numKeys);
        if (args.size() < 4 || ec != std::errc() || numKeys <= 0)
            return -1;
        return ofKey(args[3]);
    }
    // Commands whose second word is a subcommand and whose key, if any, comes after it.
    if (isOneOf(verb, {"MEMORY", "OBJECT", "XINFO"}))
        return args.size() > 2 ? ofKey(args[2]) : -1;
    // Commands that name no key: their arguments are channels, cursors, patterns or options.
    if (isOneOf(verb, {"PING",      "TIME",    "INFO",     "SCRIPT",    "SCAN",       "PUBLISH",
                       "CLUSTER",   "CONFIG",  "CLIENT",   "ROLE",      "ECHO",       "DBSIZE",
                       "FLUSHALL",  "FLUSHDB", "DEBUG",    "SLOWLOG",   "COMMAND",    "ACL",
                       "AUTH",      "SELECT",  "HELLO",    "FUNCTION",  "LATENCY",    "KEYS",
                       "RANDOMKEY", "WAIT",    "PUBSUB",   "SUBSCRIBE", "PSUBSCRIBE", "LASTSAVE",
                       "SAVE",      "BGSAVE",  "SHUTDOWN", "ASKING",    "READONLY",   "READWRITE",
                       "MULTI",     "EXEC",    "DISCARD"}))
        return -1;
    return ofKey(args[1]);
}

} // namespace delayq::keyslot
