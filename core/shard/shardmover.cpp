#include <delayq/shardmover.h>

#include "records/taskrecord.h"
#include "records/valuechecks.h"
#include "transport/replychecks.h"

#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/script.h>
#include <delayq/taskhistory.h>
#include <delayq/taskid.h>
#include <delayq/taskimport.h>

#include <algorithm>
#include <map>
#include <sstream>

namespace delayq {

namespace {

// The home config's cursor: "SHARD|SET|ZSCAN CURSOR|PASS|SEEN|HELD|PASS START" (shard_layout.lua
// writes the first). SEEN counts the tasks this pass found outside their home (moved or not),
// HELD those of them a worker held, and PASS START is the server's ms when the pass began: a
// reshard is over only after a pass that found nothing, begun late enough (kSettleMs).
struct MoveCursor
{
    size_t shard = 0;
    std::string set = "pending";
    std::string scan = "0";
    int pass = 1;
    long long seen = 0;
    long long held = 0;
    long long passStart = 0;

    static MoveCursor parse(const std::string& text)
    {
        MoveCursor c;
        std::vector<std::string> parts;
        std::istringstream in(text);
        for (std::string part; std::getline(in, part, '|');)
            parts.push_back(part);
        if (parts.size() >= 4) {
            c.shard = static_cast<size_t>(wholeNumber(parts[0]).value_or(0));
            c.set = parts[1];
            c.scan = parts[2];
            c.pass = static_cast<int>(wholeNumber(parts[3]).value_or(1));
        }
        // A cursor of an older delayq (four fields) counts as a pass that found something.
        c.seen = parts.size() >= 7 ? wholeNumber(parts[4]).value_or(1) : 1;
        c.held = parts.size() >= 7 ? wholeNumber(parts[5]).value_or(0) : 0;
        c.passStart = parts.size() >= 7 ? wholeNumber(parts[6]).value_or(0) : 0;
        if (c.set != "dead" && c.set != "active" && c.set != "done" && c.set != "bin")
            c.set = "pending";
        if (c.scan.empty())
            c.scan = "0";
        return c;
    }
    std::string text() const
    {
        return std::to_string(shard) + "|" + set + "|" + scan + "|" + std::to_string(pass) + "|" +
               std::to_string(seen) + "|" + std::to_string(held) + "|" + std::to_string(passStart);
    }
};

// "FROM>TO" of shard_move.
std::pair<int, int> parseMove(const std::string& move)
{
    const size_t gt = move.find('>');
    if (gt == std::string::npos)
        return {1, 1};
    return {static_cast<int>(wholeNumber(move.substr(0, gt)).value_or(1)),
            static_cast<int>(wholeNumber(move.substr(gt + 1)).value_or(1))};
}

// The settings every shard keeps a copy of (its scripts read them there).
const char* const kCopiedSettings[] = {
    "max_attempts", "backoff",      "lease_ms",  "max_payload", "paused",         "audit_len",
    "history",      "rate",         "burst",     "cap",         "order",          "group_cap",
    "group_rate",   "dedup_window", "dedup_max", "dead_max",    "dead_max_bytes", "max_age",
    "expired_to",   "bin_keep",     "bin_max",   "bin_bytes"};

// Each shard keeps its own fair-order index and its share of a group's cap and rate
// (lua/claim.lua): a group cap, or a group rate's burst, below the shard count would leave a
// shard none of a group's slots or tokens. `shards`: the count claims divide by (every tag).
void refuseGroupShareBelow(const Reply& settings, size_t shards, const std::string& queue)
{
    for (size_t i = 0; i < std::size(kCopiedSettings) && i < settings.elements.size(); ++i) {
        const std::string field = kCopiedSettings[i];
        if ((field != "group_cap" && field != "group_rate") || settings.elements[i].isNil())
            continue;
        const std::string problem = groupShareProblem(field, settings.elements[i].str, shards);
        if (!problem.empty())
            throw Error(ErrorCode::InvalidArgument,
                        "cannot spread queue '" + queue + "' over " + std::to_string(shards) +
                            " shards: " + problem + "; change its " + field +
                            " first (delayq config " + queue + " " + field + " …)");
    }
}

// Each shard starts its share of the queue's cap (lua/claim.lua): with fewer slots than shards
// a shard's share would be 0 and its tasks would never start.
void refuseCapBelow(const Reply& settings, int count)
{
    for (size_t i = 0; i < std::size(kCopiedSettings) && i < settings.elements.size(); ++i) {
        if (std::string(kCopiedSettings[i]) != "cap")
            continue;
        const std::optional<long long> cap = wholeNumber(settings.elements[i].str);
        if (cap && *cap > 0 && *cap < count)
            throw Error(ErrorCode::InvalidArgument,
                        "the queue's cap is " + std::to_string(*cap) + ": each of " +
                            std::to_string(count) +
                            " shards needs at least one slot (raise the cap first)");
    }
}

// Each shard keeps its share of the queue's rate and burst (lua/claim.lua): a burst below the
// shard count would leave every shard less than one task, and none would ever start.
void refuseRateBelow(const Reply& settings, size_t shards, const std::string& queue)
{
    std::string rate, burst;
    for (size_t i = 0; i < std::size(kCopiedSettings) && i < settings.elements.size(); ++i) {
        if (std::string(kCopiedSettings[i]) == "rate")
            rate = settings.elements[i].str;
        if (std::string(kCopiedSettings[i]) == "burst")
            burst = settings.elements[i].str;
    }
    const std::string problem = rateShareProblem(rate, burst, shards, queue);
    if (!problem.empty())
        throw Error(ErrorCode::InvalidArgument, "cannot spread queue '" + queue + "' over " +
                                                    std::to_string(shards) + " shards: " +
                                                    problem + " first");
}

void keepOwnSettings(Queue& queue, const std::vector<Task>& tasks,
                     const std::vector<std::pair<std::string, std::string>>& kept,
                     const std::vector<PushResult::Status>& statuses)
{
    // The copies this step created take their own dedup window and debounce first push with
    // them (docs/design/keep.md, "Sharded queues"): pending ones, and dead ones too, since a
    // requeued task keeps both. Written after the import, while the source still holds the
    // task and before shard_release forgets them there (a worker that claims and acks the copy
    // within that one round trip finishes it with the queue's window). A copy an interrupted
    // step made (exists) is left as it is: it may be another push's task.
    std::map<std::string, std::vector<std::string>> hsets;
    const auto add = [&hsets](const std::string& key, const std::string& id,
                              const std::string& value) {
        if (value.empty())
            return;
        auto& hset = hsets[key];
        if (hset.empty())
            hset = {"HSET", key};
        hset.insert(hset.end(), {id, value});
    };
    for (size_t i = 0; i < tasks.size() && i < kept.size() && i < statuses.size(); ++i) {
        if (statuses[i] != PushResult::Status::Created)
            continue;
        // Its home, where TaskImport wrote it.
        const Keys& target =
            queue.shardKeys(static_cast<size_t>(queue.layout().homeOf(tasks[i].id)));
        add(target.dedupWindows(), tasks[i].id, kept[i].first);
        add(target.debounceStarts(), tasks[i].id, kept[i].second);
    }
    if (hsets.empty())
        return;
    std::vector<std::vector<std::string>> writes;
    for (auto& [key, hset] : hsets)
        writes.push_back(std::move(hset));
    throwFirstError(queue.connection().pipeline(writes));
}

} // namespace

ShardMover::ShardMover(Queue& queue) : m_queue(queue) {}

MoveProgress ShardMover::progress()
{
    const ShardLayout& layout = m_queue.reloadLayout();
    MoveProgress p;
    p.to = layout.count;
    p.from = layout.count;
    p.shards = static_cast<int>(layout.tags.size());
    p.moved = layout.moved;
    p.finished = !layout.moving();
    if (!p.finished) {
        p.from = parseMove(layout.move).first;
        const MoveCursor cursor = MoveCursor::parse(
            m_queue.connection().command({"HGET", m_queue.keys().config(), "shard_cursor"}).str);
        p.shard = static_cast<int>(cursor.shard);
        p.pass = cursor.pass;
    }
    return p;
}

MoveProgress ShardMover::start(int count)
{
    if (count < 1 || count > ShardLayout::kMaxShards)
        throw Error(ErrorCode::InvalidArgument, "a queue has 1 to " +
                                                    std::to_string(ShardLayout::kMaxShards) +
                                                    " shards, not " + std::to_string(count));
    if (m_queue.connection().options().readOnly)
        throw Error(ErrorCode::NoPermission,
                    "cannot reshard queue '" + m_queue.name() + "': this session is read-only");
    m_queue.requireCurrentLayout();
    const ShardLayout layout = m_queue.reloadLayout();
    if (layout.moving()) {
        const auto [from, to] = parseMove(layout.move);
        if (to == count)
            return progress();
        throw Error(ErrorCode::InvalidArgument,
                    "queue '" + m_queue.name() + "' is still moving its tasks from " +
                        std::to_string(from) + " to " + std::to_string(to) +
                        " shards: finish that first (delayq reshard " + m_queue.name() +
                        " --shards " + std::to_string(to) + ")");
    }
    if (count == layout.count)
        return progress();
    std::vector<std::string> tags = layout.tags;
    while (static_cast<int>(tags.size()) < count)
        tags.push_back(placeShard(tags));
    // New shards start with the queue's settings.
    Connection& connection = m_queue.connection();
    std::vector<std::string> read{"HMGET", m_queue.keys().config()};
    read.insert(read.end(), std::begin(kCopiedSettings), std::end(kCopiedSettings));
    const Reply settings = connection.command(read);
    refuseCapBelow(settings, count);
    refuseGroupShareBelow(settings, tags.size(), m_queue.name());
    refuseRateBelow(settings, tags.size(), m_queue.name());
    std::vector<std::vector<std::string>> writes;
    for (size_t s = layout.tags.size(); s < tags.size(); ++s) {
        std::vector<std::string> hset{
            "HSET", Keys(m_queue.keys().prefix(), m_queue.name(), tags[s]).config()};
        for (size_t i = 0; i < std::size(kCopiedSettings); ++i)
            if (i < settings.elements.size() && !settings.elements[i].isNil())
                hset.insert(hset.end(), {kCopiedSettings[i], settings.elements[i].str});
        if (hset.size() > 2)
            writes.push_back(std::move(hset));
    }
    // The dead bound is the queue's, each shard keeping its share (lua/common.lua's
    // dead_trim divides by dead_shards): every shard, old and new, learns the new count.
    for (const std::string& tag : tags)
        writes.push_back({"HSET", Keys(m_queue.keys().prefix(), m_queue.name(), tag).config(),
                          "dead_shards", std::to_string(count)});
    if (!writes.empty())
        throwFirstError(connection.pipeline(writes));
    ShardLayout next = layout;
    next.tags = tags;
    // One script: the check that no other change began meanwhile, the fields and the audit
    // entry together.
    const Reply started = connection.evalScript(scripts::shardLayout, m_queue.scriptKeys(),
                                                {std::to_string(count), next.tagsField(),
                                                 std::to_string(layout.count), m_queue.actorArg()});
    if (started.toInteger() != 1)
        return start(count); // another process got there first: judged again on what it wrote
    connection.command({"SADD", Keys::queues(m_queue.keys().prefix()), m_queue.name()});
    return progress();
}

std::string ShardMover::placeShard(const std::vector<std::string>& tags)
{
    const std::string base = m_queue.name() + "#" + std::to_string(tags.size());
    Connection& connection = m_queue.connection();
    connection.connect();
    if (!connection.isCluster())
        return base;
    const auto nodeOf = [&](const std::string& tag) {
        return connection.nodeForKey(Keys(m_queue.keys().prefix(), m_queue.name(), tag).config());
    };
    // The masters holding fewest of the queue's shards; the first tag whose slot one of them
    // serves.
    std::map<std::string, int> shardsOn;
    for (const auto& master : connection.masters())
        shardsOn[master] = 0;
    for (const auto& tag : tags)
        ++shardsOn[nodeOf(tag)];
    int fewest = tags.empty() ? 0 : static_cast<int>(tags.size());
    for (const auto& [master, n] : shardsOn)
        fewest = std::min(fewest, n);
    for (int salt = 0; salt < 1000; ++salt) {
        const std::string tag = salt == 0 ? base : base + "." + std::to_string(salt);
        if (shardsOn[nodeOf(tag)] == fewest)
            return tag;
    }
    return base;
}

MoveProgress ShardMover::step(int batch)
{
    if (batch < 1 || batch > static_cast<int>(TaskImport::kBatch))
        throw Error(ErrorCode::InvalidArgument, "a reshard step looks at 1 to 100 tasks");
    const ShardLayout layout = m_queue.reloadLayout();
    if (!layout.moving())
        return progress();
    Connection& connection = m_queue.connection();
    const Reply fields =
        connection.command({"HMGET", m_queue.keys().config(), "shard_cursor", "shard_since"});
    requireArray(fields, 2, "HMGET");
    MoveCursor cursor = MoveCursor::parse(fields.elements[0].str);
    const long long since = wholeNumber(fields.elements[1].str).value_or(0);
    // Nothing moves until every process's copy of the layout knows of the change (a copy is
    // read again once over a second old): until then a producer may push by the old layout to
    // a task's old home, which must still hold the task and its remembered id for the push to
    // see them. Moving sooner let a stale producer's nx push make a second, runnable copy, and
    // re-create an id remembered as done (the model check, with a push right after a start).
    if (const long long now = connection.serverNowMs(); now < since + kSettleMs) {
        MoveProgress waiting = progress();
        // Clamped as below: our clock is an estimate of the server's (Connection::serverNowMs)
        // and may lag it by a few ms, which would ask for more than the whole settle time.
        waiting.waitMs = std::clamp(since + kSettleMs - now, 1LL, kSettleMs);
        return waiting;
    }
    if (cursor.shard >= layout.tags.size())
        cursor = MoveCursor();
    if (cursor.shard == 0 && cursor.set == "pending" && cursor.scan == "0")
        cursor.passStart = connection.serverNowMs(); // a pass begins
    long long moved = 0;
    // Tasks an interrupted step took and did not release are finished first.
    const Reply noted = connection.command({"HKEYS", m_queue.shardKeys(cursor.shard).moving()});
    std::vector<std::string> notedIds;
    for (const auto& id : noted.elements)
        notedIds.push_back(id.str);
    moved += move(cursor.shard, notedIds);
    cursor.seen += static_cast<long long>(notedIds.size());
    // And recycle-bin entries it took and did not put in their home's bin (bin_take's hold).
    cursor.seen += carryBin(cursor.shard, {});

    const Keys& keys = m_queue.shardKeys(cursor.shard);
    const std::string set = cursor.set == "dead"     ? keys.dead()
                            : cursor.set == "active" ? keys.active()
                            : cursor.set == "done"   ? keys.recentlyDone()
                            : cursor.set == "bin"    ? keys.binAt()
                                                     : keys.pending();
    const Reply scan =
        connection.command({"ZSCAN", set, cursor.scan, "COUNT", std::to_string(batch)});
    requireArray(scan, 2, "ZSCAN");
    std::vector<std::string> misplaced;
    const auto& members = scan.elements[1].elements;
    for (size_t i = 0; i < members.size(); i += 2)
        if (static_cast<size_t>(layout.homeOf(members[i].str)) != cursor.shard)
            misplaced.push_back(members[i].str);
    cursor.seen += static_cast<long long>(misplaced.size());
    if (cursor.set == "active")
        // Held by a worker (the take's own holds were finished above): moved once its worker
        // acks, nacks or loses it; until then the reshard is not over.
        cursor.held += static_cast<long long>(misplaced.size());
    else if (cursor.set == "done")
        moveRecentlyDone(cursor.shard, members);
    else if (cursor.set == "bin")
        carryBin(cursor.shard, misplaced);
    else
        moved += move(cursor.shard, misplaced);

    cursor.scan = scan.elements[0].str;
    bool finished = false;
    long long waitMs = 0;
    long long heldInPass = 0;
    if (cursor.scan == "0") {
        if (cursor.set == "pending") {
            cursor.set = "active";
        } else if (cursor.set == "active") {
            cursor.set = "dead";
        } else if (cursor.set == "dead") {
            cursor.set = "done";
        } else if (cursor.set == "done") {
            cursor.set = "bin";
        } else if (cursor.shard + 1 < layout.tags.size()) {
            cursor.shard += 1;
            cursor.set = "pending";
        } else {
            // A pass is over. It is the last when it found no task outside its home and began
            // late enough that no producer still pushes by the old layout (a copy of the
            // layout is read again after a second): a stale producer's task, a task a worker
            // held through the pass and then nacked, lands where a later pass finds it.
            const long long now = connection.serverNowMs();
            finished = cursor.seen == 0 && cursor.passStart >= since + kSettleMs;
            if (!finished && cursor.seen == cursor.held)
                // Nothing could be moved: wait for the workers, or for the settle time.
                waitMs =
                    cursor.held > 0 ? kWaitMs : std::clamp(since + kSettleMs - now, 1LL, kSettleMs);
            heldInPass = cursor.held;
            cursor = MoveCursor{0, "pending", "0", cursor.pass + 1, 0, 0, 0};
        }
    }
    std::vector<std::vector<std::string>> writes{
        {"HINCRBY", m_queue.keys().config(), "shard_moved", std::to_string(moved)}};
    if (finished)
        writes.push_back(
            {"HDEL", m_queue.keys().config(), "shard_move", "shard_cursor", "shard_since"});
    else
        writes.push_back({"HSET", m_queue.keys().config(), "shard_cursor", cursor.text()});
    throwFirstError(connection.pipeline(writes));
    MoveProgress p = progress();
    p.waitMs = waitMs;
    p.held = heldInPass;
    return p;
}

void ShardMover::moveRecentlyDone(size_t shard, const std::vector<Reply>& members)
{
    // An id remembered as done (its dedup window) is refused by a push in its home shard
    // only: the entries of ids whose home is now elsewhere go there, keeping the later end
    // (GT). Written before deleted: an interrupted step leaves a copy, never none.
    const ShardLayout& layout = m_queue.layout();
    std::vector<std::vector<std::string>> writes;
    std::vector<std::string> gone{"ZREM", m_queue.shardKeys(shard).recentlyDone()};
    for (size_t i = 0; i + 1 < members.size(); i += 2) {
        const size_t home = static_cast<size_t>(layout.homeOf(members[i].str));
        if (home == shard)
            continue;
        writes.push_back({"ZADD", m_queue.shardKeys(home).recentlyDone(), "GT", members[i + 1].str,
                          members[i].str});
        gone.push_back(members[i].str);
    }
    if (writes.empty())
        return;
    throwFirstError(m_queue.connection().pipeline(writes));
    throwFirstError(m_queue.connection().pipeline({gone}));
}

long long ShardMover::carryBin(size_t shard, const std::vector<std::string>& ids)
{
    // A restore looks for an id's entry in its home shard only: an entry whose id's home is now
    // another shard goes there, as it was (docs/design/bin.md, "Resharding"). Taken out of this
    // shard's bin into a hold first (bin_take), then put in the home's bin (bin_put), then
    // forgotten here (bin_release): a step that dies midway leaves the entry held, and the
    // next step (ids empty: every held entry) puts it again, kept once. At no time is one
    // removal restorable in two shards.
    Connection& connection = m_queue.connection();
    const std::vector<std::string> keys = m_queue.shardQueue(shard).scriptKeys();
    const ShardLayout& layout = m_queue.layout();
    long long held = 0;
    const size_t rounds =
        ids.empty() ? 1 : (ids.size() + TaskImport::kBatch - 1) / TaskImport::kBatch;
    for (size_t round = 0; round < rounds; ++round) {
        std::vector<std::string> args{"0"};
        const size_t begin = round * TaskImport::kBatch;
        const size_t end = std::min(ids.size(), begin + TaskImport::kBatch);
        for (size_t i = begin; i < end; ++i)
            args.insert(args.end(), {ids[i], std::to_string(layout.homeOf(ids[i]))});
        args[0] = std::to_string((args.size() - 1) / 2);
        const Reply taken = connection.evalScript(scripts::binTake, keys, args);
        if (taken.elements.empty())
            continue;
        std::map<size_t, std::vector<std::string>> puts; // target shard -> bin_put's ARGV
        std::vector<std::string> release{"0"};
        for (const auto& entry : taken.elements) {
            requireArray(entry, 4, "bin_take");
            // A held entry's noted target may be an older layout's: its home is the current one.
            const size_t home = static_cast<size_t>(layout.homeOf(entry.elements[0].str));
            release.push_back(entry.elements[0].str);
            // (Home again after a change back: it goes back into this shard's bin.)
            auto& put = puts[home];
            if (put.empty())
                put.push_back("0");
            put.insert(put.end(),
                       {entry.elements[0].str, entry.elements[2].str, entry.elements[3].str});
        }
        for (auto& [target, put] : puts) {
            put[0] = std::to_string((put.size() - 1) / 3);
            connection.evalScript(scripts::binPut, m_queue.shardQueue(target).scriptKeys(), put);
        }
        release[0] = std::to_string(release.size() - 1);
        connection.evalScript(scripts::binRelease, keys, release);
        held += static_cast<long long>(taken.elements.size());
    }
    return held;
}

long long ShardMover::move(size_t shard, const std::vector<std::string>& ids)
{
    if (ids.empty())
        return 0;
    Connection& connection = m_queue.connection();
    Queue source = m_queue.shardQueue(shard);
    std::vector<std::string> keys = source.scriptKeys();
    keys.push_back(source.keys().moving());
    long long moved = 0;
    for (size_t begin = 0; begin < ids.size(); begin += TaskImport::kBatch) {
        const size_t end = std::min(ids.size(), begin + TaskImport::kBatch);
        std::vector<std::string> args{std::to_string(kHoldMs), randomToken(8),
                                      std::to_string(end - begin)};
        for (size_t i = begin; i < end; ++i)
            args.insert(args.end(), {ids[i], std::to_string(m_queue.layout().homeOf(ids[i]))});
        const Reply taken = connection.evalScript(scripts::shardTake, keys, args);
        std::vector<Task> tasks;
        // Each task's own dedup window and debounce first push ("" none): no field of Task
        // or of import_tasks carries them, so they are written below.
        std::vector<std::pair<std::string, std::string>> kept;
        for (const auto& entry : taken.elements) {
            requireArray(entry, 11, "shard_take");
            Task t;
            t.id = entry.elements[0].str;
            t.state = entry.elements[1].str;
            t.due = entry.elements[2].toInteger();
            t.score = t.due;
            const auto record = parseTaskRecord(entry.elements[3].str);
            if (record) {
                t.created = record->created;
                t.maxAttempts = record->maxAttempts;
                t.backoff = record->backoff;
                t.payload = record->payload;
            }
            t.attempts = static_cast<int>(entry.elements[4].toInteger());
            t.lastError = entry.elements[5].str;
            t.history = parseTaskEvents(entry.elements[6].str);
            // Its own start-by time travels with it ("0": never, whatever the max_age).
            if (const auto own = wholeNumber(entry.elements[7].str))
                t.expiresAt = *own;
            fillTags(t, entry.elements[8]); // and its fair-order tags, "" for none
            kept.emplace_back(entry.elements[9].str, entry.elements[10].str);
            tasks.push_back(std::move(t));
        }
        if (tasks.empty())
            continue;
        // Copied with "skip": a copy an interrupted step already made is kept as it is.
        const auto statuses = TaskImport(m_queue, false, false).importBatch(tasks);
        keepOwnSettings(m_queue, tasks, kept, statuses);
        std::vector<std::string> release{"0"};
        for (size_t i = 0; i < tasks.size(); ++i) {
            if (statuses[i] != PushResult::Status::Created &&
                statuses[i] != PushResult::Status::Exists)
                throw Error(ErrorCode::Protocol,
                            "moving task " + tasks[i].id + " to shard " +
                                std::to_string(m_queue.layout().homeOf(tasks[i].id)) +
                                " failed; it is held in shard " + std::to_string(shard) +
                                " until the move is resumed");
            release.push_back(tasks[i].id);
        }
        release[0] = std::to_string(release.size() - 1);
        moved += connection.evalScript(scripts::shardRelease, keys, release).toInteger();
    }
    return moved;
}

} // namespace delayq
