#include "client/taskrows.h"

#include "client/membertext.h"

#include <algorithm>

namespace delayq::ui {

QString TaskRows::text(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

TaskRow TaskRows::fromTask(const delayq::Task& t, size_t maxPayload)
{
    TaskRow r;
    // Binary-safe both ways: a plain member (or an id) that is not UTF-8 keeps its bytes.
    r.id = MemberText::fromBytes(t.id);
    const size_t kept = std::min(t.payload.size(), maxPayload);
    r.payload = QByteArray(t.payload.data(), static_cast<qsizetype>(kept));
    r.payloadSize = static_cast<qint64>(t.payload.size());
    r.score = t.score;
    r.due = t.due;
    r.created = t.created;
    r.attempts = t.attempts;
    r.maxAttempts = t.maxAttempts;
    r.backoff = text(t.backoff);
    r.worker = text(t.worker);
    r.lastError = text(t.lastError);
    r.state = text(t.state);
    r.broken = t.broken;
    r.priority = t.priority;
    r.group = text(t.group);
    r.expiresAt = t.expiresAt.value_or(0);
    return r;
}

TaskRow TaskRows::fromMember(const delayq::PlainQueue::Member& m, size_t maxPayload)
{
    TaskRow row;
    row.id = MemberText::fromBytes(m.member);
    row.payload = QByteArray::fromStdString(m.member.substr(0, maxPayload));
    row.payloadSize = static_cast<qint64>(m.member.size());
    row.score = m.dueMs;
    row.due = m.dueMs;
    row.state = QStringLiteral("pending");
    return row;
}

std::vector<std::string> TaskRows::ids(const QStringList& ids)
{
    std::vector<std::string> out;
    out.reserve(static_cast<size_t>(ids.size()));
    for (const QString& id : ids)
        out.push_back(MemberText::toBytes(id));
    return out;
}

QList<IdOutcome> TaskRows::outcomes(const std::vector<delayq::IdResult>& results)
{
    QList<IdOutcome> out;
    out.reserve(static_cast<qsizetype>(results.size()));
    for (const auto& r : results)
        out.append({MemberText::fromBytes(r.id), outcomeOf(r.status)});
    return out;
}

ServerCheckRow TaskRows::check(const delayq::Finding& finding)
{
    using Level = delayq::Finding::Level;
    ServerCheckRow row;
    row.level = finding.level == Level::Problem   ? ServerCheckRow::Problem
                : finding.level == Level::Warning ? ServerCheckRow::Warning
                                                  : ServerCheckRow::Ok;
    row.check = text(finding.check);
    row.server = text(finding.server);
    row.what = text(finding.what);
    row.risk = text(finding.risk);
    row.fix = text(finding.fix);
    return row;
}

QList<ServerNodeRow> TaskRows::clusterNodes(const std::vector<delayq::ClusterNodeInfo>& nodes)
{
    std::vector<const delayq::ClusterNodeInfo*> masters;
    for (const auto& n : nodes)
        if (n.master)
            masters.push_back(&n);
    auto firstSlot = [](const delayq::ClusterNodeInfo* n) {
        return n->slotRanges.empty() ? 1 << 20 : n->slotRanges.front().first;
    };
    std::sort(masters.begin(), masters.end(),
              [&](auto* a, auto* b) { return firstSlot(a) < firstSlot(b); });
    QList<ServerNodeRow> rows;
    for (const auto* m : masters) {
        ServerNodeRow row{text(m->address), true, {}, {}, 0, m->reachable};
        for (const auto& [from, to] : m->slotRanges) {
            row.slotRanges +=
                (row.slotRanges.isEmpty() ? QString() : QStringLiteral(", ")) +
                (from == to ? QString::number(from) : QStringLiteral("%1-%2").arg(from).arg(to));
            row.slotCount += to - from + 1;
        }
        rows.append(row);
        for (const auto& r : nodes)
            if (!r.master && r.masterId == m->id)
                rows.append({text(r.address), false, text(m->address), {}, 0, r.reachable});
    }
    return rows;
}

} // namespace delayq::ui
