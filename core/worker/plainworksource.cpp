#include "worker/plainworksource.h"

#include "worker/workercontext.h"
#include <delayq/error.h>

#include <string>
#include <utility>
#include <vector>

namespace delayq {

namespace {

// The lease of a plain member when the options ask for none of their own (0 means the
// queue's lease_ms for a native queue; a plain key has no settings).
constexpr long long kDefaultLeaseMs = 30000;

const char* const kLeftAlone =
    "; the member was rescheduled or taken again during its lease, so it is left as it is";

} // namespace

std::string PlainWorkSource::unknownUnitText(const std::string& key)
{
    return "plain key '" + key.substr(0, 200) +
           "' is empty, so its scores cannot say whether they are s or ms (a due time in s "
           "read as ms is decades overdue and would be delivered at once): give "
           "--score-unit s or --score-unit ms (WorkerOptions::plainUnit)";
}

PlainWorkSource::PlainWorkSource(WorkerContext& context, Connection& connection)
    : m_context(context), m_connection(connection), m_leased(context.hasDelivery())
{}

void PlainWorkSource::prepare()
{
    if (!m_plain) {
        const WorkerOptions& o = m_context.options();
        auto plain = std::make_unique<PlainQueue>(m_connection, o.plainKey, o.plainUnit);
        // An empty key cannot say its unit: taking members on a guess would deliver a score in
        // s read as ms (decades overdue) at once. Reported and tried again after a backoff, so
        // a library worker started before the first push starts once a member tells the unit.
        if (!plain->unitKnown())
            throw Error(ErrorCode::InvalidArgument, unknownUnitText(o.plainKey));
        m_plain = std::move(plain);
        if (m_leased)
            m_failures = std::make_unique<PlainFailures>(m_connection, o.prefix, o.plainKey);
    }
}

long long PlainWorkSource::leaseMs() const
{
    const long long ms = m_context.options().leaseMs;
    return ms > 0 ? ms : kDefaultLeaseMs;
}

ClaimResult PlainWorkSource::take(int want)
{
    // A pop or a lease in the shape of a claim: the member is the task's id and its payload;
    // a leased one carries its lease score as the token, for the settle.
    PlainQueue::PopResult popped = m_leased ? m_plain->lease(want, leaseMs())
                                            : m_plain->pop(want, m_context.options().forwardTo);
    ClaimResult claim;
    claim.nextDue = popped.nextDue;
    claim.serverNow = popped.serverNow;
    // A leased member's attempts so far, from its failures (a second read, on the slot of
    // delayq's own keys). Redis away: thrown, and the members come back at the lease's end. A
    // refusal (an ACL without delayq's keys) is reported, and the members go out as first
    // attempts: delivery must not depend on the bookkeeping.
    std::vector<PlainFailure> failures(popped.members.size());
    if (m_leased && !popped.members.empty()) {
        std::vector<std::string> names;
        names.reserve(popped.members.size());
        for (const auto& m : popped.members)
            names.push_back(m.member);
        try {
            failures = m_failures->read(names);
        } catch (const Error& e) {
            if (e.code() == ErrorCode::Connection || e.code() == ErrorCode::Timeout)
                throw;
            m_context.reportError(e);
            failures.assign(popped.members.size(), PlainFailure{});
        }
        finishParks(popped.members, popped.leaseScore, failures);
    }
    for (size_t i = 0; i < popped.members.size(); ++i) {
        PlainQueue::Member& m = popped.members[i];
        ClaimedTask t;
        t.id = m.member;
        t.payload = std::move(m.member);
        t.due = m.dueMs;
        t.attempts =
            m_leased ? static_cast<int>(std::min<long long>(failures[i].attempts + 1, 1LL << 30))
                     : 1;
        t.maxAttempts = m_leased ? m_context.options().plainMaxAttempts : 1;
        t.token = popped.leaseScore;
        t.leaseDeadline = popped.leaseUntil;
        claim.tasks.push_back(std::move(t));
    }
    return claim;
}

void PlainWorkSource::finishParks(std::vector<PlainQueue::Member>& members,
                                  const std::string& leaseScore,
                                  std::vector<PlainFailure>& failures)
{
    std::vector<PlainQueue::Member> keepMembers;
    std::vector<PlainFailure> keepFailures;
    std::vector<PlainQueue::Settlement> parks;
    for (size_t i = 0; i < members.size(); ++i) {
        if (failures[i].parkedMs) {
            parks.push_back({members[i].member, leaseScore, std::nullopt});
            continue;
        }
        keepMembers.push_back(std::move(members[i]));
        keepFailures.push_back(std::move(failures[i]));
    }
    members = std::move(keepMembers);
    failures = std::move(keepFailures);
    if (!parks.empty())
        m_plain->settle(parks); // only while it holds this lease: a producer's write wins
}

void PlainWorkSource::flush(std::deque<FinishedTask>& finishing)
{
    if (m_leased)
        flushLeased(finishing);
    else
        flushPopped(finishing);
}

void PlainWorkSource::flushPopped(std::deque<FinishedTask>& finishing)
{
    // The pop already removed every member: a success needs no ack. A failure is gone unless
    // a retry was asked for; a member that fails to go back stays first in the list, so the
    // flush repeated after a reconnect does it again (NX makes that harmless). A finished
    // task implies a pop, so m_plain exists.
    const long long retryMs = m_context.options().plainRetryMs;
    while (!finishing.empty()) {
        FinishedTask& f = finishing.front();
        WorkerEvent& event = f.event;
        event.outcome = TaskOutcome::Acked;
        if (f.result.kind == HandlerResult::Kind::Dead) {
            event.outcome = TaskOutcome::Dropped;
        } else if (f.result.kind == HandlerResult::Kind::Fail) {
            event.outcome = TaskOutcome::Dropped;
            if (retryMs >= 0) {
                const long long at = m_connection.serverNowMs() + retryMs;
                if (!m_plain->push({f.task.payload}, at).front())
                    event.error += " (pushed again meanwhile: that due time is kept)";
                event.outcome = TaskOutcome::Retried;
                event.retryAt = at;
            }
        }
        event.finished = m_connection.serverNowMs();
        WorkerEvent done = std::move(event);
        finishing.pop_front();
        m_context.taskFinished(done);
    }
}

std::optional<long long> PlainWorkSource::dueAfter(const HandlerResult& result, long long now) const
{
    switch (result.kind) {
    case HandlerResult::Kind::Ack:
    case HandlerResult::Kind::Dead: // the target said never again (a webhook's 410)
        return std::nullopt;
    default:
        break;
    }
    // A failure stays in the key: at the target's own retry time (Retry-After, a consumer's
    // "retry in"), else --retry-in, else one lease later (the lease is the retry delay).
    long long delay = result.retryDelayMs;
    if (delay < 0)
        delay = m_context.options().plainRetryMs;
    if (delay < 0)
        delay = leaseMs();
    return now + delay;
}

void PlainWorkSource::flushLeased(std::deque<FinishedTask>& finishing)
{
    const long long now = m_connection.serverNowMs();
    const int maxAttempts = m_context.options().plainMaxAttempts;
    // 1. Failures first, on delayq's own keys: each one's record, and a copy in the parked set
    //    for those out of attempts. A crash after this step leaves the member leased in the
    //    plain key: its record has counted the attempt, and a parked copy makes the next
    //    worker that leases it finish the park without delivering it again.
    std::vector<PlainFailure> failed;
    std::vector<PlainQueue::Settlement> settlements;
    settlements.reserve(finishing.size());
    for (const FinishedTask& f : finishing) {
        std::optional<long long> due = dueAfter(f.result, now);
        if (f.result.kind == HandlerResult::Kind::Fail) {
            PlainFailure record;
            record.member = f.task.payload;
            record.attempts = f.task.attempts;
            record.lastFailedMs = now;
            record.lastError = f.result.error;
            if (f.task.attempts >= maxAttempts) {
                record.parkedMs = now;
                due.reset(); // parked: it leaves the key
            }
            failed.push_back(std::move(record));
        }
        settlements.push_back({f.task.payload, f.task.token, due});
    }
    std::vector<bool> parking(finishing.size(), false);
    for (size_t i = 0; i < finishing.size(); ++i)
        parking[i] = finishing[i].result.kind == HandlerResult::Kind::Fail &&
                     finishing[i].task.attempts >= maxAttempts;
    try {
        m_failures->write(failed);
    } catch (const Error& e) {
        if (e.code() == ErrorCode::Connection || e.code() == ErrorCode::Timeout)
            throw; // tried again with the whole flush: nothing was settled
        // Refused (an ACL without delayq's keys): reported, and no member is parked without
        // its copy: those out of attempts are retried instead.
        m_context.reportError(e);
        for (size_t i = 0; i < finishing.size(); ++i)
            if (parking[i]) {
                parking[i] = false;
                settlements[i].newDueMs = dueAfter(finishing[i].result, now);
            }
    }
    // 2. One settle for all: each member leaves its lease only if it still holds it, so a
    //    repeat after a lost reply changes nothing it should not (it then reads as left
    //    alone).
    const std::vector<bool> done = m_plain->settle(settlements);
    // 3. What the settle decided: the records of members gone for good are forgotten, and a
    //    parked copy whose member stayed (rescheduled by its producer, taken again) removed.
    std::vector<std::string> forget;
    std::vector<std::string> unpark;
    std::vector<WorkerEvent> events;
    for (size_t i = 0; i < done.size(); ++i) {
        WorkerEvent event = std::move(finishing.front().event);
        const HandlerResult::Kind kind = finishing.front().result.kind;
        const int attempts = finishing.front().task.attempts;
        finishing.pop_front();
        if (!done[i]) {
            event.outcome = TaskOutcome::LeaseLost;
            event.error += kLeftAlone;
            if (parking[i])
                unpark.push_back(settlements[i].member);
        } else if (kind == HandlerResult::Kind::Ack) {
            event.outcome = TaskOutcome::Acked;
            if (attempts > 1)
                forget.push_back(settlements[i].member);
        } else if (parking[i]) {
            event.outcome = TaskOutcome::Dead;
            event.error += "; parked after " + std::to_string(attempts) +
                           " failed attempts (delayq ls --plain KEY --parked)";
        } else if (!settlements[i].newDueMs) {
            event.outcome = TaskOutcome::Dropped;
            if (attempts > 1)
                forget.push_back(settlements[i].member);
        } else {
            event.outcome = TaskOutcome::Retried;
            event.retryAt = *settlements[i].newDueMs;
        }
        events.push_back(std::move(event));
    }
    try {
        m_failures->forget(forget);
        m_failures->unpark(unpark);
    } catch (const Error& e) {
        // The outcomes stand: a stale record only counts too many attempts if the member is
        // pushed again, and a stale parked copy parks its member at its next lease (kept,
        // never lost).
        m_context.reportError(e);
    }
    for (WorkerEvent& event : events) {
        event.finished = m_connection.serverNowMs();
        m_context.taskFinished(event);
    }
}

void PlainWorkSource::giveBack(const ClaimedTask& task, long long lateness, const char* why)
{
    if (!m_plain)
        return; // nothing was popped
    WorkerEvent event = WorkSource::releasedEvent(task, lateness, why);
    if (m_leased) {
        // Never sent: back at its old due time, first in line for the next consumer.
        try {
            if (m_plain->settle({{task.payload, task.token, task.due}}).front())
                event.retryAt = task.due;
            else
                event.error += kLeftAlone;
        } catch (const Error& e) {
            event.error +=
                std::string("; putting it back failed (it is due again when its lease runs "
                            "out): ") +
                e.what();
        }
    } else if (!m_context.options().forwardTo.empty()) {
        // The pop already handed it to the list: putting it back would deliver it twice.
        event.outcome = TaskOutcome::Dropped;
        event.error += "; it was already forwarded, so it is not put back";
    } else {
        try {
            // At its old due time, so it is first in line for the next consumer.
            m_plain->push({task.payload}, task.due);
            event.retryAt = task.due;
        } catch (const Error& e) {
            event.outcome = TaskOutcome::Dropped;
            event.error += std::string("; putting it back failed: ") + e.what();
        }
    }
    event.finished = m_connection.serverNowMs();
    m_context.taskFinished(event);
}

} // namespace delayq
