#include "worker/leasekeeper.h"
#include "worker/workercontext.h"

#include <QTest>

using namespace delayq;

namespace {

ClaimResult claimOf(const std::string& id, const std::string& token)
{
    ClaimResult claim;
    claim.serverNow = 1'000;
    ClaimedTask task;
    task.id = id;
    task.token = token;
    task.attempts = 1;
    task.leaseDeadline = 31'000;
    claim.tasks.push_back(task);
    return claim;
}

} // namespace

// The tasks one worker holds between claim and outcome (core/worker/leasekeeper.h), without Redis.
class TestLeaseKeeper : public QObject
{
    Q_OBJECT

private slots:
    // One thread nacks x, and another thread of the same worker claims x again before the
    // first has forgotten it. The first one's forget must leave the second one's hold, or the
    // second thread skips x as if an abort had handed it back, and x sits active and unrun
    // until its lease runs out (what made tst_audit wait 30 s now and then).
    void aTaskClaimedAgainKeepsItsNewHold()
    {
        WorkerContext context(WorkerOptions{}, {}, {}, {});
        LeaseKeeper leases(context);
        const ClaimResult first = claimOf("x", "first-claim");
        leases.hold(first);
        QVERIFY(leases.startRunning(first.tasks[0]));
        QVERIFY(leases.startFinishing(first.tasks[0]));

        const ClaimResult second = claimOf("x", "second-claim");
        leases.hold(second);
        leases.forget(first.tasks[0]);
        QVERIFY(leases.startRunning(second.tasks[0]));
        QVERIFY(leases.startFinishing(second.tasks[0]));

        leases.forget(second.tasks[0]);
        QVERIFY(!leases.startRunning(second.tasks[0]));
    }

    // A task's outcome is sent only for the claim that holds it.
    void anotherClaimsTokenIsNotHeld()
    {
        WorkerContext context(WorkerOptions{}, {}, {}, {});
        LeaseKeeper leases(context);
        leases.hold(claimOf("x", "held"));
        QVERIFY(!leases.startRunning(claimOf("x", "other").tasks[0]));
        QVERIFY(leases.startRunning(claimOf("x", "held").tasks[0]));
    }
};

QTEST_MAIN(TestLeaseKeeper)
#include "tst_leasekeeper.moc"
