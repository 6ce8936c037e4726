#pragma once

#include <delayq/queue.h>

#include <QTest>

#include <string>

// What the suites on a deployment (TLS, Sentinel, cluster) push and check the same way.

// Task `id` with the payload "payload of ID", due after delayMs.
inline delayq::PushRequest task(const std::string& id, long long delayMs = 0)
{
    delayq::PushRequest r;
    r.id = id;
    r.payload = "payload of " + id;
    r.delayMs = delayMs;
    return r;
}

// Claims the one task the queue holds (pushed as task(id)), acks it, and checks that nothing
// is left pending, active or dead.
inline void claimAndAckTheOnly(delayq::Queue& queue, const std::string& id,
                               const std::string& worker)
{
    const delayq::ClaimResult claim = queue.claim(10, 30000, worker);
    QCOMPARE(claim.tasks.size(), size_t(1));
    QCOMPARE(claim.tasks[0].payload, "payload of " + id);
    queue.ack(claim.tasks[0].id, claim.tasks[0].token);
    const delayq::QueueCounts counts = queue.counts();
    QCOMPARE(counts.pending + counts.active + counts.dead, 0LL);
}
