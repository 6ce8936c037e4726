#include <delayq/schedules.h>

#include "schedule/schedulerecord.h"

#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/script.h>
#include <delayq/timeparse.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

namespace delayq {

namespace {

// A ZSET score as whole ms (Redis writes them as %.17g).
long long scoreMs(const std::string& text)
{
    return std::llround(std::strtod(text.c_str(), nullptr));
}

long long timeMs(const Reply& time)
{
    if (!time.isArray() || time.elements.size() != 2)
        throw Error(ErrorCode::Protocol, "unexpected reply to TIME");
    return time.elements[0].toInteger() * 1000 + time.elements[1].toInteger() / 1000;
}

void fillStats(ScheduleInfo& info, const Reply& stats)
{
    info.fired = stats.elements[0].toInteger(0);
    info.skipped = stats.elements[1].toInteger(0);
    info.lastFire = stats.elements[2].toInteger(0);
    info.overlapped = stats.elements[3].toInteger(0);
}

} // namespace

Schedules::Schedules(Connection& connection, const std::string& queue, const std::string& prefix)
    : m_connection(connection), m_keys(prefix, queue)
{}

ScheduleInfo Schedules::add(ScheduleRule rule)
{
    rule.validate();
    const long long now = m_connection.serverTimeMs();
    if (rule.everyMs > 0 && rule.anchorMs == 0)
        rule.anchorMs = now + rule.everyMs;
    // The set of queue names lives outside the queue's slot: written beside the script.
    m_connection.command({"SADD", Keys::queues(m_keys.prefix()), m_keys.queue()});
    return *write("add", rule, 0, now);
}

std::optional<ScheduleInfo> Schedules::replace(ScheduleRule rule, long long expectVersion)
{
    rule.validate();
    const long long now = m_connection.serverTimeMs();
    if (rule.everyMs > 0 && rule.anchorMs == 0)
        rule.anchorMs = now + rule.everyMs;
    return write("edit", rule, expectVersion, now);
}

ScheduleInfo Schedules::setPaused(const std::string& name, bool paused)
{
    ScheduleRule::validateName(name);
    for (int attempt = 0; attempt < 5; ++attempt) {
        std::optional<ScheduleInfo> info = get(name);
        if (!info)
            throw Error(ErrorCode::NotFound,
                        "no schedule '" + name + "' on queue '" + m_keys.queue() + "'");
        if (info->rule.paused == paused)
            return *info;
        info->rule.paused = paused;
        const long long now = m_connection.serverTimeMs();
        if (auto written = write(paused ? "pause" : "resume", info->rule, info->version, now))
            return *written;
    }
    throw Error(ErrorCode::Exists,
                "schedule '" + name + "' kept changing under other clients: try again");
}

std::optional<ScheduleInfo> Schedules::write(const char* mode, const ScheduleRule& rule,
                                             long long expectVersion, long long serverNow)
{
    if (m_connection.options().readOnly)
        throw Error(ErrorCode::NoPermission, "cannot change schedules on queue '" + m_keys.queue() +
                                                 "': this session is read-only");
    const std::optional<long long> next = rule.paused ? std::nullopt : rule.nextFire(serverNow);
    Queue queue(m_connection, m_keys.queue(), m_keys.prefix());
    const Reply r = m_connection.evalScript(
        scripts::schedulePut, queue.scriptKeys(),
        {mode, expectVersion > 0 ? std::to_string(expectVersion) : "", rule.name, rule.cron,
         rule.cron.empty() ? "" : rule.zone, std::to_string(rule.everyMs),
         std::to_string(rule.anchorMs), std::to_string(rule.catchUpMs),
         std::to_string(rule.maxAttempts), rule.backoff, rule.paused ? "1" : "0", rule.payload,
         next ? std::to_string(*next) : "", ScheduleRule::overlapName(rule.overlap),
         std::to_string(rule.jitterMs), queue.actorArg()});
    if (!r.isArray() || r.elements.size() != 3)
        throw Error(ErrorCode::Protocol, "unexpected reply from schedule_put");
    if (r.elements[0].toInteger() == 0)
        return std::nullopt;
    std::optional<ScheduleInfo> info = get(rule.name);
    if (!info)
        throw Error(ErrorCode::NotFound, "schedule '" + rule.name + "' was deleted meanwhile");
    return info;
}

bool Schedules::remove(const std::string& name)
{
    ScheduleRule::validateName(name);
    if (m_connection.options().readOnly)
        throw Error(ErrorCode::NoPermission, "cannot delete schedules on queue '" + m_keys.queue() +
                                                 "': this session is read-only");
    Queue queue(m_connection, m_keys.queue(), m_keys.prefix());
    return m_connection
               .evalScript(scripts::scheduleRm, queue.scriptKeys(), {name, queue.actorArg()})
               .toInteger() == 1;
}

std::optional<ScheduleInfo> Schedules::get(const std::string& name)
{
    ScheduleRule::validateName(name);
    const auto r =
        m_connection.pipeline({{"HGET", m_keys.schedules(), name},
                               {"ZSCORE", m_keys.scheduleNext(), name},
                               {"HMGET", m_keys.scheduleStats(), name + "|fired", name + "|skipped",
                                name + "|last", name + "|overlapped"}});
    for (const Reply& reply : r)
        if (reply.isError())
            throw errorFromReply(reply.str);
    if (r[0].isNil())
        return std::nullopt;
    std::optional<ScheduleInfo> info = parseScheduleRecord(name, r[0].toString());
    if (!info)
        throw Error(ErrorCode::Protocol,
                    "schedule '" + name + "' holds a record delayq cannot read");
    if (!r[1].isNil())
        info->nextFire = scoreMs(r[1].toString());
    if (r[2].isArray() && r[2].elements.size() == 4)
        fillStats(*info, r[2]);
    return info;
}

std::vector<ScheduleInfo> Schedules::list()
{
    const auto r =
        m_connection.pipeline({{"HGETALL", m_keys.schedules()},
                               {"ZRANGE", m_keys.scheduleNext(), "0", "-1", "WITHSCORES"},
                               {"HGETALL", m_keys.scheduleStats()}});
    for (const Reply& reply : r)
        if (reply.isError())
            throw errorFromReply(reply.str);
    std::map<std::string, long long> next;
    for (size_t i = 0; i + 1 < r[1].elements.size(); i += 2)
        next[r[1].elements[i].toString()] = scoreMs(r[1].elements[i + 1].toString());
    // Only the counters: other fields hold text (NAME|task is a task id).
    std::map<std::string, long long> stats;
    for (size_t i = 0; i + 1 < r[2].elements.size(); i += 2) {
        const std::string& field = r[2].elements[i].toString();
        const size_t bar = field.rfind('|');
        const std::string kind = bar == std::string::npos ? "" : field.substr(bar + 1);
        if (kind == "fired" || kind == "skipped" || kind == "last" || kind == "overlapped")
            stats[field] = r[2].elements[i + 1].toInteger(0);
    }
    std::vector<ScheduleInfo> out;
    for (size_t i = 0; i + 1 < r[0].elements.size(); i += 2) {
        const std::string& name = r[0].elements[i].toString();
        std::optional<ScheduleInfo> info =
            parseScheduleRecord(name, r[0].elements[i + 1].toString());
        if (!info)
            continue; // garbage under the key: nothing a worker fires either
        if (auto n = next.find(name); n != next.end())
            info->nextFire = n->second;
        info->fired = stats[name + "|fired"];
        info->skipped = stats[name + "|skipped"];
        info->lastFire = stats[name + "|last"];
        info->overlapped = stats[name + "|overlapped"];
        out.push_back(std::move(*info));
    }
    std::sort(out.begin(), out.end(), [](const ScheduleInfo& a, const ScheduleInfo& b) {
        return a.rule.name < b.rule.name;
    });
    return out;
}

long long Schedules::lagMs()
{
    const auto r = m_connection.pipeline(
        {{"TIME"}, {"ZRANGE", m_keys.scheduleNext(), "0", "0", "WITHSCORES"}});
    if (r[1].isError())
        throw errorFromReply(r[1].str);
    if (r[1].elements.size() < 2)
        return 0;
    return std::max(0LL, timeMs(r[0]) - scoreMs(r[1].elements[1].toString()));
}

Schedules::TickResult Schedules::tick(size_t maxFires)
{
    constexpr int kHead = 10; // schedules looked at per turn, earliest first
    const auto head = m_connection.pipeline(
        {{"TIME"},
         {"ZRANGE", m_keys.scheduleNext(), "0", std::to_string(kHead - 1), "WITHSCORES"}});
    if (head[1].isError())
        throw errorFromReply(head[1].str);
    TickResult out;
    out.serverNow = timeMs(head[0]);
    const auto earlier = [&](long long at) {
        if (!out.nextFire || at < *out.nextFire)
            out.nextFire = at;
    };
    std::vector<std::pair<std::string, long long>> due;
    const auto& entries = head[1].elements;
    for (size_t i = 0; i + 1 < entries.size(); i += 2) {
        const long long at = scoreMs(entries[i + 1].toString());
        if (at <= out.serverNow)
            due.emplace_back(entries[i].toString(), at);
        else
            earlier(at);
    }
    if (due.empty())
        return out;
    if (due.size() == static_cast<size_t>(kHead))
        earlier(out.serverNow); // more may be due behind these: look again at once
    std::vector<std::string> hmget = {"HMGET", m_keys.schedules()};
    for (const auto& d : due)
        hmget.push_back(d.first);
    const Reply records = m_connection.command(hmget);
    Queue queue(m_connection, m_keys.queue(), m_keys.prefix());
    const std::vector<std::string> keys = queue.scriptKeys();
    for (size_t i = 0; i < due.size(); ++i) {
        const auto& [name, at] = due[i];
        const Reply& record = records.elements.at(i);
        std::optional<ScheduleInfo> info =
            record.isNil() ? std::nullopt : parseScheduleRecord(name, record.toString());
        FirePlan plan;
        try {
            if (info)
                plan = planFires(info->rule, at, out.serverNow, maxFires);
        } catch (const Error& e) {
            // A zone tzdata no longer knows: this schedule waits, the others fire.
            if (out.problem.empty())
                out.problem = "schedule '" + name + "': " + e.what();
            continue;
        }
        // Without a rule the call drops the entry (schedule_fire.lua).
        std::vector<std::string> args = {name,
                                         std::to_string(info ? info->version : 1),
                                         std::to_string(at),
                                         m_keys.wake(),
                                         std::to_string(plan.skipped),
                                         plan.next ? std::to_string(*plan.next) : "",
                                         std::to_string(plan.fires.size())};
        for (long long fire : plan.fires)
            args.push_back(std::to_string(fire));
        const Reply r = m_connection.evalScript(scripts::scheduleFire, keys, args);
        const long long made = r.elements.at(1).toInteger();
        if (made < 0) {
            earlier(out.serverNow); // changed or fired by another: read it again
            continue;
        }
        out.made += made;
        out.skipped += plan.skipped + (r.elements.size() > 2 ? r.elements[2].toInteger() : 0);
        if (plan.next)
            earlier(*plan.next);
    }
    return out;
}

Schedules::RunNowResult Schedules::runNow(const std::string& name, const std::string& requestId)
{
    ScheduleRule::validateName(name);
    if (requestId.empty() || requestId.size() > 64 ||
        std::any_of(requestId.begin(), requestId.end(), [](unsigned char c) {
            return !std::isalnum(c) && c != '.' && c != '_' && c != '-';
        }))
        throw Error(ErrorCode::InvalidArgument,
                    "a run-now request id must be 1 to 64 of letters, digits and . _ -");
    const Reply r = make(name, {"now", name, "", m_keys.wake(), requestId}, "run");
    RunNowResult out;
    out.taskId = "s:" + name + ":run:" + requestId;
    out.serverNow = r.elements[0].toInteger();
    out.made = r.elements[1].toInteger() == 1;
    return out;
}

Schedules::BackfillResult Schedules::backfill(const std::string& name, long long fromMs,
                                              long long toMs)
{
    ScheduleRule::validateName(name);
    if (fromMs >= toMs)
        throw Error(ErrorCode::InvalidArgument,
                    "a backfill window must start before it ends (from " +
                        formatTime(fromMs, true) + ", to " + formatTime(toMs, true) + ")");
    // Read, plan, write while the rule is still the one planned from (a few tries). The
    // tasks made by a try the rule's change cut short count too.
    long long made = 0;
    for (int attempt = 0; attempt < 5; ++attempt) {
        const long long now = m_connection.serverTimeMs();
        if (toMs > now)
            throw Error(ErrorCode::InvalidArgument, "a backfill window must end by now: it ends " +
                                                        formatDuration(toMs - now) + " from now");
        const std::optional<ScheduleInfo> info = get(name);
        if (!info)
            throw Error(ErrorCode::NotFound,
                        "no schedule '" + name + "' on queue '" + m_keys.queue() + "'");
        BackfillResult out;
        for (std::optional<long long> at = info->rule.nextFire(fromMs - 1); at && *at < toMs;
             at = info->rule.nextFire(*at)) {
            if (out.fires.size() == kMaxBackfillFires)
                throw Error(ErrorCode::InvalidArgument,
                            "the window holds more than " + std::to_string(kMaxBackfillFires) +
                                " fires of schedule '" + name + "' (at most " +
                                std::to_string(kMaxBackfillFires) +
                                " a backfill): make it shorter");
            if (info->nextFire && *at >= *info->nextFire)
                throw Error(ErrorCode::InvalidArgument,
                            "the window reaches the schedule's next fire: the fires from then "
                            "are the rule's own to make; end the window before it");
            out.fires.push_back(*at);
        }
        if (out.fires.empty()) {
            out.serverNow = now;
            return out;
        }
        // In calls of kBackfillBatch fires, as push sends tasks: no call holds Redis long.
        // Each is atomic; a fire made by an earlier call is in the ranges for a later one.
        bool changed = false;
        for (size_t at = 0; at < out.fires.size() && !changed; at += kBackfillBatch) {
            const size_t n = std::min(kBackfillBatch, out.fires.size() - at);
            std::vector<std::string> args = {"backfill", name, std::to_string(info->version),
                                             m_keys.wake(), std::to_string(n)};
            for (size_t i = at; i < at + n; ++i)
                args.push_back(std::to_string(out.fires[i]));
            const Reply r = make(name, std::move(args), "backfill");
            changed = r.elements[1].toInteger() < 0;
            if (!changed) {
                out.serverNow = r.elements[0].toInteger();
                made += r.elements[1].toInteger();
            }
        }
        if (changed)
            continue; // the rule changed: plan again from it
        out.made = made;
        out.already = static_cast<long long>(out.fires.size()) - made;
        return out;
    }
    throw Error(ErrorCode::Exists,
                "schedule '" + name + "' kept changing under other clients: try again");
}

Reply Schedules::make(const std::string& name, std::vector<std::string> args, const char* what)
{
    if (m_connection.options().readOnly)
        throw Error(ErrorCode::NoPermission, std::string("cannot ") + what + " schedule '" + name +
                                                 "' on queue '" + m_keys.queue() +
                                                 "': this session is read-only");
    Queue queue(m_connection, m_keys.queue(), m_keys.prefix());
    args.push_back(queue.actorArg());
    Reply r;
    try {
        r = m_connection.evalScript(scripts::scheduleMake, queue.scriptKeys(), args);
    } catch (const Error& e) {
        if (e.code() != ErrorCode::NotFound)
            throw;
        throw Error(ErrorCode::NotFound,
                    "no schedule '" + name + "' on queue '" + m_keys.queue() + "'");
    }
    if (!r.isArray() || r.elements.size() != 3)
        throw Error(ErrorCode::Protocol, "unexpected reply from schedule_make");
    return r;
}

} // namespace delayq
