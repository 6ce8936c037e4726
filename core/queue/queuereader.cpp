#include <delayq/queuereader.h>

#include "records/recordreads.h"
#include "records/taskrecord.h"
#include "records/valuechecks.h"
#include "shard/shardreads.h"
#include "shard/shardrouter.h"
#include "transport/replychecks.h"

#include <delayq/auditlog.h>
#include <delayq/error.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace delayq {

namespace {

// The fields of an HGETALL reply added to the counters (a sharded queue's shards add up); a
// value that is not a whole number counts 0.
void addCounters(Counters& counters, const Reply& reply)
{
    for (size_t i = 0; i + 1 < reply.elements.size(); i += 2)
        counters[reply.elements[i].str] += wholeNumber(reply.elements[i + 1].str).value_or(0);
}

// The flow hash beside the config (lua/common.lua's flow_key: the config key with "flow" for
// "config"), so it shares the shard's slot.
std::string flowKey(const Keys& keys)
{
    const std::string config = keys.config();
    return config.substr(0, config.size() - std::string("config").size()) + "flow";
}

} // namespace

QueueReader::QueueReader(Connection& connection, const std::string& name, const std::string& prefix)
    : m_connection(connection), m_keys(prefix, name),
      m_router(std::make_unique<ShardRouter>(connection, m_keys, false))
{}

QueueReader::QueueReader(Connection& connection, const Keys& shard)
    : m_connection(connection), m_keys(shard),
      m_router(std::make_unique<ShardRouter>(connection, m_keys, true))
{}

QueueReader::QueueReader(const QueueReader& other)
    : m_connection(other.m_connection), m_keys(other.m_keys),
      m_router(std::make_unique<ShardRouter>(*other.m_router))
{}

QueueReader::QueueReader(QueueReader&& other) noexcept = default;
QueueReader::~QueueReader() = default;

const ShardLayout& QueueReader::layout()
{
    return m_router->layout();
}

const ShardLayout& QueueReader::reloadLayout()
{
    return m_router->reloadLayout();
}

size_t QueueReader::shardCount()
{
    return m_router->count();
}

bool QueueReader::isShardReader() const
{
    return m_router->pinned();
}

const Keys& QueueReader::shardKeys(size_t shard)
{
    return m_router->shardKeys(shard);
}

QueueReader QueueReader::shardReader(size_t shard)
{
    return QueueReader(m_connection, shardKeys(shard));
}

std::vector<size_t> QueueReader::searchOrder(const std::string& id)
{
    return m_router->searchOrder(id);
}

QueueConfig QueueReader::config()
{
    Reply reply = m_connection.command({"HGETALL", m_keys.config()});
    QueueConfig config;
    for (size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
        const std::string& field = reply.elements[i].str;
        const std::string& value = reply.elements[i + 1].str;
        const std::optional<long long> number = wholeNumber(value);
        const bool ok = number.has_value();
        const long long n = number.value_or(0);
        // Garbage in the config hash is ignored the same way the scripts ignore it.
        if (field == "max_attempts" && ok && n > 0)
            config.maxAttempts = static_cast<int>(n);
        else if (field == "backoff" && !value.empty())
            config.backoff = value;
        else if (field == "lease_ms" && ok && n > 0)
            config.leaseMs = n;
        else if (field == "max_payload" && ok && n >= 0)
            config.maxPayload = n;
        else if (field == "audit_len" && ok && n > 0)
            config.auditLen = n;
        else if (field == "history" && ok && n > 0 && n <= 100)
            config.history = static_cast<int>(n);
        else if (field == "paused")
            config.paused = value == "1";
        else if (field == "burst" && ok && n > 0)
            config.burst = n;
        else if (field == "cap" && ok && n > 0)
            config.cap = n;
        else if (field == "group_cap" && ok && n > 0)
            config.groupCap = n;
        else if (field == "order")
            config.fair = value == "fair";
        else if (field == "dedup_window" && ok && n > 0)
            config.dedupWindowMs = n;
        else if (field == "dedup_max" && ok && n > 0)
            config.dedupMax = n;
        else if (field == "dead_max" && ok && n >= 0)
            config.deadMax = n;
        else if (field == "dead_max_bytes" && ok && n >= 0)
            config.deadMaxBytes = n;
        else if (field == "max_age" && ok && n >= 0)
            config.maxAgeMs = n;
        else if (field == "bin_keep" && ok && n >= 0)
            config.binKeepMs = n;
        else if (field == "bin_max" && ok && n >= 0)
            config.binMax = n;
        else if (field == "bin_bytes" && ok && n >= 0)
            config.binBytes = n;
        else if (field == "expired_to")
            config.expiredToDrop = value == "drop";
        else if (field == "rate" || field == "group_rate") {
            FlowStatus read; // the one reading of a stored rate
            read.setLimits(value, {}, {});
            (field == "rate" ? config.rateTasks : config.groupRateTasks) = read.rateTasks;
            (field == "rate" ? config.rateMs : config.groupRateMs) = read.rateMs;
        }
    }
    config.shards = reloadLayout().count;
    return config;
}

FlowStatus QueueReader::flowStatus()
{
    FlowStatus status;
    const long long now = m_connection.serverNowMs();
    status.serverNowMs = now;
    const std::string nowText = std::to_string(now);
    const long long minute = now / 60000;
    // Shard 0's config is the queue's (the others keep copies); then per shard its flow hash,
    // due tasks, live leases and the claimed counters of this minute and the one before.
    constexpr size_t kPerShard = 5;
    const auto read = m_router->read([&](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands{{"HMGET", shards.front().config(), "rate",
                                                        "burst", "cap", "paused", "order",
                                                        "group_cap", "group_rate"}};
        for (const Keys& k : shards) {
            commands.push_back({"HMGET", flowKey(k), "held_at", "held_by"});
            commands.push_back({"ZCOUNT", k.pending(), "-inf", nowText});
            commands.push_back({"ZCOUNT", k.active(), "(" + nowText, "+inf"});
            commands.push_back({"HGET", k.minute(minute), "claimed"});
            commands.push_back({"HGET", k.minute(minute - 1), "claimed"});
        }
        return commands;
    });
    const auto& r = read.replies;
    throwFirstError(r);
    const auto field = [](const Reply& reply, size_t i) -> std::string {
        return i < reply.elements.size() && !reply.elements[i].isNil() ? reply.elements[i].str
                                                                       : std::string();
    };
    const Reply& config = r.at(0);
    status.setLimits(field(config, 0), field(config, 1), field(config, 2));
    status.paused = field(config, 3) == "1";
    status.setGroupLimits(field(config, 4), field(config, 5), field(config, 6));
    long long thisMinute = 0, lastMinute = 0;
    for (size_t i = 1; i + kPerShard <= r.size(); i += kPerShard) {
        const long long heldAt = wholeNumber(field(r[i], 0)).value_or(0);
        if (heldAt > status.heldAtMs) {
            status.heldAtMs = heldAt;
            status.heldBy = field(r[i], 1);
        }
        status.dueWaiting += r[i + 1].toInteger();
        status.activeLive += r[i + 2].toInteger();
        thisMinute += r[i + 3].isNil() ? 0 : wholeNumber(r[i + 3].str).value_or(0);
        lastMinute += r[i + 4].isNil() ? 0 : wholeNumber(r[i + 4].str).value_or(0);
    }
    // The last 60 s: this minute so far, and the part of the previous one still in the
    // window (its starts taken as spread evenly over it).
    const double previousShare = 1.0 - static_cast<double>(now % 60000) / 60000.0;
    status.startsPerMinute =
        thisMinute + static_cast<long long>(static_cast<double>(lastMinute) * previousShare + 0.5);
    status.judge();
    return status;
}

GroupLoads QueueReader::busyGroups(int limit)
{
    if (limit < 1 || limit > 1000)
        throw Error(ErrorCode::InvalidArgument, "busy groups: the limit is 1 to 1000");
    GroupLoads loads;
    // Each shard keeps its own index (docs/design/flow.md, "Sharded queues"), and a group's
    // tasks spread over the shards: each shard is read as one was, and a group's figures are
    // the sums over the shards where it turned up. Shard 0's config is the queue's.
    const std::string now = "(" + std::to_string(m_connection.serverNowMs());
    const std::string most = std::to_string(GroupLoads::kExamined);
    constexpr size_t kPerShard = 9;
    const auto read = m_router->read([&](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands{
            {"HMGET", shards.front().config(), "order", "group_cap"}};
        for (const Keys& k : shards) {
            commands.push_back({"SCARD", k.fair("known")});
            commands.push_back({"ZCARD", k.fair("ring")});
            commands.push_back(
                {"ZRANGE", k.fair("ring"), "0", std::to_string(GroupLoads::kExamined - 1)});
            commands.push_back({"SCARD", k.fair("blocked")});
            commands.push_back({"SRANDMEMBER", k.fair("blocked"), most});
            commands.push_back({"ZCARD", k.fair("later")});
            commands.push_back(
                {"ZRANGE", k.fair("later"), "0", std::to_string(GroupLoads::kExamined - 1)});
            commands.push_back({"ZRANGEBYSCORE", k.active(), now, "+inf", "LIMIT", "0",
                                std::to_string(GroupLoads::kActiveRead)});
            commands.push_back({"ZCOUNT", k.active(), now, "+inf"});
        }
        return commands;
    });
    const auto& first = read.replies;
    throwFirstError(first);
    const Reply& config = first.at(0);
    const auto text = [&](size_t i) {
        return i < config.elements.size() && !config.elements[i].isNil() ? config.elements[i].str
                                                                         : std::string();
    };
    loads.fair = text(0) == "fair";
    if (!loads.fair)
        return loads;
    loads.groupCap = std::max(0LL, wholeNumber(text(1)).value_or(0));
    const size_t shardsRead = (first.size() - 1) / kPerShard;
    loads.shards = static_cast<long long>(shardsRead);
    // The groups with due tasks (in a ring, or held by a cap or rate), each once, and where.
    std::vector<GroupLoad> groups;
    std::map<std::string, size_t> indexOf;
    const auto add = [&](const std::string& group) -> GroupLoad& {
        auto [it, added] = indexOf.emplace(group, groups.size());
        if (added)
            groups.push_back(GroupLoad{group});
        return groups[it->second];
    };
    // Per shard: its indexed groups (ring, blocked, later), and its running tasks' groups.
    std::vector<std::vector<std::string>> indexedIn(shardsRead);
    std::vector<std::map<std::string, long long>> taggedIn(shardsRead);
    std::set<std::string> ready, atCap, atRate;
    long long mostReady = 0, mostAtCap = 0, mostAtRate = 0;
    std::vector<std::vector<std::string>> commands;
    for (size_t s = 0; s < shardsRead; ++s) {
        const Reply* r = &first[1 + s * kPerShard];
        loads.known = std::max(loads.known, r[0].toInteger());
        mostReady = std::max(mostReady, r[1].toInteger());
        mostAtCap = std::max(mostAtCap, r[3].toInteger());
        mostAtRate = std::max(mostAtRate, r[5].toInteger());
        loads.complete = loads.complete && r[1].toInteger() <= GroupLoads::kExamined &&
                         r[3].toInteger() <= GroupLoads::kExamined &&
                         r[5].toInteger() <= GroupLoads::kExamined &&
                         r[8].toInteger() <= GroupLoads::kActiveRead;
        std::set<std::string> here;
        for (const Reply& g : r[2].elements) {
            add(g.str);
            ready.insert(g.str);
            here.insert(g.str);
        }
        for (const Reply& g : r[4].elements) {
            add(g.str).atCap = true;
            atCap.insert(g.str);
            here.insert(g.str);
        }
        for (const Reply& g : r[6].elements) {
            add(g.str).atRate = true;
            atRate.insert(g.str);
            here.insert(g.str);
        }
        indexedIn[s].assign(here.begin(), here.end());
        const Keys& k = read.shards.at(s);
        // Their due tasks (and running ones, under a cap) in this shard.
        for (const std::string& group : indexedIn[s]) {
            commands.push_back({"ZCARD", k.fair("r:" + group)});
            if (loads.groupCap > 0)
                commands.push_back({"ZCOUNT", k.fair("act:" + group), now, "+inf"});
        }
        // The running tasks' groups, from their tags in this shard.
        const auto& running = r[7].elements;
        if (!running.empty()) {
            std::vector<std::string> tags{"HMGET", k.fairTags()};
            for (const Reply& id : running)
                tags.push_back(id.str);
            commands.push_back(std::move(tags));
        }
    }
    // Distinct groups: exact when every shard's sets were read whole, else at least the most
    // any one shard holds.
    loads.ready = std::max(static_cast<long long>(ready.size()), mostReady);
    loads.atCap = std::max(static_cast<long long>(atCap.size()), mostAtCap);
    loads.atRate = std::max(static_cast<long long>(atRate.size()), mostAtRate);
    const auto second = m_connection.pipeline(commands);
    throwFirstError(second);
    size_t at = 0;
    std::map<std::string, long long> capped; // under a cap: the live slots, summed
    for (size_t s = 0; s < shardsRead; ++s) {
        for (const std::string& group : indexedIn[s]) {
            groups[indexOf[group]].dueWaiting += second[at++].toInteger();
            if (loads.groupCap > 0)
                capped[group] += second[at++].toInteger();
        }
        // A running task's group from its tag ("PRIORITY|GROUP"; none: the ungrouped "").
        if (!first[1 + s * kPerShard + 7].elements.empty())
            for (const Reply& tag : second[at++].elements) {
                const size_t bar = tag.isNil() ? std::string::npos : tag.str.find('|');
                ++taggedIn[s][bar == std::string::npos ? std::string() : tag.str.substr(bar + 1)];
            }
    }
    // A group's running tasks: under a cap its slots in the shards where it is indexed, and
    // the tags read in the others; without one the tags read.
    std::map<std::string, long long> active;
    for (size_t s = 0; s < shardsRead; ++s) {
        for (const auto& [group, n] : taggedIn[s]) {
            add(group);
            const bool slotsRead =
                loads.groupCap > 0 &&
                std::binary_search(indexedIn[s].begin(), indexedIn[s].end(), group);
            if (!slotsRead)
                active[group] += n;
        }
    }
    for (GroupLoad& g : groups)
        g.active = active[g.group] + capped[g.group];
    loads.examined = static_cast<long long>(groups.size());
    std::sort(groups.begin(), groups.end(), [](const GroupLoad& a, const GroupLoad& b) {
        if (a.dueWaiting != b.dueWaiting)
            return a.dueWaiting > b.dueWaiting;
        if (a.active != b.active)
            return a.active > b.active;
        return a.group < b.group;
    });
    std::erase_if(groups, [](const GroupLoad& g) { return g.dueWaiting == 0 && g.active == 0; });
    if (groups.size() > static_cast<size_t>(limit))
        groups.resize(static_cast<size_t>(limit));
    loads.groups = std::move(groups);
    return loads;
}

QueueCounts QueueReader::counts()
{
    const std::string now = std::to_string(m_connection.serverNowMs());
    const auto read = m_router->read([&](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands;
        for (const Keys& k : shards) {
            commands.push_back({"ZCARD", k.pending()});
            commands.push_back({"ZCOUNT", k.pending(), "-inf", now});
            commands.push_back({"ZCARD", k.active()});
            commands.push_back({"ZCARD", k.dead()});
            commands.push_back({"ZCOUNT", k.active(), "-inf", now});
        }
        return commands;
    });
    const auto& replies = read.replies;
    throwFirstError(replies);
    QueueCounts total{0, 0, 0, 0, 0};
    for (size_t i = 0; i + 4 < replies.size(); i += 5) {
        total.pending += replies[i].toInteger();
        total.dueNow += replies[i + 1].toInteger();
        total.active += replies[i + 2].toInteger();
        total.dead += replies[i + 3].toInteger();
        total.leaseExpired += replies[i + 4].toInteger();
    }
    return total;
}

Counters QueueReader::stats()
{
    const auto read = m_router->read([](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands;
        for (const Keys& k : shards)
            commands.push_back({"HGETALL", k.stats()});
        return commands;
    });
    throwFirstError(read.replies);
    Counters counters;
    for (const char* name : {"pushed", "claimed", "acked", "retried", "died", "cancelled",
                             "expired", "broken", "dead_dropped", "expired_unstarted"})
        counters[name] = 0;
    for (const auto& reply : read.replies)
        addCounters(counters, reply);
    return counters;
}

long long QueueReader::deadBytes()
{
    const auto read = m_router->read([](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands;
        for (const Keys& k : shards)
            commands.push_back({"HGET", k.deadBound(), "bytes"});
        return commands;
    });
    throwFirstError(read.replies);
    long long bytes = 0;
    for (const auto& reply : read.replies)
        bytes += reply.isNil() ? 0 : wholeNumber(reply.str).value_or(0);
    return bytes;
}

std::vector<MinuteCounters> QueueReader::history(long long fromMinute, long long toMinute)
{
    if (fromMinute < 0 || toMinute < fromMinute || toMinute - fromMinute > 48 * 60)
        throw Error(ErrorCode::InvalidArgument, "history covers at most 48 hours");
    const auto read = m_router->read([&](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands;
        for (long long m = fromMinute; m <= toMinute; ++m)
            for (const Keys& k : shards)
                commands.push_back({"HGETALL", k.minute(m)});
        return commands;
    });
    const auto& replies = read.replies;
    const size_t shards = read.shards.size();
    throwFirstError(replies);
    std::vector<MinuteCounters> out;
    for (size_t i = 0; i + shards <= replies.size(); i += shards) {
        MinuteCounters mc;
        mc.minute = fromMinute + static_cast<long long>(i / shards);
        for (size_t s = 0; s < shards; ++s)
            addCounters(mc.counters, replies[i + s]);
        out.push_back(std::move(mc));
    }
    return out;
}

std::vector<long long> QueueReader::histogram(long long fromMs, long long toMs, int buckets)
{
    if (buckets < 1 || buckets > 10000)
        throw Error(ErrorCode::InvalidArgument, "a histogram has 1 to 10000 buckets");
    if (toMs <= fromMs)
        throw Error(ErrorCode::InvalidArgument, "the histogram's end must be after its start");
    // Far wider than any due time (a chart may start before 1970), but bounded so that the
    // bucket arithmetic cannot overflow.
    constexpr long long kBound = 4'000'000'000'000'000LL; // about 127,000 years
    if (fromMs < -kBound || toMs > kBound)
        throw Error(ErrorCode::InvalidArgument,
                    "a histogram's times must lie within 4e15 ms of 1970 (about 127,000 years)");
    const double width = static_cast<double>(toMs - fromMs) / buckets;
    const auto read = m_router->read([&](const std::vector<Keys>& shards) {
        std::vector<std::vector<std::string>> commands;
        commands.reserve(static_cast<size_t>(buckets) * shards.size());
        for (int i = 0; i < buckets; ++i) {
            long long lo = fromMs + static_cast<long long>(width * i);
            long long hi =
                i + 1 == buckets ? toMs : fromMs + static_cast<long long>(width * (i + 1));
            // "(" makes the upper bound exclusive, so no task is counted twice.
            for (const Keys& k : shards)
                commands.push_back(
                    {"ZCOUNT", k.pending(), std::to_string(lo), "(" + std::to_string(hi)});
        }
        return commands;
    });
    const size_t shards = read.shards.size();
    std::vector<long long> counts(static_cast<size_t>(buckets), 0);
    throwFirstError(read.replies);
    for (size_t i = 0; i < read.replies.size(); ++i)
        counts[i / shards] += read.replies[i].toInteger();
    return counts;
}

long long QueueReader::dueBy(long long ms)
{
    return ShardReads(*m_router).sum([&](const Keys& k) -> std::vector<std::string> {
        return {"ZCOUNT", k.pending(), "-inf", std::to_string(ms)};
    });
}

namespace {

// Reads of a task's record, run entry and last error, in the order fillTask takes them.
void addTaskReads(RecordReads& reads, const Keys& keys, const std::string& id)
{
    reads.addRecord(keys, id);
    reads.add({"HGET", keys.run(), id});
    reads.add({"HGET", keys.errors(), id});
}

// A page's members for loadTasks: (id, score) and their shards' keys.
std::vector<Task> withShards(
    const std::vector<ShardReads::Member>& members,
    const std::function<std::vector<Task>(const std::vector<std::pair<std::string, long long>>&,
                                          const std::vector<Keys>&)>& load)
{
    std::vector<std::pair<std::string, long long>> scored;
    std::vector<Keys> shards;
    for (const auto& member : members) {
        scored.emplace_back(member.id, member.score);
        shards.push_back(member.shard);
    }
    return load(scored, shards);
}

} // namespace

std::vector<Task>
QueueReader::loadTasks(TaskSet set, const std::vector<std::pair<std::string, long long>>& members,
                       const std::vector<Keys>& shards)
{
    RecordReads reads(m_connection);
    for (size_t i = 0; i < members.size(); ++i)
        addTaskReads(reads, shards[i], members[i].first);
    // The tags in the same round trip: one HMGET per shard of the page (a sharded queue is never
    // in fair order, but tags kept from before still read from their own shard's slot). Each
    // task's place is its shard's HMGET and its index in it. Built in `commands` at the places
    // their replies take, after the task reads (3 a task), then added to `reads`.
    std::vector<std::vector<std::string>> commands(members.size() * 3);
    std::vector<std::pair<size_t, size_t>> tagAt(members.size());
    std::vector<std::string> tagShards;
    std::vector<size_t> firstOfShard;
    for (size_t i = 0; i < members.size(); ++i) {
        const std::string& tag = shards[i].tag();
        size_t shard = std::find(tagShards.begin(), tagShards.end(), tag) - tagShards.begin();
        if (shard == tagShards.size()) {
            tagShards.push_back(tag);
            firstOfShard.push_back(i);
            commands.push_back({"HMGET", shards[i].fairTags()});
        }
        auto& read = commands[members.size() * 3 + shard];
        tagAt[i] = {members.size() * 3 + shard, read.size() - 2};
        read.push_back(members[i].first);
    }
    // Expiry (since 2.9): per shard of the page its start-by times for the same ids, and its
    // max_age, read right after the tags (an HMGET of the same ids: the same places).
    const size_t expiryAt = commands.size();
    for (size_t s = 0; s < tagShards.size(); ++s) {
        std::vector<std::string> read = commands[members.size() * 3 + s];
        read[1] = shards[firstOfShard[s]].expires();
        commands.push_back(std::move(read));
    }
    for (size_t s = 0; s < tagShards.size(); ++s)
        commands.push_back({"HGET", shards[firstOfShard[s]].config(), "max_age"});
    for (size_t k = members.size() * 3; k < commands.size(); ++k)
        reads.add(std::move(commands[k]));
    auto replies = reads.run();
    throwFirstError(replies);
    std::vector<Task> tasks;
    tasks.reserve(members.size());
    for (size_t i = 0; i < members.size(); ++i) {
        Task t;
        t.id = members[i].first;
        t.score = members[i].second;
        fillTask(t, set, replies[3 * i], replies[3 * i + 1], replies[3 * i + 2]);
        const Reply& tags = replies[tagAt[i].first];
        if (tags.isArray() && tagAt[i].second < tags.elements.size())
            fillTags(t, tags.elements[tagAt[i].second]);
        const size_t shard = tagAt[i].first - members.size() * 3;
        const Reply& own = replies[expiryAt + shard];
        fillExpiry(t,
                   own.isArray() && tagAt[i].second < own.elements.size()
                       ? own.elements[tagAt[i].second]
                       : Reply{},
                   replies[expiryAt + tagShards.size() + shard]);
        tasks.push_back(std::move(t));
    }
    return tasks;
}

std::vector<Task> QueueReader::page(TaskSet set, long long offset, long long limit)
{
    // The offset bound keeps offset + limit from overflowing.
    if (offset < 0 || offset > kLatestDueMs || limit < 1 || limit > 10000)
        throw Error(ErrorCode::InvalidArgument, "a page is 1 to 10000 tasks from offset 0 on");
    return withShards(
        ShardReads(*m_router).page(set, offset, limit),
        [&](const auto& scored, const auto& shards) { return loadTasks(set, scored, shards); });
}

std::vector<Task> QueueReader::pageFromScore(TaskSet set, long long fromScore, long long limit)
{
    if (limit < 1 || limit > 10000)
        throw Error(ErrorCode::InvalidArgument, "a page is 1 to 10000 tasks");
    return withShards(
        ShardReads(*m_router).fromScore(set, fromScore, 0, limit),
        [&](const auto& scored, const auto& shards) { return loadTasks(set, scored, shards); });
}

long long QueueReader::rankOfScore(TaskSet set, long long score)
{
    return ShardReads(*m_router).rankOfScore(set, score);
}

std::optional<long long> QueueReader::scoreOf(TaskSet set, const std::string& id)
{
    const auto replies = m_router->lookUp(
        id,
        [&](const Keys& keys) {
            return std::vector<std::vector<std::string>>{{"ZSCORE", keys.setKey(set), id}};
        },
        [](const std::vector<Reply>& r) {
            throwFirstError(r);
            return !r.at(0).isNil();
        });
    return replies ? std::optional<long long>(replies->at(0).toInteger()) : std::nullopt;
}

std::optional<long long> QueueReader::rankOf(TaskSet set, const std::string& id)
{
    return ShardReads(*m_router).rankOf(set, id);
}

long long QueueReader::size(TaskSet set)
{
    return ShardReads(*m_router).sum([&](const Keys& k) -> std::vector<std::string> {
        return {"ZCARD", k.setKey(set)};
    });
}

std::optional<long long> QueueReader::earliest(TaskSet set)
{
    return ShardReads(*m_router).earliest(set);
}

std::optional<std::pair<TaskSet, Task>> QueueReader::find(const std::string& id)
{
    Keys::validateTaskId(id);
    // Its home shard first, then the others (a task a reshard has not moved yet).
    const auto replies = m_router->lookUpReads(
        id,
        [&](RecordReads& reads, const Keys& keys) {
            reads.add({"ZSCORE", keys.pending(), id});
            reads.add({"ZSCORE", keys.active(), id});
            reads.add({"ZSCORE", keys.dead(), id});
            addTaskReads(reads, keys, id);
            reads.add({"HGET", keys.fairTags(), id});
            reads.add({"HGET", keys.expires(), id});
            reads.add({"HGET", keys.config(), "max_age"});
        },
        [](const std::vector<Reply>& r) {
            throwFirstError(r);
            return !r.at(0).isNil() || !r.at(1).isNil() || !r.at(2).isNil();
        });
    if (!replies)
        return std::nullopt;
    const TaskSet sets[] = {TaskSet::Pending, TaskSet::Active, TaskSet::Dead};
    for (size_t i = 0; i < 3; ++i) {
        if (replies->at(i).isNil())
            continue;
        Task t;
        t.id = id;
        t.score = replies->at(i).toInteger();
        fillTask(t, sets[i], replies->at(3), replies->at(4), replies->at(5));
        fillTags(t, replies->at(6));
        fillExpiry(t, replies->at(7), replies->at(8));
        return std::make_pair(sets[i], std::move(t));
    }
    return std::nullopt;
}

TaskHistory QueueReader::taskHistory(const std::string& id)
{
    Keys::validateTaskId(id);
    const auto replies = m_router->lookUp(
        id,
        [&](const Keys& keys) {
            return std::vector<std::vector<std::string>>{{"HGET", keys.taskHistory(), id},
                                                         {"HGET", keys.finishedHistory(), id}};
        },
        [](const std::vector<Reply>& r) {
            // A shard whose entry holds no events is passed by, as one with none.
            throwFirstError(r);
            return (!r.at(0).isNil() && !parseTaskEvents(r.at(0).str).empty()) ||
                   (!r.at(1).isNil() && !parseTaskEvents(r.at(1).str).empty());
        });
    if (!replies)
        return {};
    if (!replies->at(0).isNil() && !parseTaskEvents(replies->at(0).str).empty())
        return {parseTaskEvents(replies->at(0).str), false};
    return {parseTaskEvents(replies->at(1).str), true};
}

bool QueueReader::needsUpgrade()
{
    std::vector<std::vector<std::string>> commands = {
        {"HEXISTS", m_keys.config(), "upgrade_cursor"}};
    for (TaskSet set : {TaskSet::Pending, TaskSet::Active, TaskSet::Dead}) {
        commands.push_back({"ZRANGE", m_keys.setKey(set), "0", "0"});
        commands.push_back({"ZRANGE", m_keys.setKey(set), "-1", "-1"});
    }
    auto replies = m_connection.pipeline(commands);
    throwFirstError(replies);
    if (replies[0].toInteger() == 1)
        return true;
    std::vector<std::vector<std::string>> exists;
    for (size_t i = 1; i < replies.size(); ++i)
        for (const auto& member : replies[i].elements)
            exists.push_back({"EXISTS", m_keys.oldTaskPrefix() + member.str});
    if (exists.empty())
        return false;
    for (const auto& r : m_connection.pipeline(exists)) {
        if (r.isError())
            throw errorFromReply(r.str);
        if (r.toInteger() == 1)
            return true;
    }
    return false;
}

void QueueReader::requireCurrentLayout()
{
    if (needsUpgrade())
        throw Error(ErrorCode::OldLayout,
                    "queue '" + name() +
                        "' is stored in the layout of an older delayq (one hash per task), or its "
                        "upgrade was interrupted: stop its old workers and producers, then run "
                        "'delayq upgrade " +
                        name() + "'");
}

std::vector<AuditEntry> QueueReader::audit(long long sinceMs, int limit)
{
    // Each shard's scripts write to that shard's trail: newest first across all of them.
    std::vector<AuditEntry> entries;
    for (size_t s = 0; s < shardCount(); ++s)
        for (auto& entry : AuditLog(m_connection, shardKeys(s)).read(sinceMs, limit))
            entries.push_back(std::move(entry));
    std::stable_sort(entries.begin(), entries.end(),
                     [](const AuditEntry& a, const AuditEntry& b) { return a.timeMs > b.timeMs; });
    if (entries.size() > static_cast<size_t>(std::max(limit, 0)))
        entries.resize(static_cast<size_t>(std::max(limit, 0)));
    return entries;
}

std::vector<std::string> QueueReader::listQueues(Connection& connection, const std::string& prefix,
                                                 int limit)
{
    Keys::validatePrefix(prefix);
    std::vector<std::string> names;
    std::string cursor = "0";
    do {
        Reply reply = connection.command({"SSCAN", Keys::queues(prefix), cursor, "COUNT", "1000"});
        requireArray(reply, 2, "SSCAN");
        cursor = reply.elements[0].str;
        for (const auto& member : reply.elements[1].elements)
            names.push_back(member.str);
    } while (cursor != "0" && static_cast<int>(names.size()) < limit);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    if (static_cast<int>(names.size()) > limit)
        names.resize(static_cast<size_t>(limit));
    return names;
}

// Commands per shard in summaries(), in the order it reads them: the counts, then the flow
// hash's last hold.
constexpr size_t kSummaryCommands = 6;

std::vector<QueueSummary> QueueReader::summaries(Connection& connection,
                                                 const std::vector<std::string>& names,
                                                 const std::string& prefix)
{
    const long long nowMs = connection.serverNowMs();
    const std::string now = std::to_string(nowMs);
    std::vector<Keys> queues;
    std::vector<std::vector<std::string>> layoutReads;
    for (const auto& name : names) {
        try {
            queues.emplace_back(prefix, name);
            layoutReads.push_back({"HGET", queues.back().config(), "shard_tags"});
        } catch (const Error&) {
            // A name someone wrote into dq:queues by hand that is not a valid queue name.
        }
    }
    // First every queue's shards, then the counts and flow of each shard, in two round trips
    // whatever the number of queues (on a cluster, one per master each).
    const auto layouts = connection.pipeline(layoutReads);
    std::vector<std::vector<std::string>> commands;
    std::vector<size_t> shardsOf;
    for (size_t q = 0; q < queues.size(); ++q) {
        const std::string tags = layouts[q].isError() ? std::string() : layouts[q].str;
        const auto layout = ShardLayout::fromConfig(queues[q].queue(), "", tags, "", "");
        // The limits as flowStatus() reads them: shard 0's config is the queue's.
        commands.push_back({"HMGET", queues[q].config(), "rate", "burst", "cap", "paused", "order",
                            "group_cap", "group_rate"});
        for (const auto& tag : layout.tags) {
            const Keys keys(prefix, queues[q].queue(), tag);
            commands.push_back({"ZCARD", keys.pending()});
            commands.push_back({"ZCOUNT", keys.pending(), "-inf", now});
            commands.push_back({"ZCARD", keys.active()});
            commands.push_back({"ZCARD", keys.dead()});
            commands.push_back({"ZCOUNT", keys.active(), "-inf", now});
            commands.push_back({"HMGET", flowKey(keys), "held_at", "held_by"});
        }
        shardsOf.push_back(layout.tags.size());
    }
    auto replies = connection.pipeline(commands);
    const auto field = [](const Reply& reply, size_t i) -> std::string {
        return i < reply.elements.size() && !reply.elements[i].isNil() ? reply.elements[i].str
                                                                       : std::string();
    };
    std::vector<QueueSummary> out;
    size_t at = 0;
    for (size_t q = 0; q < queues.size(); ++q) {
        QueueSummary s;
        s.name = queues[q].queue();
        const Reply& config = replies[at++];
        if (!config.isError()) {
            s.flow.setLimits(field(config, 0), field(config, 1), field(config, 2));
            s.flow.paused = field(config, 3) == "1";
            s.flow.setGroupLimits(field(config, 4), field(config, 5), field(config, 6));
        }
        long long value[kSummaryCommands - 1] = {0, 0, 0, 0, 0};
        for (size_t shard = 0; shard < shardsOf[q]; ++shard) {
            for (size_t k = 0; k + 1 < kSummaryCommands; ++k, ++at) {
                const Reply& r = replies[at];
                // -1: a key has the wrong type
                value[k] = r.isError() || value[k] < 0 ? -1 : value[k] + r.toInteger();
            }
            // The newest hold of any shard, as flowStatus() takes it.
            const Reply& held = replies[at++];
            const long long heldAt = held.isError() ? 0 : wholeNumber(field(held, 0)).value_or(0);
            if (heldAt > s.flow.heldAtMs) {
                s.flow.heldAtMs = heldAt;
                s.flow.heldBy = field(held, 1);
            }
        }
        s.counts = {value[0], value[1], value[2], value[3], value[4]};
        s.flow.serverNowMs = nowMs;
        s.flow.dueWaiting = std::max(0LL, s.counts.dueNow);
        s.flow.activeLive = std::max(0LL, s.counts.active - std::max(0LL, s.counts.leaseExpired));
        s.flow.judge();
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace delayq
