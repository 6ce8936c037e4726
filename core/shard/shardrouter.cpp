#include "shard/shardrouter.h"

#include "records/recordreads.h"
#include "shard/shardlayoutcache.h"
#include "transport/replychecks.h"

#include <delayq/error.h>

#include <algorithm>

namespace delayq {

namespace {

constexpr auto kFresh = std::chrono::seconds(1);

bool isNoScript(const Reply& reply)
{
    return reply.isError() && reply.str.rfind("NOSCRIPT", 0) == 0;
}

std::vector<std::string> evalShaArgs(const Script& script, const Connection::ScriptCall& call)
{
    std::vector<std::string> args{"EVALSHA", std::string(script.sha1),
                                  std::to_string(call.keys.size())};
    args.insert(args.end(), call.keys.begin(), call.keys.end());
    args.insert(args.end(), call.args.begin(), call.args.end());
    return args;
}

// Whether routing by `a` and by `b` can differ.
bool sameRouting(const ShardLayout& a, const ShardLayout& b)
{
    return a.tags == b.tags && a.count == b.count && a.move == b.move;
}

} // namespace

ShardRouter::ShardRouter(Connection& connection, const Keys& keys, bool pinned)
    : m_connection(connection), m_keys(keys), m_pinned(pinned)
{}

std::vector<std::string> ShardRouter::layoutRead() const
{
    return {"HMGET", m_keys.config(), "shards", "shard_tags", "shard_move", "shard_moved"};
}

std::vector<Keys> ShardRouter::keysOf(const ShardLayout& layout) const
{
    std::vector<Keys> shards;
    for (const auto& tag : layout.tags)
        shards.push_back(tag == m_keys.tag() ? m_keys : Keys(m_keys.prefix(), m_keys.queue(), tag));
    return shards;
}

const ShardLayout& ShardRouter::absorb(const Reply& reply)
{
    if (reply.isError())
        throw errorFromReply(reply.str);
    std::string fields[4];
    for (size_t i = 0; i < 4 && i < reply.elements.size(); ++i)
        fields[i] = reply.elements[i].str;
    ShardLayout layout =
        ShardLayout::fromConfig(m_keys.queue(), fields[0], fields[1], fields[2], fields[3]);
    ShardLayoutCache::remember(m_connection, m_keys.prefix(), m_keys.queue(), layout);
    m_shards = keysOf(layout);
    m_layout = std::move(layout);
    m_layoutRead = std::chrono::steady_clock::now();
    return *m_layout;
}

const ShardLayout& ShardRouter::layout()
{
    if (!m_layout || (!m_pinned && std::chrono::steady_clock::now() - m_layoutRead > kFresh))
        return reloadLayout();
    return *m_layout;
}

const ShardLayout& ShardRouter::reloadLayout()
{
    if (!m_pinned)
        return absorb(m_connection.command(layoutRead()));
    ShardLayout layout;
    layout.tags = {m_keys.tag()};
    m_shards = {m_keys};
    m_layout = std::move(layout);
    m_layoutRead = std::chrono::steady_clock::now();
    return *m_layout;
}

ShardLayout ShardRouter::inHand()
{
    if (m_pinned)
        return layout();
    if (m_layout && std::chrono::steady_clock::now() - m_layoutRead <= kFresh)
        return *m_layout;
    if (auto known = ShardLayoutCache::guess(m_connection, m_keys.prefix(), m_keys.queue()))
        return *known;
    if (m_layout)
        return *m_layout;
    ShardLayout one;
    one.tags = {m_keys.queue()};
    return one;
}

const Keys& ShardRouter::shardKeys(size_t shard)
{
    if (m_pinned && shard == 0)
        return m_keys; // a shard's own router: no layout to build
    layout();
    if (shard >= m_shards.size())
        throw Error(ErrorCode::InvalidArgument,
                    "queue '" + m_keys.queue() + "' has no shard " + std::to_string(shard));
    return m_shards[shard];
}

std::vector<size_t> ShardRouter::searchOrder(const std::string& id)
{
    const size_t home = static_cast<size_t>(layout().homeOf(id));
    std::vector<size_t> order{home};
    for (size_t i = 0; i < count(); ++i)
        if (i != home)
            order.push_back(i);
    return order;
}

size_t ShardRouter::shardOfToken(const std::string& token)
{
    // "sK." then the random part (hex, so it never starts with 's').
    if (token.size() < 3 || token[0] != 's')
        return 0;
    const size_t dot = token.find('.');
    if (dot == std::string::npos || dot == 1 || dot > 4)
        return 0;
    size_t shard = 0;
    for (size_t i = 1; i < dot; ++i) {
        if (token[i] < '0' || token[i] > '9')
            return 0;
        shard = shard * 10 + static_cast<size_t>(token[i] - '0');
    }
    return shard;
}

std::string ShardRouter::tokenPrefix(size_t shard)
{
    return layout().sharded() ? "s" + std::to_string(shard) + "." : std::string();
}

ShardRouter::Read ShardRouter::read(const Build& build)
{
    if (m_pinned) {
        Read out{{}, {m_keys}};
        out.replies = m_connection.pipeline(build(out.shards));
        return out;
    }
    // Twice at most: a layout that changed again meanwhile is read as the first read saw it.
    for (int attempt = 0;; ++attempt) {
        Read out{{}, keysOf(inHand())};
        std::vector<std::vector<std::string>> commands{layoutRead()};
        for (auto& command : build(out.shards))
            commands.push_back(std::move(command));
        out.replies = m_connection.pipeline(commands);
        const std::vector<Keys> now = keysOf(absorb(out.replies.front()));
        out.replies.erase(out.replies.begin());
        const bool same =
            now.size() == out.shards.size() &&
            std::equal(now.begin(), now.end(), out.shards.begin(),
                       [](const Keys& a, const Keys& b) { return a.tag() == b.tag(); });
        if (same || attempt == 1)
            return out;
    }
}

std::optional<std::vector<Reply>>
ShardRouter::lookUp(const std::string& id, const IdBuild& build,
                    const std::function<bool(const std::vector<Reply>&)>& found)
{
    return lookUpReads(
        id,
        [&build](RecordReads& reads, const Keys& keys) {
            for (auto& command : build(keys))
                reads.add(std::move(command));
        },
        found);
}

std::optional<std::vector<Reply>>
ShardRouter::lookUpReads(const std::string& id, const IdReads& build,
                         const std::function<bool(const std::vector<Reply>&)>& found)
{
    if (m_pinned) {
        RecordReads reads(m_connection);
        build(reads, m_keys);
        auto replies = reads.run();
        return found(replies) ? std::optional<std::vector<Reply>>(std::move(replies))
                              : std::nullopt;
    }
    const ShardLayout used = inHand();
    const std::vector<Keys> usedKeys = keysOf(used);
    const Keys& first = usedKeys[static_cast<size_t>(used.homeOf(id))];
    RecordReads reads(m_connection);
    reads.add(layoutRead());
    build(reads, first);
    std::vector<Reply> replies = reads.run();
    const ShardLayout now = absorb(replies.front());
    replies.erase(replies.begin());
    if (found(replies))
        return replies;
    // The home by the layout just read first, then the others (a task a reshard has not moved
    // yet); the shard already asked is not asked again.
    const std::vector<Keys> nowKeys = keysOf(now);
    std::vector<size_t> order{static_cast<size_t>(now.homeOf(id))};
    for (size_t s = 0; s < nowKeys.size(); ++s)
        if (s != order.front())
            order.push_back(s);
    for (size_t s : order) {
        if (nowKeys[s].tag() == first.tag())
            continue;
        RecordReads again(m_connection);
        build(again, nowKeys[s]);
        replies = again.run();
        if (found(replies))
            return replies;
    }
    return std::nullopt;
}

std::vector<Reply> ShardRouter::evalReading(const Script& script,
                                            const std::vector<Connection::ScriptCall>& calls)
{
    if (m_pinned)
        return m_connection.evalPipeline(script, calls);
    std::vector<std::vector<std::string>> commands{layoutRead()};
    for (const auto& call : calls)
        commands.push_back(evalShaArgs(script, call));
    std::vector<Reply> replies = m_connection.pipeline(commands);
    absorb(replies.front());
    replies.erase(replies.begin());
    // A flushed or restarted server forgot the script: those calls did not run, so they are
    // sent again (Connection::evalPipeline sends the body when the SHA is unknown).
    std::vector<size_t> again;
    std::vector<Connection::ScriptCall> retry;
    for (size_t i = 0; i < replies.size(); ++i)
        if (isNoScript(replies[i])) {
            again.push_back(i);
            retry.push_back(calls[i]);
        }
    if (!retry.empty()) {
        auto second = m_connection.evalPipeline(script, retry);
        for (size_t k = 0; k < again.size(); ++k)
            replies[again[k]] = std::move(second[k]);
    }
    return replies;
}

std::vector<IdResult> ShardRouter::byIds(const std::vector<std::string>& ids, const Script& script,
                                         const IdCalls& calls, const IdParse& parse)
{
    for (const auto& id : ids)
        Keys::validateTaskId(id);
    std::vector<IdResult> results(ids.size());
    if (ids.empty())
        return results;
    const ShardLayout used = inHand();
    const std::vector<Keys> usedKeys = keysOf(used);
    // Round 0: every id at its home by the layout in hand, with the layout read beside.
    std::vector<size_t> answeredBy(ids.size());
    std::map<size_t, std::vector<size_t>> groups;
    for (size_t i = 0; i < ids.size(); ++i) {
        answeredBy[i] = static_cast<size_t>(used.homeOf(ids[i]));
        groups[answeredBy[i]].push_back(i);
    }
    std::vector<Connection::ScriptCall> all;
    std::vector<std::pair<size_t, size_t>> callsOf; // per group: first call, how many
    for (const auto& [shard, mine] : groups) {
        std::vector<std::string> some;
        for (size_t i : mine)
            some.push_back(ids[i]);
        auto c = calls(usedKeys[shard], some);
        callsOf.emplace_back(all.size(), c.size());
        all.insert(all.end(), c.begin(), c.end());
    }
    const std::vector<Reply> replies = evalReading(script, all);
    size_t g = 0;
    for (const auto& [shard, mine] : groups) {
        std::vector<std::string> some;
        for (size_t i : mine)
            some.push_back(ids[i]);
        const auto [first, n] = callsOf[g++];
        const std::vector<Reply> theirs(replies.begin() + static_cast<long>(first),
                                        replies.begin() + static_cast<long>(first + n));
        const auto done = parse(some, theirs);
        for (size_t j = 0; j < mine.size() && j < done.size(); ++j)
            results[mine[j]] = done[j];
    }
    const ShardLayout now = m_pinned ? used : *m_layout;
    const std::vector<Keys> nowKeys = keysOf(now);
    auto ask = [&](size_t shard, const std::vector<size_t>& which, bool overrideFound) {
        std::vector<std::string> some;
        for (size_t i : which)
            some.push_back(ids[i]);
        const auto done =
            parse(some, m_connection.evalPipeline(script, calls(nowKeys[shard], some)));
        for (size_t j = 0; j < which.size() && j < done.size(); ++j)
            if (done[j].status != IdResult::Status::NotFound ||
                (overrideFound && results[which[j]].status == IdResult::Status::NotFound)) {
                results[which[j]] = done[j];
                answeredBy[which[j]] = shard;
            }
    };
    // The layout changed under the guess: an id answered away from its new home is asked
    // there too (where a move puts its copy).
    if (!sameRouting(used, now)) {
        std::map<size_t, std::vector<size_t>> moved;
        for (size_t i = 0; i < ids.size(); ++i) {
            const size_t home = static_cast<size_t>(now.homeOf(ids[i]));
            if (home != answeredBy[i] && home < nowKeys.size())
                moved[home].push_back(i);
        }
        for (const auto& [shard, which] : moved)
            ask(shard, which, true);
    }
    // Round 1: the ids still not found, in the other shards in turn.
    for (size_t s = 0; s < nowKeys.size(); ++s) {
        std::vector<size_t> which;
        for (size_t i = 0; i < ids.size(); ++i)
            if (results[i].status == IdResult::Status::NotFound &&
                static_cast<size_t>(now.homeOf(ids[i])) != s && answeredBy[i] != s)
                which.push_back(i);
        if (!which.empty())
            ask(s, which, false);
    }
    return results;
}

void ShardRouter::setClaimShards(std::vector<size_t> shards, const std::string& queue)
{
    for (size_t shard : shards)
        if (shard >= count())
            throw Error(ErrorCode::InvalidArgument,
                        "queue '" + queue + "' has " + std::to_string(count()) + " shards (0 to " +
                            std::to_string(count() - 1) + "), not " + std::to_string(shard));
    m_claimShards = std::move(shards);
    m_claimCursor.reset();
}

ClaimResult ShardRouter::claimInTurn(const std::string& worker,
                                     const std::function<ClaimResult(size_t)>& run)
{
    std::vector<size_t> shards = m_claimShards;
    if (shards.empty())
        for (size_t s = 0; s < count(); ++s)
            shards.push_back(s);
    // Each worker starts at its own shard (by its name), then takes them in turn.
    if (!m_claimCursor || *m_claimCursor >= shards.size())
        m_claimCursor = static_cast<size_t>(ShardLayout::hashOf(worker)) % shards.size();
    ClaimResult out;
    for (size_t k = 0; k < shards.size(); ++k) {
        const size_t index = (*m_claimCursor + k) % shards.size();
        ClaimResult r = run(shards[index]);
        out.serverNow = r.serverNow;
        out.paused = out.paused || r.paused;
        if (r.nextDue)
            out.nextDue = out.nextDue ? std::min(*out.nextDue, *r.nextDue) : *r.nextDue;
        if (!r.tasks.empty()) {
            out.tasks = std::move(r.tasks);
            m_claimCursor = (index + 1) % shards.size();
            // The shards not asked may hold due tasks: look again at once, not at nextDue.
            if (k + 1 < shards.size())
                out.nextDue = out.serverNow;
            return out;
        }
    }
    return out;
}

} // namespace delayq
