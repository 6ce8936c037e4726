#pragma once

#include "worksource.h"
#include <delayq/plainqueue.h>

#include <memory>

namespace delayq {

class WorkerContext;

// A plain sorted set as a worker thread's work source (docs/design.md, "Plain sorted-set
// queues"): pops due members atomically (optionally forwarding them to a list), so there is
// no lease and nothing to ack; a failed member is dropped unless plainRetryMs adds it back,
// and an unrun one is put back at its old due time. Delivery is at most once.
class PlainWorkSource final : public WorkSource
{
public:
    PlainWorkSource(WorkerContext& context, Connection& connection);

    void prepare() override;
    ClaimResult take(int want) override;
    bool beginRun(const ClaimedTask&) override { return true; }
    bool endRun(const ClaimedTask&, long long) override { return true; }
    void flush(std::deque<FinishedTask>& finishing) override;
    void giveBack(const ClaimedTask& task, long long lateness, const char* why) override;
    void forget(const ClaimedTask&) override {}

private:
    WorkerContext& m_context;
    Connection& m_connection;
    std::unique_ptr<PlainQueue> m_plain; // made in prepare(): it asks Redis for the key's type
};

} // namespace delayq
