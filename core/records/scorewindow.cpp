#include "records/scorewindow.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace delayq {

namespace {

using Members = std::vector<std::pair<std::string, std::string>>;

Members pairsOf(const Reply& reply)
{
    if (reply.isError())
        throw errorFromReply(reply.str);
    Members out;
    for (size_t i = 0; i + 1 < reply.elements.size(); i += 2)
        out.emplace_back(reply.elements[i].str, reply.elements[i + 1].str);
    return out;
}

double scoreValue(const std::string& text)
{
    if (text == "inf" || text == "+inf")
        return HUGE_VAL;
    if (text == "-inf")
        return -HUGE_VAL;
    double value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

} // namespace

bool ScoreWindow::isAhead(const std::string& score, const std::string& member) const
{
    if (m_atEnd || !m_started)
        return false;
    const double s = scoreValue(score);
    const double cursor = scoreValue(m_score);
    return s > cursor || (s == cursor && member > m_member);
}

ScoreWindow::ScoreWindow(Connection& connection, std::string key, int step)
    : m_connection(connection), m_key(std::move(key)), m_step(step)
{}

Members ScoreWindow::next()
{
    if (m_atEnd)
        return {};
    const std::string step = std::to_string(m_step);
    if (!m_started) {
        m_started = true;
        Members first = pairsOf(m_connection.command(
            {"ZRANGEBYSCORE", m_key, "-inf", "+inf", "WITHSCORES", "LIMIT", "0", step}));
        m_atEnd = first.size() < static_cast<size_t>(m_step);
        if (!first.empty()) {
            m_score = first.back().second;
            m_member = first.back().first;
            m_readAtScore = std::count_if(first.begin(), first.end(),
                                          [&](const auto& m) { return m.second == m_score; });
        }
        return first;
    }
    // The rest of the last score's members (from a little before where the cursor was, in
    // case some read ones left), then the scores above it, in one round trip.
    const long long from = std::max(0LL, m_readAtScore - m_step);
    auto replies = m_connection.pipeline(
        {{"ZRANGEBYSCORE", m_key, m_score, m_score, "WITHSCORES", "LIMIT", std::to_string(from),
          std::to_string(2LL * m_step)},
         {"ZRANGEBYSCORE", m_key, "(" + m_score, "+inf", "WITHSCORES", "LIMIT", "0", step}});
    const Members ties = pairsOf(replies[0]);
    const Members above = pairsOf(replies[1]);
    Members out;
    // Members of one score are in byte order (std::string compares bytes as unsigned, as Redis).
    for (const auto& m : ties)
        if (m.first > m_member && out.size() < static_cast<size_t>(m_step))
            out.push_back(m);
    const bool moreTies = ties.size() == static_cast<size_t>(2LL * m_step) ||
                          out.size() == static_cast<size_t>(m_step);
    if (moreTies && out.empty()) {
        // Every fetched tie was read already: many left meanwhile. Look further next time.
        m_readAtScore += m_step;
        return out;
    }
    m_readAtScore += static_cast<long long>(out.size());
    if (!moreTies) {
        for (const auto& m : above) {
            if (out.size() == static_cast<size_t>(m_step))
                break;
            if (m.second != m_score) {
                m_score = m.second;
                m_readAtScore = 0;
            }
            ++m_readAtScore;
            out.push_back(m);
        }
        m_atEnd = out.size() < static_cast<size_t>(m_step);
    }
    if (!out.empty())
        m_member = out.back().first;
    return out;
}

} // namespace delayq
