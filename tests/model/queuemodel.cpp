#include "queuemodel.h"

#include "records/recordreads.h"
#include "records/taskrecord.h"

#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/recyclebin.h>
#include <delayq/schedules.h>
#include <delayq/shardmover.h>
#include <delayq/taskimport.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <stdexcept>
#include <thread>

using namespace delayq;

namespace {

// What differed: thrown inside an op, caught by apply().
struct Mismatch : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

void expect(bool ok, const std::string& what)
{
    if (!ok)
        throw Mismatch(what);
}

std::string shortId(const std::string& id)
{
    return id.size() > 24 ? id.substr(0, 12) + "…(" + std::to_string(id.size()) + " bytes)" : id;
}

const char* statusName(IdResult::Status s)
{
    return idStatusName(s);
}

void sleepMs(long long ms)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// A whole number of a reply that may come as text (ZRANGE WITHSCORES) or as an integer.
long long number(const Reply& r)
{
    return r.type == Reply::Type::Integer ? r.toInteger() : wholeNumber(r.str).value_or(-1);
}

} // namespace

QueueModel::QueueModel(Connection& connection, const std::string& queue)
    : m_connection(connection), m_queue(connection, queue), m_plain(connection, queue + ":plain")
{
    for (int i = 0; i < 22; ++i)
        m_ids.push_back("o-" + std::to_string(i));
    m_ids.push_back(std::string(255, 'x') + "1");
    m_ids.push_back(std::string(255, 'y') + "2");
    m_queue.setConfig({{"max_attempts", std::to_string(kMaxAttempts)}, {"backoff", "100ms"}});
    // The queue starts in layout 2's buckets with an upgrade begun (upgrade ops move them), and
    // a table of one bucket splitting at every task beyond one a bucket: a run of two dozen
    // ids then meets every state of the record table (lua/buckets.lua).
    connection.command({"HSET", m_queue.keys().dataLayout(), "base", "1", "level", "0", "split",
                        "0", "load", "1", "migrated", "0"});
    m_schedule.name = "tick";
    m_schedule.everyMs = 1000;
    m_schedule.payload = "tick";
    m_schedule = Schedules(connection, queue).add(m_schedule).rule;
    m_nextFire = m_schedule.anchorMs;
}

std::string QueueModel::apply(const ModelOp& op)
{
    try {
        run(op);
        trace(op);
        verify();
    } catch (const Mismatch& m) {
        return m.what();
    } catch (const Error& e) {
        return std::string("unexpected error: ") + e.what();
    } catch (const std::runtime_error& e) {
        return e.what(); // the plain key's model
    }
    return {};
}

// DELAYQ_MODEL_TRACE=ID: after each op, what the model holds of that id (stderr), to follow
// one id through a failing run.
void QueueModel::trace(const ModelOp& op) const
{
    static const std::string id = qEnvironmentVariable("DELAYQ_MODEL_TRACE").toStdString();
    if (id.empty())
        return;
    const auto it = m_tasks.find(id);
    std::string state = it == m_tasks.end() ? "-" : it->second.state;
    if (it != m_tasks.end())
        state += std::string(it->second.ownWindow ? " own-window" : "") +
                 (it->second.follow ? " follow-up" : "") +
                 (it->second.expiresAt > 0 ? " expires" : "");
    std::fprintf(stderr, "trace %s: %s: %s%s, window %lld\n", id.c_str(), op.text().c_str(),
                 state.c_str(), m_finished.count(id) ? ", finished" : "", m_window);
}

void QueueModel::run(const ModelOp& op)
{
    using K = ModelOp::Kind;
    switch (op.kind) {
    case K::PushNx:
        push(op, false);
        break;
    case K::PushReplace:
        push(op, true);
        break;
    case K::Claim:
        claim(op);
        break;
    case K::Ack:
        ack(op);
        break;
    case K::Nack:
        nack(op);
        break;
    case K::Extend:
        extend(op);
        break;
    case K::Kill:
        kill(op);
        break;
    case K::Cancel:
    case K::Reschedule:
    case K::Requeue:
    case K::DeleteDead:
        byIds(op);
        break;
    case K::Purge:
        purge();
        break;
    case K::ReshardStart:
        reshardStart(op);
        break;
    case K::ReshardStep:
        reshardSteps(1 + static_cast<int>(op.b % 3), 1 + op.c % 20);
        break;
    case K::Import:
        import(op);
        break;
    case K::ScheduleTick:
        scheduleTick();
        break;
    case K::Pause:
        pauseOrResume();
        break;
    case K::Limit:
        limit(op);
        break;
    case K::Order:
        order(op);
        break;
    case K::PushDebounce:
        pushDebounce(op);
        break;
    case K::DedupWindow:
        dedupWindow(op);
        break;
    case K::DeadBound:
        deadBound(op);
        break;
    case K::Restore:
        restore(op);
        break;
    case K::Upgrade:
        upgrade(op);
        break;
    case K::PlainAdd:
    case K::PlainLease:
    case K::PlainSettle:
        m_plain.run(op);
        break;
    case K::Wait:
        sleepMs(op.c % 60);
        break;
    }
}

const std::string& QueueModel::pickId(uint32_t r) const
{
    return m_ids[r % m_ids.size()];
}

void QueueModel::push(const ModelOp& op, bool replace)
{
    const std::string& id = pickId(op.a);
    PushRequest request;
    request.id = id;
    request.payload = "v" + std::to_string(op.b % 1000);
    request.delayMs = op.c % 5 == 0 ? 0 : op.c % 400;
    request.replace = replace;
    request.dedupMs = op.b % 13 == 0 ? 3'600'000 : 0;
    // Now and then a start-by time a little after the due time: claims then come both before
    // and after it. Turned on, this found a reshard that dropped the time (a moved task ran
    // 481 ms after it), an import's replace that kept the old one, and a raised group cap
    // that left a group waiting.
    if (op.b % 17 == 3)
        request.expiresAtMs = m_connection.serverTimeMs() + request.delayMs + 150 + op.c % 300;
    // In fair order most pushes carry a group of three (or none) and a priority; now and then
    // one is tried on a queue in due order, which must refuse it and change nothing.
    const bool tagged = op.b % 7 != 0 && (m_flow.fair || op.b % 11 == 1);
    if (tagged) {
        static const char* const kGroups[] = {"", "tenant-a", "tenant-b", "o:42"};
        request.group = kGroups[(op.b / 7) % 4];
        request.priority = static_cast<int>((op.b / 29) % 5) - 2;
    }
    if (tagged && !m_flow.fair && (request.priority != 0 || !request.group.empty())) {
        PushResult r;
        try {
            r = m_queue.push(request);
        } catch (const Error& e) {
            expect(e.code() == ErrorCode::InvalidArgument, std::string("push: ") + e.what());
            return;
        }
        // During a reshard an nx push of an id its former home holds is answered there
        // (shard_displace) before push.lua reads the settings: exists, and nothing changed.
        expect(!replace && r.status == PushResult::Status::Exists && m_tasks.count(id) == 1,
               "push " + shortId(id) +
                   " with a group or priority was taken by a queue in due "
                   "order (" +
                   pushStatusName(r.status) + ")");
        return;
    }
    PushResult r;
    try {
        r = m_queue.push(request);
    } catch (const Error& e) {
        // A start-by time must come after the due time: a slow push can make it not.
        expect(request.expiresAtMs && e.code() == ErrorCode::InvalidArgument &&
                   *request.expiresAtMs <= m_connection.serverTimeMs() + request.delayMs,
               std::string("push: ") + e.what());
        return;
    }
    const auto it = m_tasks.find(id);
    const std::string what = std::string(replace ? "push replace " : "push nx ") + shortId(id);
    if (it == m_tasks.end() && !replace && refusedAsDone(id)) {
        expect(r.status == PushResult::Status::RecentlyDone,
               what + ": an id finished within its dedup window answered " +
                   pushStatusName(r.status));
        return;
    }
    if (it == m_tasks.end()) {
        expect(r.status == PushResult::Status::Created,
               what + ": a new id answered " + pushStatusName(r.status));
    } else if (!replace) {
        expect(r.status == PushResult::Status::Exists,
               what + ": an existing " + it->second.state + " task answered " +
                   pushStatusName(r.status) + " (nx must change nothing)");
        if (it->second.state == "pending")
            expect(r.due == it->second.due, what + ": exists with another due time");
        return;
    } else if (it->second.state == "active") {
        expect(r.status == PushResult::Status::Active,
               what + ": a task a worker holds answered " + pushStatusName(r.status));
        return;
    } else {
        expect(r.status == PushResult::Status::Replaced, what + ": an existing " +
                                                             it->second.state + " task answered " +
                                                             pushStatusName(r.status));
    }
    if (replace)
        m_finished.erase(id); // a replace overrides the window (and the former home's too)
    Task made{request.payload, "pending", r.due, 0, {}, -1, request.group, request.priority};
    made.ownWindow = request.dedupMs > 0;
    made.expiresAt = request.expiresAtMs.value_or(0);
    made.shard = static_cast<size_t>(m_queue.reloadLayout().homeOf(id));
    m_tasks[id] = made;
    count("pushed");
}

bool QueueModel::refusedAsDone(const std::string& id)
{
    // Wherever it finished: a reshard carries the remembered ids to their new home, and asks
    // the former home while it runs.
    return m_finished.count(id) == 1;
}

void QueueModel::remember(const std::string& id)
{
    const Task& m = m_tasks.at(id);
    if (m_window > 0 || m.ownWindow)
        m_finished[id] = m.shard;
}

void QueueModel::startFollowUp(const std::string& id)
{
    Task& m = m_tasks.at(id);
    const Task::FollowUp f = *m.follow;
    Task next{f.payload, "pending", f.due, 0, {}, -1};
    next.shard = m.shard;
    next.firstLo = f.firstLo;
    next.firstHi = f.firstHi;
    m = next;
}

void QueueModel::dedupWindow(const ModelOp& op)
{
    m_window = op.a % 2 == 0 ? 3'600'000 : 0;
    m_queue.setConfig("dedup_window", m_window > 0 ? "1h" : "off");
}

long long QueueModel::deadScore(const std::string& id)
{
    const ShardLayout& layout = m_queue.layout();
    std::vector<std::vector<std::string>> reads;
    for (size_t s = 0; s < layout.tags.size(); ++s)
        reads.push_back({"ZSCORE", m_queue.shardKeys(s).dead(), id});
    for (const Reply& r : m_connection.pipeline(reads))
        if (!r.isNil())
            return number(r);
    return 0;
}

void QueueModel::died(const std::string& id, long long at)
{
    Task& m = m_tasks.at(id);
    m.state = "dead";
    m.token.clear();
    m.worker = -1;
    m.diedAt = at;
    remember(id);
    deadTrim();
}

void QueueModel::deadTrim()
{
    if (m_deadMax <= 0)
        return;
    std::vector<std::pair<long long, std::string>> dead;
    for (const auto& [id, m] : m_tasks)
        if (m.state == "dead")
            dead.emplace_back(m.diedAt, id);
    std::sort(dead.begin(), dead.end());
    for (size_t i = 0; i + static_cast<size_t>(m_deadMax) < dead.size(); ++i) {
        m_tasks.erase(dead[i].second); // the oldest go, forgotten (not kept in the bin)
        count("dead_dropped");
    }
}

void QueueModel::deadBound(const ModelOp& op)
{
    static const long long kBounds[] = {2, 4, 100000};
    m_deadMax = kBounds[op.a % 3];
    m_queue.setConfig("dead_max", std::to_string(m_deadMax));
    deadTrim(); // a bound set lower takes effect at once
}

long long QueueModel::takeExpired(long long now)
{
    std::vector<std::string> candidates;
    for (const auto& [id, m] : m_tasks)
        if (m.state == "pending" && m.expiresAt > 0 && m.due <= now && m.expiresAt < now)
            candidates.push_back(id);
    // Which of them the claim met is the server's choice (in due order, as far as it looked):
    // each is still pending, or dead since this claim, or gone (dead, then dropped by the bound).
    const ShardLayout& layout = m_queue.layout();
    long long expired = 0;
    for (const auto& id : candidates) {
        std::vector<std::vector<std::string>> reads;
        for (size_t s = 0; s < layout.tags.size(); ++s) {
            reads.push_back({"ZSCORE", m_queue.shardKeys(s).pending(), id});
            reads.push_back({"ZSCORE", m_queue.shardKeys(s).active(), id});
        }
        bool waiting = false; // pending, or held by a reshard's move
        for (const Reply& r : m_connection.pipeline(reads))
            waiting = waiting || !r.isNil();
        if (waiting)
            continue;
        count("died");
        count("expired_unstarted");
        died(id, now);
        ++expired;
    }
    // (A task taken for expired before its start-by time would stay pending in the model and
    // be dead on the server: verify() reports it.)
    return expired;
}

void QueueModel::toBin(const std::string& id)
{
    const Task& m = m_tasks.at(id);
    BinEntry entry{m, m.shard};
    // What the bin keeps of it: a removal drops its own window, debounce start and follow-up.
    entry.task.ownWindow = false;
    entry.task.firstLo = entry.task.firstHi = 0;
    entry.task.follow.reset();
    entry.removal = ++m_removals;
    auto& entries = m_bin[id];
    for (auto& e : entries)
        if (e.shard == entry.shard) {
            e = entry; // the newest removal replaces the one before, shard by shard
            return;
        }
    entries.push_back(entry);
}

// One call of the upgrade (Queue::upgrade): moves some of layout 2's records into the table;
// verify() then finds every task where it was, with its payload.
void QueueModel::upgrade(const ModelOp& op)
{
    m_queue.upgrade(1 + static_cast<int>(op.c % 5), 1);
}

void QueueModel::restore(const ModelOp& op)
{
    RecycleBin bin(m_queue);
    const ShardLayout layout = m_queue.reloadLayout();
    const size_t shards = layout.tags.size();
    const bool all = op.c % 4 == 0;
    std::vector<std::string> ids;
    if (!all) {
        ids.push_back(pickId(op.a));
        if (op.b % 2 == 1)
            ids.push_back(pickId(op.a + 7919u));
        std::sort(ids.begin(), ids.end());
        ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    }
    if (layout.moving()) {
        // A restored task must land in its home: nothing is restored while homes move.
        try {
            all ? bin.restoreAll() : bin.restore(ids);
        } catch (const Error& e) {
            expect(e.code() == ErrorCode::InvalidArgument, std::string("restore: ") + e.what());
            return;
        }
        throw Mismatch("restore: taken while a reshard was under way");
    }
    // A reshard carries each entry to its id's home, and restore carries one it finds away
    // from home there first (design/bin.md): in the home the newest removal of an id wins.
    for (auto& [id, entries] : m_bin) {
        if (entries.empty())
            continue;
        auto newest = std::max_element(entries.begin(), entries.end(),
                                       [](const BinEntry& x, const BinEntry& y) {
                                           return x.removal < y.removal;
                                       });
        BinEntry kept = *newest;
        kept.shard = static_cast<size_t>(layout.homeOf(id));
        entries = {kept};
    }
    const std::vector<IdResult> got = all ? bin.restoreAll() : bin.restore(ids);
    std::set<std::pair<std::string, size_t>> answered; // entries this call answered for
    // What the model says of one answer: the first entry, by shard, not answered yet.
    auto settle = [&](const std::string& id, IdResult::Status status, const std::string& what) {
        auto found = m_bin.find(id);
        std::vector<BinEntry>* entries = found == m_bin.end() ? nullptr : &found->second;
        BinEntry* entry = nullptr;
        if (entries)
            for (auto& e : *entries)
                if (e.shard < shards && answered.count({id, e.shard}) == 0 &&
                    (!entry || e.shard < entry->shard))
                    entry = &e;
        IdResult::Status want = !entry                   ? IdResult::Status::NotFound
                                : m_tasks.count(id) == 1 ? IdResult::Status::Exists
                                                         : IdResult::Status::Done;
        std::string why;
        if (status != want && m_tasks.count(id) == 1) {
            const Task& m = m_tasks.at(id);
            why = " (model: " + m.state + " in shard " + std::to_string(m.shard) + ")";
        }
        expect(status == want, what + " " + shortId(id) + ": answered " + statusName(status) +
                                   ", the model says " + statusName(want) + why);
        if (!entry)
            return;
        answered.insert({id, entry->shard});
        if (want != IdResult::Status::Done)
            return;
        Task t = entry->task;
        t.shard = entry->shard;
        t.token.clear();
        t.worker = -1;
        t.groupSlot = false;
        const std::string state = t.state;
        entries->erase(entries->begin() + (entry - entries->data()));
        count("restored");
        m_tasks[id] = t;
        if (state == "dead") {
            died(id, t.diedAt);
        } else {
            m_tasks[id].state = "pending";
            if (state == "active")
                m_tasks[id].due = pendingScore(id); // due now
        }
    };
    if (!all) {
        expect(got.size() == ids.size(), "restore: a status per id");
        for (size_t i = 0; i < ids.size(); ++i)
            settle(ids[i], got[i].status, "restore");
        return;
    }
    // Everything: each entry a shard holds answers once.
    size_t entries = 0;
    for (const auto& [id, list] : m_bin)
        for (const auto& e : list)
            entries += e.shard < shards ? 1 : 0;
    expect(got.size() == entries, "restore all: " + std::to_string(got.size()) +
                                      " answers, the bin holds " + std::to_string(entries));
    for (const auto& r : got)
        settle(r.id, r.status, "restore all");
}

void QueueModel::pushDebounce(const ModelOp& op)
{
    const std::string& id = pickId(op.a);
    static const long long kWaits[] = {50, 200, 1000};
    PushRequest request;
    request.id = id;
    request.payload = "d" + std::to_string(op.b % 1000);
    request.delayMs = op.c % 5 == 0 ? 0 : op.c % 400;
    request.debounceMaxWaitMs = kWaits[op.b % 3];
    request.debouncePayload = (op.b / 3) % 2 == 1;
    const long long w = request.debounceMaxWaitMs, d = request.delayMs;
    const ShardLayout layout = m_queue.reloadLayout();
    // TIME itself around the push (serverNowMs is an estimate from the offset at connect).
    const long long lo = m_connection.serverTimeMs();
    const PushResult r = m_queue.push(request);
    const long long hi = m_connection.serverTimeMs();
    const std::string what = "push debounce " + shortId(id);
    const auto it = m_tasks.find(id);
    auto within = [&](long long from, long long to, const std::string& which) {
        expect(r.due >= from && r.due <= to,
               what + ": " + which + " due at " + std::to_string(r.due) + ", the model says " +
                   std::to_string(from) + ".." + std::to_string(to));
    };
    if (it == m_tasks.end()) {
        if (refusedAsDone(id)) {
            expect(r.status == PushResult::Status::RecentlyDone,
                   what + ": an id finished within its dedup window answered " +
                       pushStatusName(r.status));
            return;
        }
        expect(r.status == PushResult::Status::Created,
               what + ": a new id answered " + pushStatusName(r.status));
        within(lo + d, hi + d, "created");
        Task made{request.payload, "pending", r.due, 0, {}, -1};
        made.shard = static_cast<size_t>(layout.homeOf(id));
        made.firstLo = lo;
        made.firstHi = hi;
        m_tasks[id] = made;
        count("pushed");
        return;
    }
    Task& m = it->second;
    // During a reshard a task its former home still holds is answered there: exists.
    if (layout.moving() && static_cast<int>(m.shard) != layout.homeOf(id) &&
        r.status == PushResult::Status::Exists)
        return;
    if (m.state == "dead") {
        expect(r.status == PushResult::Status::Exists,
               what + ": a dead task answered " + pushStatusName(r.status));
        return;
    }
    if (m.state == "pending") {
        expect(r.status == PushResult::Status::Debounced,
               what + ": a pending task answered " + pushStatusName(r.status));
        if (m.firstLo == 0)
            m.firstLo = lo, m.firstHi = hi; // its first debounced push starts the wait
        within(std::max(m.due, std::min(lo + d, m.firstLo + w)),
               std::max(m.due, std::min(hi + d, m.firstHi + w)), "the moved task");
        m.due = r.due;
        if (request.debouncePayload)
            m.payload = request.payload;
        return;
    }
    expect(r.status == PushResult::Status::FollowUp,
           what + ": a task a worker holds answered " + pushStatusName(r.status));
    if (!m.follow) {
        within(std::min(lo + d, lo + w), std::min(hi + d, hi + w), "the new follow-up");
        m.follow = Task::FollowUp{request.payload, r.due, lo, hi};
        return;
    }
    Task::FollowUp& f = *m.follow;
    within(std::max(f.due, std::min(lo + d, f.firstLo + w)),
           std::max(f.due, std::min(hi + d, f.firstHi + w)), "the follow-up");
    f.due = r.due;
    if (request.debouncePayload)
        f.payload = request.payload;
}

void QueueModel::import(const ModelOp& op)
{
    const bool replace = op.c % 2 == 1;
    delayq::Task task;
    task.id = pickId(op.a);
    task.state = "pending";
    task.payload = "i" + std::to_string(op.b % 1000);
    task.due = m_connection.serverNowMs() + static_cast<long long>(op.c % 400);
    const PushResult::Status got = TaskImport(m_queue, replace).importBatch({task}).front();
    const auto it = m_tasks.find(task.id);
    PushResult::Status want = PushResult::Status::Created;
    if (it != m_tasks.end())
        want = !replace                       ? PushResult::Status::Exists
               : it->second.state == "active" ? PushResult::Status::Active
                                              : PushResult::Status::Replaced;
    expect(got == want, std::string(replace ? "import replace " : "import skip ") +
                            shortId(task.id) + ": answered " + pushStatusName(got) +
                            ", the model says " + pushStatusName(want));
    if (want == PushResult::Status::Created || want == PushResult::Status::Replaced)
    {
        Task made{task.payload, "pending", task.due, 0, {}, -1};
        made.shard = static_cast<size_t>(m_queue.reloadLayout().homeOf(task.id));
        m_tasks[task.id] = made;
    }
}

void QueueModel::claim(const ModelOp& op)
{
    const int worker = static_cast<int>(op.a % kWorkers);
    const int max = 1 + static_cast<int>(op.b % 4);
    const ShardLayout layout = m_queue.reloadLayout();
    const bool oneShard = layout.tags.size() == 1 && !layout.moving();
    if (!oneShard)
        m_flow.bucketKnown = false;
    else if (!m_flow.bucketKnown)
        resyncBucket();
    long long live = 0;
    for (const auto& [id, m] : m_tasks)
        live += m.state == "active" ? 1 : 0;
    const ClaimResult r = m_queue.claim(max, 60000, "w" + std::to_string(worker));
    m_now = std::max(m_now, r.serverNow);
    // An expired task the claim met counts toward nothing: it may so take fewer than allowed
    // with due tasks left (docs/protocol.md, claim), and then nothing is said of them.
    m_expiredInClaim = takeExpired(r.serverNow);
    long long due = 0;
    for (const auto& [id, m] : m_tasks)
        due += m.state == "pending" && m.due <= r.serverNow ? 1 : 0;
    const long long allowed =
        oneShard && m_flow.bucketKnown && !m_paused ? flowAllows(max, live, r.serverNow) : max;
    expect(static_cast<long long>(r.tasks.size()) <= allowed,
           "claim: handed out " + std::to_string(r.tasks.size()) +
               " tasks, the flow limits allow " + std::to_string(allowed));
    expect(r.paused == m_paused, std::string("claim: the queue answered ") +
                                     (r.paused ? "paused" : "running") + ", the model says " +
                                     (m_paused ? "paused" : "running"));
    expect(!m_paused || r.tasks.empty(), "claim: a paused queue handed out tasks");
    for (const auto& t : r.tasks) {
        const auto it = m_tasks.find(t.id);
        const std::string what = "claim by w" + std::to_string(worker) + " of " + shortId(t.id);
        expect(it != m_tasks.end(), what + ": the model has no such task");
        Task& m = it->second;
        expect(m.state == "pending",
               what + ": handed out while " + m.state + " (run twice, or run while dead)");
        expect(m.due <= r.serverNow, what + ": handed out " + std::to_string(m.due - r.serverNow) +
                                         " ms before it was due");
        expect(t.due == m.due, what + ": due " + std::to_string(t.due) + ", the model says " +
                                   std::to_string(m.due));
        expect(m.expiresAt == 0 || r.serverNow <= m.expiresAt,
               what + ": handed out " + std::to_string(r.serverNow - m.expiresAt) +
                   " ms after its start-by time");
        expect(t.payload == m.payload,
               what + ": payload '" + t.payload + "', the model says '" + m.payload + "'");
        expect(t.attempts == m.attempts + 1, what + ": attempt " + std::to_string(t.attempts) +
                                                 ", the model says " +
                                                 std::to_string(m.attempts + 1));
        m.state = "active";
        m.attempts = t.attempts;
        m.token = t.token;
        m.worker = worker;
        m.groupSlot = m_flow.fair && m_flow.groupCap > 0 && !m.group.empty();
        m.groupEpoch = m_groupEpoch;
        count("claimed");
    }
    if (m_flow.fair) {
        checkFairClaim(r, allowed, oneShard);
        // One shard: a claim that took fewer than the limits allowed left nothing due behind.
    } else if (static_cast<long long>(r.tasks.size()) < allowed && !m_paused && oneShard &&
               m_flow.bucketKnown && m_expiredInClaim == 0)
        for (const auto& [id, m] : m_tasks)
            expect(!(m.state == "pending" && m.due <= r.serverNow),
                   "claim: " + shortId(id) + " was due and not handed out");
    checkFlowAfterClaim(r, oneShard && m_flow.bucketKnown && !m_paused ? allowed : -1,
                        allowed < max, due);
}

void QueueModel::resyncBucket()
{
    // Back on one shard after a sharded spell, whose claims the model did not follow shard by
    // shard: the bucket is taken as the server keeps it (dq:{Q}:flow, lua/common.lua), and
    // followed exactly from here.
    std::string key = m_queue.keys().config();
    key.replace(key.size() - std::string("config").size(), std::string::npos, "flow");
    const Reply state = m_connection.command({"HMGET", key, "tokens", "at"});
    m_flow.bucketSet = !state.elements.at(0).isNil() && !state.elements.at(1).isNil();
    if (m_flow.bucketSet) {
        m_flow.tokens = std::stod(state.elements[0].str);
        m_flow.at = std::stoll(state.elements[1].str);
    }
    m_flow.bucketKnown = true;
}

long long QueueModel::flowAllows(long long max, long long live, long long now)
{
    long long allowed = max;
    if (m_flow.cap > 0)
        allowed = std::min(allowed, m_flow.cap - live);
    if (m_flow.rateTasks > 0) {
        // The same arithmetic as claim.lua, in the same order: the doubles agree to the bit.
        const double burst =
            static_cast<double>(m_flow.burst > 0 ? m_flow.burst : m_flow.rateTasks);
        const double speed =
            static_cast<double>(m_flow.rateTasks) / static_cast<double>(m_flow.rateMs) / 1.0;
        double tokens = burst;
        if (m_flow.bucketSet && now > m_flow.at)
            tokens = m_flow.tokens + static_cast<double>(now - m_flow.at) * speed;
        else if (m_flow.bucketSet)
            tokens = m_flow.tokens;
        // claim.lua writes the bucket back only when it hands out tasks (checkFlowAfterClaim).
        m_flow.nowTokens = std::min(tokens, burst);
        allowed = std::min(allowed, static_cast<long long>(std::floor(m_flow.nowTokens)));
    }
    return std::max(0LL, allowed);
}

void QueueModel::checkFlowAfterClaim(const ClaimResult& r, long long allowed, bool limited,
                                     long long due)
{
    const long long took = static_cast<long long>(r.tasks.size());
    if (m_flow.rateTasks > 0) {
        // On any layout: since the rate (or the shards) last changed, no more started than the
        // burst and the rate since then allow; every shard's share adds up to the queue's.
        m_flow.started += took;
        const double burst =
            static_cast<double>(m_flow.burst > 0 ? m_flow.burst : m_flow.rateTasks);
        const double most = burst + static_cast<double>(r.serverNow - m_flow.since) *
                                        static_cast<double>(m_flow.rateTasks) /
                                        static_cast<double>(m_flow.rateMs);
        expect(static_cast<double>(m_flow.started) <= most + 1e-6,
               "claim: " + std::to_string(m_flow.started) + " tasks started in " +
                   std::to_string(r.serverNow - m_flow.since) + " ms under a rate of " +
                   std::to_string(m_flow.rateTasks) + "/" + std::to_string(m_flow.rateMs) +
                   " ms with a burst of " + std::to_string(static_cast<long long>(burst)));
    }
    const double tokensLeft = m_flow.nowTokens - static_cast<double>(took);
    // claim.lua writes the bucket back whenever it met due tasks, also when all it met had
    // expired (none handed out): so does the model, or the two sums of the refill, split at
    // that claim or not, could round apart by a bit (seed 49: "handed out 1, allow 0").
    if (allowed >= 0 && m_flow.rateTasks > 0 && (took > 0 || m_expiredInClaim > 0)) {
        m_flow.tokens = tokensLeft;
        m_flow.at = r.serverNow;
        m_flow.bucketSet = true;
    }
    // Held back: due tasks left only because of a limit must come with when the next may start.
    if (allowed >= 0 && limited && due > took && took == allowed && !m_paused) {
        expect(r.nextDue && *r.nextDue > r.serverNow,
               "claim: " + std::to_string(due - took) +
                   " due tasks held back by the limits, and the claim said to come back now");
        const bool capFull = m_flow.cap > 0;
        if (m_flow.rateTasks > 0 && tokensLeft < 1 && !capFull) {
            const double speed =
                static_cast<double>(m_flow.rateTasks) / static_cast<double>(m_flow.rateMs) / 1.0;
            const long long next =
                r.serverNow + static_cast<long long>(std::ceil((1 - tokensLeft) / speed));
            expect(*r.nextDue == next, "claim: held by the rate, next start " +
                                           std::to_string(*r.nextDue - r.serverNow) +
                                           " ms away, the model says " +
                                           std::to_string(next - r.serverNow));
        }
    }
    if (m_flow.cap <= 0 || r.tasks.empty())
        return;
    // The shard that handed them out is within its share of the cap (lua/claim.lua).
    const ShardLayout layout = m_queue.reloadLayout();
    const std::string& token = r.tasks.front().token;
    size_t shard = 0;
    if (token.size() > 2 && token[0] == 's')
        shard = std::stoul(token.substr(1, token.find('.') - 1));
    const long long shards = static_cast<long long>(layout.tags.size());
    const long long k = static_cast<long long>(shard);
    const long long share = m_flow.cap / shards + (k < m_flow.cap % shards ? 1 : 0);
    const Reply live = m_connection.command(
        {"ZCOUNT", m_queue.shardKeys(shard).active(), "(" + std::to_string(r.serverNow), "+inf"});
    expect(live.toInteger() <= share, "claim: shard " + std::to_string(shard) + " now runs " +
                                          std::to_string(live.toInteger()) +
                                          " tasks, over its share " + std::to_string(share) +
                                          " of the cap " + std::to_string(m_flow.cap));
}

void QueueModel::checkFairClaim(const ClaimResult& r, long long allowed, bool oneShard)
{
    // Running tasks holding a slot of their group (claimed under a cap), after this claim.
    // On several shards each keeps its share of the cap: the tasks claimed since the last
    // reshard or change of the cap add up to at most the cap (docs/design/flow.md).
    std::map<std::string, long long> held;
    for (const auto& [id, m] : m_tasks)
        if (m.state == "active" && m.groupSlot && (oneShard || m.groupEpoch == m_groupEpoch))
            ++held[m.group];
    auto full = [&](const std::string& group) {
        return !group.empty() && m_flow.groupCap > 0 && held[group] >= m_flow.groupCap;
    };
    // Only a group this claim gave tasks to: tasks already running when the cap was lowered
    // finish (docs/design/flow.md), so a group may hold more than a lowered cap until then.
    std::set<std::string> given;
    for (const auto& t : r.tasks)
        given.insert(m_tasks.at(t.id).group);
    for (const auto& [group, n] : held)
        expect(m_flow.groupCap <= 0 || n <= m_flow.groupCap || given.count(group) == 0,
               "claim: group '" + group + "' runs " + std::to_string(n) +
                   " tasks under a group cap of " + std::to_string(m_flow.groupCap));
    // On several shards a claim serves one shard's groups: the tasks of the others' wait
    // their turn, so what follows holds only on one.
    if (!oneShard)
        return;
    // (priority high first, then due early) of the tasks handed out, per group: the worst.
    std::map<std::string, std::pair<int, long long>> worst;
    for (const auto& t : r.tasks) {
        const Task& m = m_tasks.at(t.id);
        const auto rank = std::make_pair(-m.priority, m.due);
        auto it = worst.find(m.group);
        if (it == worst.end() || it->second < rank)
            worst[m.group] = rank;
    }
    const bool tookAll =
        static_cast<long long>(r.tasks.size()) < allowed && !m_paused && m_expiredInClaim == 0;
    for (const auto& [id, m] : m_tasks) {
        if (m.state != "pending" || m.due > r.serverNow)
            continue;
        const auto it = worst.find(m.group);
        expect(it == worst.end() || !(std::make_pair(-m.priority, m.due) < it->second),
               "claim: " + shortId(id) + " (priority " + std::to_string(m.priority) +
                   ") was passed over for a task of its group '" + m.group +
                   "' that ranks after it");
        expect(!tookAll || full(m.group), "claim: " + shortId(id) + " of group '" + m.group +
                                              "' was due, its group not full, and not handed out");
    }
}

void QueueModel::order(const ModelOp& op)
{
    // due; fair; fair with a group cap of 1; fair with 2.
    const int pick = static_cast<int>(op.a % 4);
    const bool fair = pick > 0;
    const long long groupCap = pick > 1 ? pick - 1 : 0;
    const std::vector<std::pair<std::string, std::string>> values = {
        {"order", fair ? "fair" : "due"},
        {"group_cap", groupCap > 0 ? std::to_string(groupCap) : "off"}};
    // Each shard keeps its share of a group cap (docs/design/flow.md): a cap below the number
    // of shards cannot be shared out, and is refused.
    const ShardLayout layout = m_queue.reloadLayout();
    const auto shards = static_cast<long long>(layout.tags.size());
    if (fair && groupCap > 0 && groupCap < shards) {
        try {
            m_queue.setConfig(values);
        } catch (const Error& e) {
            expect(e.code() == ErrorCode::InvalidArgument, std::string("order: ") + e.what());
            return;
        }
        throw Mismatch("order: a group cap of " + std::to_string(groupCap) +
                       " was taken by a queue of " + std::to_string(shards) + " shards");
    }
    m_queue.setConfig(values);
    // The index goes with due order, and with it what the running tasks held; a cap set
    // anew counts the slots of the tasks claimed under the one before, unless it was off.
    if (!fair || groupCap == 0) // no cap, no slots: config.lua drops them
        for (auto& [id, m] : m_tasks)
            m.groupSlot = false;
    m_flow.fair = fair;
    m_flow.groupCap = groupCap;
    ++m_groupEpoch;
}

void QueueModel::restartRateWindow(long long since)
{
    m_flow.since = since;
    m_flow.started = 0;
}

void QueueModel::limit(const ModelOp& op)
{
    struct Setting
    {
        long long cap, rateTasks, rateMs, burst;
    };
    static const Setting kSettings[] = {{0, 0, 0, 0},    {1, 0, 0, 0},    {3, 0, 0, 0},
                                        {0, 2, 1000, 3}, {0, 1, 2000, 1}, {2, 5, 500, 2}};
    const Setting& want = kSettings[op.a % std::size(kSettings)];
    auto text = [](long long n) { return n > 0 ? std::to_string(n) : std::string("off"); };
    const std::vector<std::pair<std::string, std::string>> values = {
        {"cap", text(want.cap)},
        {"rate", want.rateTasks > 0
                     ? std::to_string(want.rateTasks) + "/" + std::to_string(want.rateMs) + "ms"
                     : "off"},
        {"burst", text(want.burst)}};
    const long long shards = static_cast<long long>(m_queue.reloadLayout().tags.size());
    // Each shard keeps its share of the cap and of the rate's burst: less than one a shard is
    // refused (docs/design/flow.md).
    const long long burst = want.burst > 0 ? want.burst : want.rateTasks;
    if ((want.cap > 0 && want.cap < shards) || (want.rateTasks > 0 && burst < shards)) {
        try {
            m_queue.setConfig(values);
        } catch (const Error& e) {
            expect(e.code() == ErrorCode::InvalidArgument, std::string("limit: ") + e.what());
            return;
        }
        throw Mismatch("limit: a cap of " + std::to_string(want.cap) + " and a burst of " +
                       std::to_string(burst) + " on " + std::to_string(shards) +
                       " shards were taken");
    }
    // The server's own clock (TIME), not the estimate from the local one: an estimate 1 ms
    // ahead made a claim look like it started 2 tasks "in -1 ms".
    const long long before = m_connection.serverTimeMs();
    m_queue.setConfig(values);
    restartRateWindow(before);
    m_flow.cap = want.cap;
    m_flow.rateTasks = want.rateTasks;
    m_flow.rateMs = want.rateMs;
    m_flow.burst = want.burst;
}

std::vector<QueueModel::Pair> QueueModel::pairsOf(int worker) const
{
    std::vector<Pair> pairs;
    for (const auto& [id, m] : m_tasks)
        if (m.state == "active" && m.worker == worker)
            pairs.emplace_back(id, m.token);
    pairs.insert(pairs.end(), m_lost[worker].begin(), m_lost[worker].end());
    return pairs;
}

bool QueueModel::holds(const Pair& pair) const
{
    const auto it = m_tasks.find(pair.first);
    return it != m_tasks.end() && it->second.state == "active" && it->second.token == pair.second;
}

void QueueModel::lose(const std::string& id)
{
    Task& m = m_tasks.at(id);
    if (m.state == "active" && m.worker >= 0)
        m_lost[m.worker].emplace_back(id, m.token);
    m.token.clear();
    m.worker = -1;
}

void QueueModel::ack(const ModelOp& op)
{
    const int worker = static_cast<int>(op.a % kWorkers);
    const auto all = pairsOf(worker);
    std::vector<Pair> chosen;
    for (size_t i = 0; i < all.size(); ++i)
        if ((op.b >> (i % 32)) & 1)
            chosen.push_back(all[i]);
    if (chosen.empty())
        return;
    std::vector<bool> expected;
    std::set<std::string> once; // an id given twice is acked once
    for (const auto& p : chosen)
        expected.push_back(holds(p) && once.insert(p.first).second);
    const std::vector<bool> got = m_queue.ack(chosen);
    expect(got.size() == chosen.size(), "ack: a reply per pair");
    for (size_t i = 0; i < chosen.size(); ++i) {
        expect(got[i] == expected[i], "ack by w" + std::to_string(worker) + " of " +
                                          shortId(chosen[i].first) + ": answered " +
                                          (got[i] ? "acked" : "lease lost") + ", the model says " +
                                          (expected[i] ? "acked" : "lease lost"));
        if (got[i]) {
            const std::string& id = chosen[i].first;
            remember(id);
            count("acked");
            if (m_tasks.at(id).follow) {
                startFollowUp(id);
                count("pushed");
            } else {
                m_tasks.erase(id);
            }
        }
    }
}

std::optional<QueueModel::Pair> QueueModel::pickPair(const ModelOp& op) const
{
    const auto all = pairsOf(static_cast<int>(op.a % kWorkers));
    if (all.empty())
        return std::nullopt;
    return all[op.b % all.size()];
}

void QueueModel::nack(const ModelOp& op)
{
    const int worker = static_cast<int>(op.a % kWorkers);
    const auto picked = pickPair(op);
    if (!picked)
        return;
    const Pair pair = *picked;
    const int how = static_cast<int>(op.c % 4);
    const long long delay = how == 0 ? -1 : how == 1 ? Queue::kNackDeadNow : op.c % 300;
    const std::string what = "nack by w" + std::to_string(worker) + " of " + shortId(pair.first);
    if (!holds(pair)) {
        try {
            m_queue.nack(pair.first, pair.second, "failed", delay);
        } catch (const Error& e) {
            expect(e.code() == ErrorCode::LeaseLost, what + ": " + e.what());
            return;
        }
        throw Mismatch(what + ": taken with a lease the worker lost");
    }
    const NackResult r = m_queue.nack(pair.first, pair.second, "failed", delay);
    Task& m = m_tasks.at(pair.first);
    if (m.follow) {
        // Its follow-up takes its place, whether it would have retried or died.
        expect(!r.dead && r.when == m.follow->due,
               what + ": " + (r.dead ? "dead" : "retry at " + std::to_string(r.when)) +
                   ", the model says its follow-up, due " + std::to_string(m.follow->due));
        startFollowUp(pair.first);
        count("retried");
        return;
    }
    const bool dies = delay == Queue::kNackDeadNow || m.attempts >= kMaxAttempts;
    expect(r.dead == dies, what + ": " + (r.dead ? "dead" : "retry") + ", the model says " +
                               (dies ? "dead" : "retry"));
    m.token.clear();
    m.worker = -1;
    if (dies) {
        count("died");
        died(pair.first, r.when);
    } else {
        m.state = "pending";
        m.due = r.when;
        count("retried");
    }
}

void QueueModel::extend(const ModelOp& op)
{
    const int worker = static_cast<int>(op.a % kWorkers);
    const auto picked = pickPair(op);
    if (!picked)
        return;
    const Pair pair = *picked;
    const auto got = m_queue.extend(std::vector<Pair>{pair}, 60000);
    expect(got.size() == 1 && got[0].has_value() == holds(pair),
           "extend by w" + std::to_string(worker) + " of " + shortId(pair.first) + ": " +
               (got.at(0) ? "renewed" : "lease lost") + ", the model says " +
               (holds(pair) ? "renewed" : "lease lost"));
}

void QueueModel::kill(const ModelOp& op)
{
    const int worker = static_cast<int>(op.a % kWorkers);
    std::vector<Pair> held;
    for (const auto& p : pairsOf(worker))
        if (holds(p))
            held.push_back(p);
    if (held.empty())
        return;
    // Its leases run out (1 ms left), then a reap takes them back.
    for (const auto& deadline : m_queue.extend(held, 1))
        expect(deadline.has_value(), "kill: a held lease could not be shortened");
    sleepMs(5);
    int requeued = 0, spent = 0;
    for (const auto& p : held) {
        const Task& m = m_tasks.at(p.first);
        (m.attempts >= kMaxAttempts && !m.follow ? spent : requeued)++;
    }
    const ReapResult r = m_queue.reap(1000);
    expect(r.requeued == requeued && r.dead == spent,
           "reap after w" + std::to_string(worker) + " died: " + std::to_string(r.requeued) +
               " requeued and " + std::to_string(r.dead) + " dead, the model says " +
               std::to_string(requeued) + " and " + std::to_string(spent));
    count("expired", static_cast<long long>(held.size()));
    count("died", spent);
    // Every task a reap kills dies at the reap's now: read from one the bound did not drop.
    long long reapedAt = m_connection.serverTimeMs();
    for (const auto& p : held)
        if (const long long at = deadScore(p.first); at > 0)
            reapedAt = at;
    for (const auto& p : held) {
        lose(p.first);
        Task& m = m_tasks.at(p.first);
        if (m.follow) {
            startFollowUp(p.first);
            continue;
        }
        if (m.attempts >= kMaxAttempts) {
            died(p.first, reapedAt);
            continue;
        }
        m.state = "pending";
        m.due = pendingScore(p.first);
    }
}

void QueueModel::byIds(const ModelOp& op)
{
    std::vector<std::string> ids;
    for (int i = 0; i < 3; ++i)
        if ((op.b >> i) & 1 || ids.empty())
            ids.push_back(pickId(op.a + static_cast<uint32_t>(i) * 7919u));
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    using K = ModelOp::Kind;
    using S = IdResult::Status;
    const bool force = op.c % 3 == 0;
    const long long at = m_now + static_cast<long long>(op.c % 500);
    std::vector<IdResult> got;
    std::string what;
    switch (op.kind) {
    case K::Cancel:
        got = m_queue.cancel(ids, force);
        what = force ? "cancel --force" : "cancel";
        break;
    case K::Reschedule:
        got = m_queue.reschedule(ids, at);
        what = "reschedule";
        break;
    case K::Requeue:
        got = m_queue.requeue(ids);
        what = "requeue";
        break;
    default:
        got = m_queue.deleteDead(ids);
        what = "delete dead";
        break;
    }
    expect(got.size() == ids.size(), what + ": a status per id");
    for (size_t i = 0; i < ids.size(); ++i) {
        const auto it = m_tasks.find(ids[i]);
        const std::string state = it == m_tasks.end() ? "" : it->second.state;
        S want = state == ""         ? S::NotFound
                 : state == "active" ? S::Active
                 : state == "dead"   ? S::Dead
                                     : S::Pending;
        // Each acts on one set; it answers done there.
        if ((op.kind == K::Cancel && (state == "pending" || (state == "active" && force))) ||
            (op.kind == K::Reschedule && state == "pending") ||
            ((op.kind == K::Requeue || op.kind == K::DeleteDead) && state == "dead"))
            want = S::Done;
        expect(got[i].status == want, what + " " + shortId(ids[i]) + " (" +
                                          (state.empty() ? "absent" : state) + "): answered " +
                                          statusName(got[i].status) + ", the model says " +
                                          statusName(want));
        if (want != S::Done)
            continue;
        if (op.kind == K::Cancel) {
            toBin(ids[i]);
            lose(ids[i]);
            m_tasks.erase(ids[i]);
            count("cancelled");
        } else if (op.kind == K::Reschedule) {
            it->second.due = at;
        } else if (op.kind == K::Requeue) {
            it->second.state = "pending";
            it->second.attempts = 0;
            it->second.due = pendingScore(ids[i]);
            it->second.expiresAt = 0; // a requeued task starts whenever it can
        } else {
            toBin(ids[i]);
            m_tasks.erase(ids[i]);
        }
    }
}

void QueueModel::purge()
{
    const BulkResult r = m_queue.purge(200);
    expect(r.done == static_cast<long long>(m_tasks.size()) && r.remaining == 0,
           "purge: deleted " + std::to_string(r.done) + ", the model has " +
               std::to_string(m_tasks.size()));
    for (auto& [id, m] : m_tasks) {
        toBin(id);
        if (m.state == "active")
            lose(id);
    }
    m_tasks.clear();
}

void QueueModel::reshardStart(const ModelOp& op)
{
    const int count = 1 + static_cast<int>(op.a % 3);
    ShardMover mover(m_queue);
    const MoveProgress now = mover.progress();
    const ShardLayout layout = m_queue.reloadLayout();
    // The shares of the rate and group cap divide by every tag, retired ones too.
    const long long tagsAfter = std::max(static_cast<long long>(layout.tags.size()),
                                         static_cast<long long>(count));
    const long long burst = m_flow.burst > 0 ? m_flow.burst : m_flow.rateTasks;
    if (now.finished && count != static_cast<int>(layout.tags.size()) &&
        ((m_flow.cap > 0 && m_flow.cap < count) || (m_flow.rateTasks > 0 && burst < tagsAfter) ||
         (m_flow.fair && m_flow.groupCap > 0 && m_flow.groupCap < tagsAfter))) {
        try {
            mover.start(count);
        } catch (const Error& e) {
            expect(e.code() == ErrorCode::InvalidArgument, std::string("reshard: ") + e.what());
            return;
        }
        throw Mismatch("reshard to " + std::to_string(count) +
                       " shards was started with a cap of " + std::to_string(m_flow.cap) +
                       (m_flow.fair ? " and a group cap of " + std::to_string(m_flow.groupCap)
                                    : std::string()));
    }
    if (!now.finished && now.to != count) {
        try {
            mover.start(count);
        } catch (const Error& e) {
            expect(e.code() == ErrorCode::InvalidArgument, std::string("reshard: ") + e.what());
            return;
        }
        throw Mismatch("reshard to " + std::to_string(count) +
                       " was started while another change was under way");
    }
    const long long before = m_connection.serverTimeMs(); // the server's clock, as above
    if (mover.start(count).to == count && count != static_cast<int>(layout.tags.size())) {
        restartRateWindow(before); // new shards start with full buckets of their share
        ++m_groupEpoch;
    }
}

void QueueModel::reshardSteps(int steps, int batch)
{
    ShardMover mover(m_queue);
    for (int i = 0; i < steps; ++i)
        if (mover.step(batch).finished)
            break;
}

void QueueModel::scheduleTick()
{
    const Schedules::TickResult r = Schedules(m_connection, m_queue.name()).tick();
    std::vector<long long> fires;
    for (long long f = m_nextFire; f <= r.serverNow && fires.size() < 100; f += m_schedule.everyMs)
        fires.push_back(f);
    expect(r.made == static_cast<long long>(fires.size()) && r.skipped == 0,
           "schedule tick: made " + std::to_string(r.made) + " and skipped " +
               std::to_string(r.skipped) + ", the model says " + std::to_string(fires.size()) +
               " and 0");
    for (long long f : fires) {
        const std::string id = m_schedule.taskId(f);
        expect(m_tasks.count(id) == 0, "schedule tick: fire " + id + " made twice");
        m_tasks[id] = Task{"tick", "pending", f, 0, {}, -1};
        count("pushed");
    }
    if (!fires.empty())
        m_nextFire = fires.back() + m_schedule.everyMs;
}

void QueueModel::pauseOrResume()
{
    m_paused = !m_paused;
    m_queue.setConfig("paused", m_paused ? "1" : "0");
}

long long QueueModel::pendingScore(const std::string& id)
{
    const size_t shards = m_queue.reloadLayout().tags.size();
    for (size_t s = 0; s < shards; ++s) {
        const Reply r = m_connection.command({"ZSCORE", m_queue.shardKeys(s).pending(), id});
        if (!r.isNil())
            return number(r);
    }
    throw Mismatch("requeued or reaped " + shortId(id) + " is not pending");
}

std::string QueueModel::drain()
{
    // Rounds of: every lease acked (a reshard waits for tasks workers hold outside their
    // home), the reshard stepped, the pending tasks left to fall due and claimed. Every task
    // must come out exactly once, and the reshard must finish.
    try {
        if (m_paused)
            pauseOrResume();
        limit({ModelOp::Kind::Limit, 0, 0, 0}); // no limits: every task comes out promptly
        ShardMover mover(m_queue);
        for (int round = 0; round < 400; ++round) {
            for (int w = 0; w < kWorkers; ++w)
                ack({ModelOp::Kind::Ack, static_cast<uint32_t>(w), 0xffffffffu, 0});
            verify();
            for (int i = 0; i < 50 && !mover.step(100).finished; ++i) {
            }
            verify();
            long long latest = 0;
            bool pending = false;
            for (const auto& [id, m] : m_tasks)
                if (m.state == "pending") {
                    latest = std::max(latest, m.due);
                    pending = true;
                }
            if (!pending && mover.progress().finished)
                break;
            sleepMs(std::clamp(latest - m_connection.serverNowMs(), 0LL, 500LL) + 5);
            claim({ModelOp::Kind::Claim, static_cast<uint32_t>(round), 3, 0});
            verify();
        }
        expect(mover.progress().finished, "drain: the reshard did not finish");
        for (const auto& [id, m] : m_tasks)
            expect(m.state == "dead", "drain: " + shortId(id) + " is still " + m.state);
    } catch (const Mismatch& m) {
        return m.what();
    } catch (const Error& e) {
        return std::string("unexpected error: ") + e.what();
    }
    return {};
}

void QueueModel::verify()
{
    const ShardLayout layout = m_queue.reloadLayout();
    struct Place
    {
        size_t shard;
        std::string set;
        long long score;
    };
    std::map<std::string, std::vector<Place>> places;
    std::map<std::string, RunEntry> runs;
    std::map<std::string, long long> heldForMove; // id -> the due time its move noted
    std::vector<std::vector<std::string>> reads;
    for (size_t s = 0; s < layout.tags.size(); ++s) {
        const Keys& k = m_queue.shardKeys(s);
        reads.push_back({"ZRANGE", k.pending(), "0", "-1", "WITHSCORES"});
        reads.push_back({"ZRANGE", k.active(), "0", "-1", "WITHSCORES"});
        reads.push_back({"ZRANGE", k.dead(), "0", "-1", "WITHSCORES"});
        reads.push_back({"HGETALL", k.run()});
        reads.push_back({"HGETALL", k.moving()});
    }
    const std::vector<Reply> replies = m_connection.pipeline(reads);
    const char* const sets[] = {"pending", "active", "dead"};
    for (size_t s = 0; s < layout.tags.size(); ++s) {
        for (int set = 0; set < 3; ++set) {
            const auto& flat = replies[s * 5 + static_cast<size_t>(set)].elements;
            for (size_t i = 0; i + 1 < flat.size(); i += 2)
                places[flat[i].str].push_back({s, sets[set], number(flat[i + 1])});
        }
        const auto& run = replies[s * 5 + 3].elements;
        for (size_t i = 0; i + 1 < run.size(); i += 2)
            if (!run[i].str.empty())
                runs[run[i].str] = parseRunEntry(run[i + 1].str);
        const auto& moving = replies[s * 5 + 4].elements;
        for (size_t i = 0; i + 1 < moving.size(); i += 2) {
            // target|state|due|token
            const std::string& note = moving[i + 1].str;
            const size_t a = note.find('|'), b = note.find('|', a + 1), c = note.find('|', b + 1);
            if (note.compare(a + 1, b - a - 1, "pending") == 0)
                heldForMove[moving[i].str] =
                    wholeNumber(note.substr(b + 1, c - b - 1)).value_or(-1);
        }
    }
    for (const auto& [id, where] : places) {
        std::string list;
        for (const auto& p : where)
            list += " " + p.set + "@shard" + std::to_string(p.shard);
        expect(where.size() == 1, shortId(id) + " is on the server " +
                                      std::to_string(where.size()) + " times:" + list);
        expect(m_tasks.count(id) == 1, shortId(id) + " is on the server (" + list.substr(1) +
                                           ") but the model has no such task");
        const Place& p = where.front();
        Task& m = m_tasks.at(id);
        if (p.shard != m.shard) {
            // Moved by a reshard: its own window and debounce start travel with it.
            m.shard = p.shard;
        }
        if (!layout.moving() && id.rfind("s:", 0) != 0)
            expect(static_cast<int>(p.shard) == layout.homeOf(id),
                   shortId(id) + " is in shard " + std::to_string(p.shard) +
                       " with no reshard under way; its home is shard " +
                       std::to_string(layout.homeOf(id)));
        const bool moving = p.set == "active" && runs[id].worker == "delayq-reshard";
        const std::string set = moving ? "pending" : p.set;
        expect(set == m.state,
               shortId(id) + " is " + set + " on the server, " + m.state + " in the model");
        if (m.state == "pending") {
            const long long due = moving ? heldForMove[id] : p.score;
            expect(due == m.due, shortId(id) + " is due at " + std::to_string(due) +
                                     ", the model says " + std::to_string(m.due));
        }
        if (m.state == "active") {
            expect(runs[id].token == m.token, shortId(id) + " is held by another lease");
            expect(runs[id].attempts == m.attempts,
                   shortId(id) + " has " + std::to_string(runs[id].attempts) +
                       " attempts, the model says " + std::to_string(m.attempts));
        }
    }
    for (const auto& [id, m] : m_tasks)
        expect(places.count(id) == 1,
               shortId(id) + " (" + m.state + " in the model) is gone from the server");
    verifyPayloads();
    verifyCounters();
    m_plain.verify();
}

void QueueModel::verifyPayloads()
{
    // Each task's record, looked for in every shard (the check above placed it in one), as
    // the app and the CLI read it: HGET in the bucket the client computes (RecordReads), so a
    // run's splits and upgrade steps check that path too.
    const ShardLayout& layout = m_queue.layout();
    RecordReads reads(m_connection);
    std::vector<std::string> ids;
    for (const auto& [id, m] : m_tasks)
        for (size_t s = 0; s < layout.tags.size(); ++s) {
            reads.addRecord(m_queue.shardKeys(s), id);
            ids.push_back(id);
        }
    const std::vector<Reply> replies = reads.run();
    std::map<std::string, int> records;
    for (size_t i = 0; i < replies.size(); ++i) {
        if (replies[i].isNil())
            continue;
        ++records[ids[i]];
        const auto record = parseTaskRecord(replies[i].str);
        const Task& m = m_tasks.at(ids[i]);
        expect(record && record->payload == m.payload, shortId(ids[i]) + " holds payload '" +
                                                           (record ? record->payload : "?") +
                                                           "', the model says '" + m.payload + "'");
    }
    for (const auto& [id, m] : m_tasks)
        expect(records[id] == 1,
               shortId(id) + " has " + std::to_string(records[id]) + " records over the shards");
}

void QueueModel::verifyCounters()
{
    const Counters server = m_queue.stats();
    for (const char* name :
         {"pushed", "claimed", "acked", "retried", "died", "cancelled", "expired", "dead_dropped",
          "expired_unstarted", "restored"}) {
        const auto it = server.find(name);
        const long long got = it == server.end() ? 0 : it->second;
        expect(got == m_counters[name], std::string("counter ") + name + " is " +
                                            std::to_string(got) + ", the model says " +
                                            std::to_string(m_counters[name]));
    }
}
