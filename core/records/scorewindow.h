#pragma once

#include <delayq/connection.h>

#include <string>
#include <utility>
#include <vector>

namespace delayq {

// Walks a sorted set in score order, `step` members a round trip, for exports while the set
// changes. A cursor by rank would shift whenever a member ahead of it leaves (a claim, a pop),
// skipping members that never moved; this one keeps the last score and member read. Members
// of one score (a bulk push in one ms) are ordered by their bytes, so within them it goes on
// after the last member read, which tolerates up to `step` of the ones read leaving meanwhile.
// A member that moves to a score ahead of the cursor is read again there (it did change).
class ScoreWindow
{
public:
    ScoreWindow(Connection& connection, std::string key, int step);

    // The next members with their scores as Redis wrote them; none once the set is read.
    std::vector<std::pair<std::string, std::string>> next();
    bool atEnd() const { return m_atEnd; }
    // True when a member with this score lies ahead of the cursor, so a later next() reads it:
    // a member listed in one window that moved there before it was read is left to that read.
    bool isAhead(const std::string& score, const std::string& member) const;

private:
    Connection& m_connection;
    std::string m_key;
    int m_step;
    bool m_started = false;
    bool m_atEnd = false;
    std::string m_score; // of the last member read
    std::string m_member;
    long long m_readAtScore = 0; // members read with m_score
};

} // namespace delayq
