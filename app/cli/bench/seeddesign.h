#pragma once

#include <delayq/connection.h>

#include <chrono>
#include <string>

namespace cli {

// The two ways the seed articles build a delay queue on one sorted set (member = message,
// score = due ms), reproduced for the benchmark:
//  (a) ZRANGEBYSCORE key -inf now LIMIT 0 1, then ZREM (whoever removes it owns it),
//      sleeping 500 ms when nothing is due;
//  (b) one Lua call that pops one due member, sleeping 1 s when nothing is due.
class SeedDesign
{
public:
    enum class Kind
    {
        RangeThenRem,
        LuaPop
    };

    SeedDesign(Kind kind, std::string key);

    Kind kind() const { return m_kind; }
    const char* label() const;
    std::chrono::milliseconds idleSleep() const;

    // Loads (b)'s script once (SCRIPT LOAD), so each pop is an EVALSHA as in production.
    void prepare(delayq::Connection& connection);
    enum class Take
    {
        Taken,
        Empty,
        LostRace
    };
    // Takes one due member. Empty: nothing is due (the design then sleeps); LostRace: (a)
    // saw a member but another consumer removed it first (the design tries again at once).
    Take take(delayq::Connection& connection, long long nowMs, std::string& member,
              long long& score) const;

private:
    Kind m_kind;
    std::string m_key;
    std::string m_sha;
};

} // namespace cli
