#pragma once

#include <delayq/connection.h>

#include <chrono>
#include <string>

namespace delayq {

class WorkerContext;

// Keeps this worker listed in its queue's worker registry (heartbeat.lua, docs/design.md,
// "Workers"), or for a plain key in that key's registry (PlainKeys; its handler field says
// "lease:KIND" for a forwarder, at least once, or "pop:KIND", at most once): a beat at start and
// then every heartbeatInterval from the Upkeep thread (a plain key's worker: its beat thread), with
// what the worker holds and did, and a leave at a clean stop. A worker that dies stops beating; readers show it gone after
// WorkerRegistry::kLiveIntervals missed beats.
class Heartbeat
{
public:
    using Clock = std::chrono::steady_clock;

    explicit Heartbeat(WorkerContext& context);

    // Beats when the next beat is due (the first one at once). A refusal is reported as an
    // event and tried again an interval later; only a lost connection is thrown.
    void beatIfDue(Connection& connection);
    Clock::time_point nextBeat() const { return m_nextBeat; }
    // Removes this worker from the registry; an error is reported, never thrown (the worker
    // is stopping anyway, and its entry then turns gone on its own).
    void leave(Connection& connection);

private:
    // Throws Error.
    void beat(Connection& connection, long long intervalMs);
    std::string record(long long nowMs);

    WorkerContext& m_context;
    std::string m_listed;     // the queue's name, or the plain key's
    std::string m_listKey;    // where m_listed is listed: Keys::queues, PlainKeys::plainKeys
    std::string m_workersKey; // the registry
    std::string m_recordsKey;
    Clock::time_point m_nextBeat;
    long long m_startedMs = 0; // server clock, at the first beat
    long long m_acked = 0;     // at the last beat
    long long m_lastAckMs = 0; // the server's now at the beat that first saw m_acked
};

} // namespace delayq
