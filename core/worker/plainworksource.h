#pragma once

#include "worker/worksource.h"
#include <delayq/plainfailures.h>
#include <delayq/plainqueue.h>

#include <memory>

namespace delayq {

class WorkerContext;

// A plain sorted set as a worker thread's work source (docs/design.md, "Plain sorted-set
// queues"), in one of two modes:
// - with a Handler: pops due members atomically (optionally forwarding them to a list), so
//   there is no lease and nothing to ack; a failed member is dropped unless plainRetryMs adds
//   it back, and an unrun one is put back at its old due time. At most once.
// - with a Delivery (WorkerContext::hasDelivery()): leases due members in place (their score
//   moved to the lease's end) and settles each once the target answered: removed when it
//   confirmed, moved to its retry time when it failed, back to its old due time when it was
//   never sent. A worker that dies leaves them at the lease's end: at least once.
class PlainWorkSource final : public WorkSource
{
public:
    PlainWorkSource(WorkerContext& context, Connection& connection);

    // Why a worker refuses a plain key whose unit is neither given nor readable from a score.
    static std::string unknownUnitText(const std::string& key);

    void prepare() override;
    ClaimResult take(int want) override;
    bool beginRun(const ClaimedTask&) override { return true; }
    bool endRun(const ClaimedTask&, long long) override { return true; }
    void flush(std::deque<FinishedTask>& finishing) override;
    void giveBack(const ClaimedTask& task, long long lateness, const char* why) override;
    void forget(const ClaimedTask&) override {} // the pop took it, or its lease runs out

private:
    void flushPopped(std::deque<FinishedTask>& finishing);
    void flushLeased(std::deque<FinishedTask>& finishing);
    // A leased member's new due time after the target's answer; empty: remove it.
    std::optional<long long> dueAfter(const HandlerResult& result, long long now) const;
    long long leaseMs() const;
    // Leased members found parked (a park that died between its copy and the removal from
    // the key, or a requeue that died before leaving the parked set): removed from the key
    // without a delivery, so the park completes. Both vectors keep the others, in step.
    void finishParks(std::vector<PlainQueue::Member>& members, const std::string& leaseScore,
                     std::vector<PlainFailure>& failures);

    WorkerContext& m_context;
    Connection& m_connection;
    const bool m_leased;
    std::unique_ptr<PlainQueue> m_plain; // made in prepare(): it asks Redis for the key's type
    std::unique_ptr<PlainFailures> m_failures; // leased only: attempts, errors, parked members
};

} // namespace delayq
