#include "plainmodel.h"

#include <delayq/error.h>

#include <algorithm>
#include <stdexcept>

using namespace delayq;

namespace {

void expectPlain(bool ok, const std::string& what)
{
    if (!ok)
        throw std::runtime_error("plain key: " + what);
}

} // namespace

PlainModel::PlainModel(Connection& connection, const std::string& key)
    : m_connection(connection), m_plain(connection, key, PlainQueue::ScoreUnit::Milliseconds),
      m_key(key)
{}

void PlainModel::run(const ModelOp& op)
{
    switch (op.kind) {
    case ModelOp::Kind::PlainAdd:
        add(op);
        break;
    case ModelOp::Kind::PlainLease:
        lease(op);
        break;
    case ModelOp::Kind::PlainSettle:
        settle(op);
        break;
    default:
        break;
    }
}

void PlainModel::add(const ModelOp& op)
{
    // A producer's ZADD: a new member, or a new due time for one (a reschedule, which also
    // ends a lease someone holds on it).
    const std::string member = "m" + std::to_string(op.a % 10);
    const long long score = m_connection.serverNowMs() + static_cast<long long>(op.c % 400);
    m_connection.command({"ZADD", m_key, std::to_string(score), member});
    m_scores[member] = score;
}

void PlainModel::lease(const ModelOp& op)
{
    const int max = 1 + static_cast<int>(op.b % 4);
    // Now and then a forwarder that will die: its lease runs out at once.
    const long long leaseMs = op.c % 5 == 0 ? 1 : 60000;
    const PlainQueue::PopResult r = m_plain.lease(max, leaseMs);
    for (const auto& m : r.members) {
        const auto it = m_scores.find(m.member);
        expectPlain(it != m_scores.end(), "leased " + m.member + ", which the model does not have");
        expectPlain(it->second <= r.serverNow, "leased " + m.member + " " +
                                                   std::to_string(it->second - r.serverNow) +
                                                   " ms before it was due");
        expectPlain(m.dueMs == it->second, "leased " + m.member + " with due " +
                                               std::to_string(m.dueMs) + ", the model says " +
                                               std::to_string(it->second));
        it->second = r.leaseUntil;
        m_leases.emplace_back(m.member, r.leaseScore);
    }
    if (static_cast<int>(r.members.size()) < max)
        for (const auto& [member, score] : m_scores) {
            const bool taken =
                std::any_of(r.members.begin(), r.members.end(),
                            [&](const PlainQueue::Member& m) { return m.member == member; });
            expectPlain(taken || score > r.serverNow, member + " was due and not leased");
        }
}

void PlainModel::settle(const ModelOp& op)
{
    if (m_leases.empty())
        return;
    const Lease lease = m_leases[op.a % m_leases.size()];
    PlainQueue::Settlement s{lease.first, lease.second, std::nullopt};
    if (op.c % 2 == 1)
        s.newDueMs = m_connection.serverNowMs() + static_cast<long long>(op.c % 300);
    const auto it = m_scores.find(lease.first);
    const bool holds = it != m_scores.end() && std::to_string(it->second) == lease.second;
    const std::vector<bool> done = m_plain.settle({s});
    expectPlain(done.size() == 1 && done[0] == holds,
                "settle of " + lease.first + " answered " + (done.at(0) ? "done" : "left alone") +
                    ", the model says " + (holds ? "done" : "left alone"));
    if (!holds)
        return;
    if (s.newDueMs)
        it->second = *s.newDueMs;
    else
        m_scores.erase(it);
}

void PlainModel::verify()
{
    const Reply r = m_connection.command({"ZRANGE", m_key, "0", "-1", "WITHSCORES"});
    std::map<std::string, long long> server;
    for (size_t i = 0; i + 1 < r.elements.size(); i += 2)
        server[r.elements[i].str] = std::stoll(r.elements[i + 1].str);
    for (const auto& [member, score] : m_scores) {
        const auto it = server.find(member);
        expectPlain(it != server.end(), member + " is gone from the key");
        expectPlain(it->second == score, member + " has score " + std::to_string(it->second) +
                                             ", the model says " + std::to_string(score));
    }
    expectPlain(server.size() == m_scores.size(), "the key holds members the model does not have");
}
