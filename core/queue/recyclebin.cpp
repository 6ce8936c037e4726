#include <delayq/recyclebin.h>

#include "queue/scriptbatches.h"

#include <delayq/error.h>
#include <delayq/script.h>
#include <delayq/shardmover.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <map>

namespace delayq {

namespace {

// lua/common.lua's BIN_KEEP: bin_keep's default.
constexpr long long kDefaultKeepMs = 86400000;

long long number(const std::string& text, long long fallback = 0)
{
    long long value = fallback;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() ? value : fallback;
}

// The fields of a text split at '|', at most `max` (the last keeps the rest).
std::vector<std::string> fields(const std::string& text, size_t max)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (out.size() + 1 < max) {
        const size_t bar = text.find('|', start);
        if (bar == std::string::npos)
            break;
        out.push_back(text.substr(start, bar - start));
        start = bar + 1;
    }
    out.push_back(text.substr(start));
    return out;
}

} // namespace

RecycleBin::RecycleBin(Queue& queue) : m_queue(queue) {}

long long RecycleBin::oldestKept()
{
    const Reply keep = m_queue.connection().command({"HGET", m_queue.keys().config(), "bin_keep"});
    const long long ms = keep.isNil() ? kDefaultKeepMs : number(keep.str, kDefaultKeepMs);
    return m_queue.connection().serverNowMs() - ms;
}

std::vector<BinAction> RecycleBin::actions()
{
    const long long oldest = oldestKept();
    std::map<std::string, BinAction> merged;
    for (size_t s = 0; s < m_queue.shardCount(); ++s) {
        const Keys keys = m_queue.shardKeys(s);
        const Reply all = m_queue.connection().command({"HGETALL", keys.binActions()});
        std::vector<std::vector<std::string>> counts;
        std::vector<std::pair<std::string, std::string>> found;
        for (size_t i = 0; i + 1 < all.elements.size(); i += 2) {
            found.emplace_back(all.elements[i].str, all.elements[i + 1].str);
            counts.push_back(
                {"ZCOUNT", keys.binAction(all.elements[i].str), std::to_string(oldest), "+inf"});
        }
        if (counts.empty())
            continue;
        const auto replies = m_queue.connection().pipeline(counts);
        for (size_t i = 0; i < found.size(); ++i) {
            const long long n = replies[i].isError() ? 0 : replies[i].toInteger();
            if (n == 0)
                continue;
            const auto meta = fields(found[i].second, 3);
            BinAction& a = merged[found[i].first];
            a.tasks += n;
            const long long removed = meta.size() > 1 ? number(meta[1]) : 0;
            // The first call's shard names the action (each shard notes its own first call).
            if (a.action.empty() || (removed > 0 && removed < a.removedMs)) {
                a.action = found[i].first;
                a.kind = meta[0];
                a.removedMs = removed;
                a.auditEntry = meta.size() > 2 ? meta[2] : std::string();
            }
        }
    }
    std::vector<BinAction> out;
    for (auto& [action, a] : merged)
        out.push_back(std::move(a));
    std::sort(out.begin(), out.end(), [](const BinAction& x, const BinAction& y) {
        return x.removedMs != y.removedMs ? x.removedMs > y.removedMs : x.action > y.action;
    });
    return out;
}

std::vector<BinTask> RecycleBin::tasks(const std::string& action, size_t limit)
{
    const long long oldest = oldestKept();
    std::vector<BinTask> out;
    for (size_t s = 0; s < m_queue.shardCount(); ++s) {
        const Keys keys = m_queue.shardKeys(s);
        const std::string set = action.empty() ? keys.binAt() : keys.binAction(action);
        const Reply ids =
            m_queue.connection().command({"ZRANGE", set, "+inf", std::to_string(oldest), "BYSCORE",
                                          "REV", "LIMIT", "0", std::to_string(limit)});
        if (ids.elements.empty())
            continue;
        std::vector<std::string> read{"HMGET", keys.bin()};
        for (const auto& id : ids.elements)
            read.push_back(id.str);
        const Reply entries = m_queue.connection().command(read);
        for (size_t i = 0; i < ids.elements.size() && i < entries.elements.size(); ++i) {
            if (entries.elements[i].isNil())
                continue;
            // "1|ACTION|REMOVED|STATE|..." (bin_entry in lua/common.lua)
            const auto f = fields(entries.elements[i].str, 5);
            if (f.size() < 5 || f[0] != "1")
                continue;
            out.push_back({ids.elements[i].str, f[1], f[3], number(f[2])});
        }
    }
    std::sort(out.begin(), out.end(), [](const BinTask& x, const BinTask& y) {
        return x.removedMs != y.removedMs ? x.removedMs > y.removedMs : x.id < y.id;
    });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

std::string RecycleBin::actionOfAuditEntry(const std::string& entry)
{
    const bool wellFormed =
        !entry.empty() && entry.size() <= 41 &&
        std::all_of(entry.begin(), entry.end(),
                    [](unsigned char c) { return std::isdigit(c) || c == '-'; }) &&
        std::count(entry.begin(), entry.end(), '-') == 1 && entry.front() != '-' &&
        entry.back() != '-';
    if (!wellFormed)
        throw Error(ErrorCode::InvalidArgument,
                    "an audit entry is its stream id, MS-SEQ (as 'delayq audit' shows it)");
    for (size_t s = 0; s < m_queue.shardCount(); ++s) {
        const Reply found = m_queue.connection().command(
            {"XRANGE", m_queue.shardKeys(s).audit(), entry, entry, "COUNT", "1"});
        if (found.elements.empty() || found.elements[0].elements.size() < 2)
            continue;
        const auto& kv = found.elements[0].elements[1].elements;
        std::string action, bin;
        for (size_t i = 0; i + 1 < kv.size(); i += 2) {
            if (kv[i].str == "action")
                action = kv[i + 1].str;
            else if (kv[i].str == "bin")
                bin = kv[i + 1].str;
        }
        if (bin.empty())
            throw Error(ErrorCode::InvalidArgument,
                        "audit entry " + entry + " (" + action.substr(0, 32) +
                            ") kept nothing in the recycle bin: only cancel, purge and delete of "
                            "dead tasks do, since delayq 2.9");
        return bin;
    }
    throw Error(ErrorCode::NotFound,
                "no audit entry " + entry + " in queue '" + m_queue.name() + "'");
}

std::vector<IdResult> RecycleBin::restoreOn(size_t shard, const std::vector<std::string>& ids,
                                            std::optional<long long> dueAtMs)
{
    if (ids.empty())
        return {};
    // A restored task must land in its home shard, the only one a push or a cancel of its id
    // looks in first, and its entry is there: a reshard carries the bin's entries to their
    // id's new home (ShardMover::carryBin). Nothing is restored while one runs: asked again
    // for each shard, in case one began since the restore did.
    const ShardLayout& layout = m_queue.reloadLayout();
    if (layout.moving())
        throw Error(ErrorCode::InvalidArgument, reshardingText(layout, true));
    std::vector<IdResult> results(ids.size());
    std::map<size_t, std::pair<std::vector<std::string>, std::vector<size_t>>> byHome;
    std::vector<std::vector<std::string>> held; // the others: is their entry here?
    std::vector<size_t> heldAt;
    const Keys& keys = m_queue.shardKeys(shard);
    for (size_t i = 0; i < ids.size(); ++i) {
        results[i] = {ids[i], IdResult::Status::NotFound};
        const size_t home = static_cast<size_t>(layout.homeOf(ids[i]));
        if (home == shard) {
            byHome[home].first.push_back(ids[i]);
            byHome[home].second.push_back(i);
        } else {
            held.push_back({"HEXISTS", keys.bin(), ids[i]});
            heldAt.push_back(i);
        }
    }
    // An entry here of an id whose home is another shard: left by a reshard of a delayq that
    // did not carry the bin, or a task a schedule fired (fires go to shard 0) removed here.
    // Carried home first, then restored there with the others of that home (it used to be
    // refused as moved).
    std::vector<std::string> away;
    const std::vector<Reply> here = m_queue.connection().pipeline(held);
    for (size_t j = 0; j < here.size(); ++j)
        if (here[j].type == Reply::Type::Integer && here[j].toInteger() == 1) {
            const size_t i = heldAt[j];
            away.push_back(ids[i]);
            const size_t home = static_cast<size_t>(layout.homeOf(ids[i]));
            byHome[home].first.push_back(ids[i]);
            byHome[home].second.push_back(i);
        }
    if (!away.empty())
        ShardMover(m_queue).carryBin(shard, away);
    for (const auto& [home, group] : byHome) {
        Queue one = m_queue.shardQueue(home);
        const auto done = ScriptBatches(one).byIds(
            scripts::restore,
            {dueAtMs ? "at" : "keep", std::to_string(dueAtMs.value_or(0)), one.keys().wake()},
            group.first);
        for (size_t j = 0; j < done.size() && j < group.second.size(); ++j) {
            results[group.second[j]] = done[j];
            m_restored += done[j].status == IdResult::Status::Done;
        }
    }
    return results;
}

std::string RecycleBin::reshardingText(const ShardLayout& layout, bool begun)
{
    const size_t gt = layout.move.find('>');
    const std::string to =
        gt == std::string::npos ? std::to_string(layout.count) : layout.move.substr(gt + 1);
    return "queue '" + m_queue.name() + "' is being resharded (" + layout.move +
           " shards), which carries the recycle bin's entries to their new shards: " +
           (begun && m_restored > 0
                ? "the reshard began while restoring, after " + std::to_string(m_restored) +
                      " tasks were restored; the rest are still in the bin"
                : "nothing was restored") +
           "; restore once it has ended ('delayq reshard " + m_queue.name() + " --shards " + to +
           "' finishes it)";
}

void RecycleBin::refuseWhileMoving()
{
    m_restored = 0;
    // A restore writes (and may carry entries home): never from a read-only session.
    if (m_queue.connection().options().readOnly)
        throw Error(ErrorCode::NoPermission,
                    "cannot restore tasks of queue '" + m_queue.name() +
                        "': this session is read-only (reconnect without read-only to change "
                        "things)");
    const ShardLayout& layout = m_queue.reloadLayout();
    if (layout.moving())
        throw Error(ErrorCode::InvalidArgument, reshardingText(layout, false));
    // Entries a carry left held when its process died (between bin_take and bin_release) are
    // put home first, so no restore misses them. A queue of one tag has none.
    if (m_queue.shardCount() > 1) {
        ShardMover mover(m_queue);
        for (size_t s = 0; s < m_queue.shardCount(); ++s)
            mover.carryBin(s, {});
    }
}

std::vector<IdResult> RecycleBin::restore(const std::vector<std::string>& ids,
                                          std::optional<long long> dueAtMs)
{
    refuseWhileMoving();
    if (dueAtMs && (*dueAtMs < 0 || *dueAtMs > 9000000000000000LL))
        throw Error(ErrorCode::InvalidArgument, "the due time is out of range");
    std::vector<IdResult> results(ids.size());
    for (size_t i = 0; i < ids.size(); ++i)
        results[i] = {ids[i], IdResult::Status::NotFound};
    // Each shard in turn with the ids no shard before it held.
    for (size_t s = 0; s < m_queue.shardCount(); ++s) {
        std::vector<std::string> ask;
        std::vector<size_t> at;
        for (size_t i = 0; i < ids.size(); ++i)
            if (results[i].status == IdResult::Status::NotFound) {
                ask.push_back(ids[i]);
                at.push_back(i);
            }
        if (ask.empty())
            break;
        const auto some = restoreOn(s, ask, dueAtMs);
        for (size_t j = 0; j < some.size() && j < at.size(); ++j)
            results[at[j]].status = some[j].status;
    }
    return results;
}

std::vector<IdResult> RecycleBin::restoreSets(const std::function<std::string(const Keys&)>& key,
                                              std::optional<long long> dueAtMs)
{
    refuseWhileMoving();
    if (dueAtMs && (*dueAtMs < 0 || *dueAtMs > 9000000000000000LL))
        throw Error(ErrorCode::InvalidArgument, "the due time is out of range");
    std::vector<IdResult> all;
    for (size_t s = 0; s < m_queue.shardCount(); ++s) {
        const Reply ids =
            m_queue.connection().command({"ZRANGE", key(m_queue.shardKeys(s)), "0", "-1"});
        std::vector<std::string> some;
        some.reserve(ids.elements.size());
        for (const auto& id : ids.elements)
            some.push_back(id.str);
        auto done = restoreOn(s, some, dueAtMs);
        all.insert(all.end(), done.begin(), done.end());
    }
    return all;
}

std::vector<IdResult> RecycleBin::restoreAction(const std::string& action,
                                                std::optional<long long> dueAtMs)
{
    const bool ok = !action.empty() && action.size() <= 64 &&
                    std::all_of(action.begin(), action.end(), [](unsigned char c) {
                        return std::isalnum(c) || c == '.' || c == '-' || c == '_';
                    });
    if (!ok)
        throw Error(ErrorCode::InvalidArgument,
                    "a recycle bin action id is 1 to 64 of letters, digits and '.-_'");
    auto results = restoreSets([&](const Keys& k) { return k.binAction(action); }, dueAtMs);
    if (results.empty())
        throw Error(ErrorCode::NotFound, "the recycle bin of queue '" + m_queue.name() +
                                             "' holds nothing of action " + action +
                                             " (restored, dropped, or past bin_keep)");
    return results;
}

std::vector<IdResult> RecycleBin::restoreAll(std::optional<long long> dueAtMs)
{
    return restoreSets([](const Keys& k) { return k.binAt(); }, dueAtMs);
}

} // namespace delayq
