#pragma once

#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/script.h>
#include <delayq/shardlayout.h>
#include <delayq/task.h>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace delayq {

class RecordReads;

// Where a queue's work goes (docs/design/sharding.md): the shard layout, read from shard 0's
// config, and the routing of every operation over it: by id (home first, then the others),
// by lease token ("sK." tokens), over every shard, and the claims' turn. An unsharded queue
// is the layout of one shard, on the same paths. A router pinned to one shard (a shard's own
// Queue or QueueReader) never reads a layout.
//
// Two copies of the layout: layout() is at most a second old (read again when older), for
// what must not act on an older one: pushes, claims, config, resharding. The hot path (pages,
// counts, operations by id) routes by the freshest copy in hand (this object's, or the
// process's, ShardLayoutCache) and reads the layout in the same pipeline; when that read
// differs, it corrects itself (asks again by the new layout), so a stale guess costs a round
// trip, never a wrong answer.
class ShardRouter
{
public:
    // Of the whole queue whose shard 0 has `keys`; pinned: of that shard alone.
    ShardRouter(Connection& connection, const Keys& keys, bool pinned);

    bool pinned() const { return m_pinned; }
    const Keys& keys() const { return m_keys; }
    Connection& connection() { return m_connection; }

    const ShardLayout& layout();
    const ShardLayout& reloadLayout();
    size_t count() { return m_pinned ? 1 : layout().tags.size(); }
    // The keys of a shard of layout(); throws InvalidArgument past the last.
    const Keys& shardKeys(size_t shard);
    // The shards in the order to look for an id: its home first.
    std::vector<size_t> searchOrder(const std::string& id);
    // The shard a lease token was handed out by ("sK." tokens; any other is shard 0's).
    static size_t shardOfToken(const std::string& token);
    // The same for this router: 0 (its own shard) when pinned.
    size_t tokenShard(const std::string& token) const { return m_pinned ? 0 : shardOfToken(token); }
    // What a shard's claims start their tokens with: "sK." on a sharded queue, nothing on an
    // unsharded one (its tokens are as they always were).
    std::string tokenPrefix(size_t shard);

    // --- the hot path
    // Commands built for the shards of the layout in hand, sent with the layout read in one
    // pipeline; built and sent again when the read shows other shards. The replies (errors
    // kept) and the shards they were built for.
    struct Read
    {
        std::vector<Reply> replies;
        std::vector<Keys> shards;
    };
    using Build = std::function<std::vector<std::vector<std::string>>(const std::vector<Keys>&)>;
    Read read(const Build& build);

    // Reads about one id: on its home shard by the layout in hand, with the layout read beside,
    // then on the other shards in turn (home by the layout just read first) until `found`
    // says the replies found it. Those replies (errors kept), or nullopt.
    using IdBuild = std::function<std::vector<std::vector<std::string>>(const Keys&)>;
    std::optional<std::vector<Reply>>
    lookUp(const std::string& id, const IdBuild& build,
           const std::function<bool(const std::vector<Reply>&)>& found);
    // The same with reads of task records among the commands (RecordReads: one reply each).
    using IdReads = std::function<void(RecordReads&, const Keys&)>;
    std::optional<std::vector<Reply>>
    lookUpReads(const std::string& id, const IdReads& build,
                const std::function<bool(const std::vector<Reply>&)>& found);

    // A script by id on each id's shard: first every id at its home by the layout in hand,
    // all shards' calls and the layout read in one pipeline; where the read shows another
    // layout, the ids answered away from their new home are asked there too; then the ids
    // still not found are asked in the other shards in turn (a task a reshard has not moved
    // yet). calls: the script calls for some ids on one shard; parse: their results.
    using IdCalls = std::function<std::vector<Connection::ScriptCall>(
        const Keys& shard, const std::vector<std::string>& ids)>;
    using IdParse = std::function<std::vector<IdResult>(const std::vector<std::string>& ids,
                                                        const std::vector<Reply>& replies)>;
    std::vector<IdResult> byIds(const std::vector<std::string>& ids, const Script& script,
                                const IdCalls& calls, const IdParse& parse);

    // `run` on each shard with the pairs whose token names it; the results in the pairs' order.
    // Decided by the tokens alone, never the layout: acks and renewals never wait for a read.
    using IdTokens = std::vector<std::pair<std::string, std::string>>;
    template <typename Result>
    std::vector<Result>
    onTokens(const IdTokens& idTokens,
             const std::function<std::vector<Result>(size_t, const IdTokens&)>& run)
    {
        std::map<size_t, std::vector<size_t>> positions;
        for (size_t i = 0; i < idTokens.size(); ++i)
            positions[m_pinned ? 0 : shardOfToken(idTokens[i].second)].push_back(i);
        std::vector<Result> results(idTokens.size());
        for (const auto& [shard, mine] : positions) {
            IdTokens some;
            some.reserve(mine.size());
            for (size_t i : mine)
                some.push_back(idTokens[i]);
            const auto done = run(shard, some);
            for (size_t j = 0; j < mine.size() && j < done.size(); ++j)
                results[mine[j]] = done[j];
        }
        return results;
    }

    // `run` on every shard of layout() in turn, the results added up with `add`.
    template <typename Result>
    Result overEveryShard(const std::function<Result(size_t)>& run,
                          const std::function<void(Result&, const Result&)>& add)
    {
        Result total{};
        for (size_t s = 0; s < count(); ++s)
            add(total, run(s));
        return total;
    }

    // --- claims
    // The shards a claim visits (empty: all); throws InvalidArgument for one not there.
    void setClaimShards(std::vector<size_t> shards, const std::string& queue);
    // One claim: the shards in turn from a per-worker start; the next shard when one has
    // nothing due, so an empty shard never costs a poll interval.
    ClaimResult claimInTurn(const std::string& worker,
                            const std::function<ClaimResult(size_t)>& run);

private:
    // The layout to route the hot path by: this object's copy while under a second old, else
    // the process's last read, else the one shard every queue starts as.
    ShardLayout inHand();
    // A layout read (HMGET of shard 0's config) taken in: both copies updated.
    const ShardLayout& absorb(const Reply& fields);
    std::vector<std::string> layoutRead() const;
    std::vector<Keys> keysOf(const ShardLayout& layout) const;
    // Calls of one script with the layout read first, in one pipeline (calls a server had
    // forgotten the script for sent again); the script's replies.
    std::vector<Reply> evalReading(const Script& script,
                                   const std::vector<Connection::ScriptCall>& calls);

    Connection& m_connection;
    Keys m_keys;
    bool m_pinned = false;
    std::optional<ShardLayout> m_layout;
    std::chrono::steady_clock::time_point m_layoutRead;
    std::vector<Keys> m_shards;
    std::vector<size_t> m_claimShards;
    std::optional<size_t> m_claimCursor; // the next of the claim shards to visit
};

} // namespace delayq
