#include "bench/seeddesign.h"

namespace cli {

namespace {

// The seed's pop: the first due member and its score, removed in the same call.
const char* kLuaPop =
    "local v = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, 1)\n"
    "if #v == 0 then return false end\n"
    "redis.call('ZREM', KEYS[1], v[1])\n"
    "return v\n";

} // namespace

SeedDesign::SeedDesign(Kind kind, std::string key) : m_kind(kind), m_key(std::move(key)) {}

const char* SeedDesign::label() const
{
    return m_kind == Kind::RangeThenRem ? "(a) ZRANGEBYSCORE+ZREM" : "(b) Lua pop";
}

std::chrono::milliseconds SeedDesign::idleSleep() const
{
    return std::chrono::milliseconds(m_kind == Kind::RangeThenRem ? 500 : 1000);
}

void SeedDesign::prepare(delayq::Connection& connection)
{
    // Scripts are per node: on a cluster every master must know it (one server: just that).
    if (m_kind == Kind::LuaPop)
        for (const std::string& master : connection.masters())
            m_sha = connection.pipelineOn(master, {{"SCRIPT", "LOAD", kLuaPop}})[0].str;
}

SeedDesign::Take SeedDesign::take(delayq::Connection& connection, long long nowMs,
                                  std::string& member, long long& score) const
{
    const std::string now = std::to_string(nowMs);
    if (m_kind == Kind::RangeThenRem) {
        delayq::Reply r = connection.command(
            {"ZRANGEBYSCORE", m_key, "-inf", now, "WITHSCORES", "LIMIT", "0", "1"});
        if (r.elements.size() < 2)
            return Take::Empty;
        if (connection.command({"ZREM", m_key, r.elements[0].str}).toInteger() != 1)
            return Take::LostRace;
        member = r.elements[0].str;
        score = r.elements[1].toInteger();
        return Take::Taken;
    }
    delayq::Reply r = connection.command({"EVALSHA", m_sha, "1", m_key, now});
    if (!r.isArray() || r.elements.size() < 2)
        return Take::Empty;
    member = r.elements[0].str;
    score = r.elements[1].toInteger();
    return Take::Taken;
}

} // namespace cli
