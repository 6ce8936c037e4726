#include "worker/heartbeat.h"

#include "worker/workercontext.h"
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/plainkeys.h>
#include <delayq/script.h>
#include <delayq/version.h>
#include <delayq/workerregistry.h>

#include <unistd.h>

namespace delayq {

namespace {

std::string hostName()
{
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || !host[0])
        return "?";
    std::string text = host;
    for (char& c : text)
        if (c == '|')
            c = '_'; // the record's separator; no real host name holds one
    return text;
}

} // namespace

Heartbeat::Heartbeat(WorkerContext& context) : m_context(context), m_nextBeat(Clock::now())
{
    const WorkerOptions& o = context.options();
    if (o.plainKey.empty()) {
        const Keys keys(o.prefix, o.queue);
        m_listed = o.queue;
        m_listKey = Keys::queues(o.prefix);
        m_workersKey = keys.workers();
        m_recordsKey = keys.workerRecords();
    } else {
        const PlainKeys keys(o.prefix, o.plainKey);
        m_listed = o.plainKey;
        m_listKey = PlainKeys::plainKeys(o.prefix);
        m_workersKey = keys.workers();
        m_recordsKey = keys.workerRecords();
    }
}

void Heartbeat::beatIfDue(Connection& connection)
{
    if (Clock::now() < m_nextBeat)
        return;
    const auto interval = m_context.options().heartbeatInterval;
    // Whatever happens, the next try is an interval away: a beat Redis refuses (an ACL user
    // without the registry's keys) must never send the Upkeep thread into its error backoff,
    // which would hold back the reaps and schedule fires that share the thread.
    m_nextBeat = Clock::now() + interval;
    try {
        beat(connection, interval.count());
    } catch (const Error& e) {
        if (e.code() == ErrorCode::Connection || e.code() == ErrorCode::Timeout)
            throw; // Redis is away: the reaps fail too, and the thread's backoff applies
        m_context.reportError(e);
    }
}

void Heartbeat::beat(Connection& connection, long long intervalMs)
{
    const long long nowMs = connection.serverNowMs(); // the local clock plus the measured offset
    const bool plain = !m_context.options().plainKey.empty();
    if (m_startedMs == 0 || plain) {
        // Listed among the queues (as a push lists it), so that a worker of a queue nobody
        // pushed to yet is found by `delayq workers` and the app. A plain key is listed at
        // every beat: the last of its workers to leave takes it off the list, and a worker
        // still running puts it back within a beat.
        connection.command({"SADD", m_listKey, m_listed});
        if (m_startedMs == 0)
            m_startedMs = nowMs;
    }
    connection.evalScript(
        scripts::heartbeat, {m_workersKey, m_recordsKey},
        {"beat", m_context.name(), std::to_string(WorkerRegistry::kLiveIntervals * intervalMs),
         std::to_string(WorkerRegistry::kGoneKeptIntervals * intervalMs), record(nowMs)});
}

void Heartbeat::leave(Connection& connection)
{
    if (m_startedMs == 0)
        return; // never listed
    try {
        connection.evalScript(scripts::heartbeat, {m_workersKey, m_recordsKey},
                              {"leave", m_context.name()});
        // The last worker of a plain key takes it off the list of keys with workers (a
        // native queue stays listed: it has tasks and settings of its own).
        if (!m_context.options().plainKey.empty() &&
            connection.command({"ZCARD", m_workersKey}).toInteger() == 0)
            connection.command({"SREM", m_listKey, m_listed});
    } catch (const Error& e) {
        m_context.reportError(e);
    }
}

std::string Heartbeat::record(long long nowMs)
{
    const WorkerOptions& options = m_context.options();
    const WorkerCounters counters = m_context.tally().counters();
    if (counters.acked > m_acked) {
        m_acked = counters.acked;
        m_lastAckMs = nowMs;
    }
    WorkerInfo info;
    info.startedMs = m_startedMs;
    info.intervalMs = options.heartbeatInterval.count();
    info.pid = ::getpid();
    info.threads = options.concurrency;
    info.held = counters.inFlight;
    info.acked = counters.acked;
    info.failed = counters.failed;
    info.lastAckMs = m_lastAckMs;
    info.latenessP99Ms = counters.latenessP99;
    info.version = DELAYQ_VERSION;
    info.handler = options.handlerKind.empty() ? (m_context.hasDelivery() ? "delivery" : "library")
                                               : options.handlerKind;
    if (!options.plainKey.empty()) // how it consumes, for `delayq stats --plain`
        info.handler = (m_context.hasDelivery() ? "lease:" : "pop:") + info.handler;
    for (char& c : info.handler)
        if (c == '|')
            c = '_';
    info.host = hostName();
    return workerRecordText(info);
}

} // namespace delayq
