#include <delayq/task.h>

#include <QTest>

using namespace delayq;

// The stable words the CLI prints and scripts match on; they must equal the Lua scripts'.
class TestTask : public QObject
{
    Q_OBJECT

private slots:
    void setNames()
    {
        QCOMPARE(taskSetName(TaskSet::Pending), "pending");
        QCOMPARE(taskSetName(TaskSet::Active), "active");
        QCOMPARE(taskSetName(TaskSet::Dead), "dead");
    }

    void pushStatusNames()
    {
        QCOMPARE(pushStatusName(PushResult::Status::Created), "created");
        QCOMPARE(pushStatusName(PushResult::Status::Exists), "exists");
        QCOMPARE(pushStatusName(PushResult::Status::Replaced), "replaced");
        QCOMPARE(pushStatusName(PushResult::Status::TooLarge), "too_large");
        QCOMPARE(pushStatusName(PushResult::Status::Active), "active");
    }

    void idStatusNames()
    {
        QCOMPARE(idStatusName(IdResult::Status::Done), "done");
        QCOMPARE(idStatusName(IdResult::Status::NotFound), "not_found");
        QCOMPARE(idStatusName(IdResult::Status::Active), "active");
        QCOMPARE(idStatusName(IdResult::Status::Dead), "dead");
        QCOMPARE(idStatusName(IdResult::Status::Pending), "pending");
    }

    void defaults()
    {
        // The defaults the scripts fall back to (lua/common.lua, push.lua, claim.lua).
        const QueueConfig c;
        QCOMPARE(c.maxAttempts, 5);
        QCOMPARE(c.backoff, std::string("5000,20000,30000"));
        QCOMPARE(c.leaseMs, 30000LL);
        QCOMPARE(c.maxPayload, 1024LL * 1024);
        QVERIFY(!c.paused);
        const PushRequest r;
        QVERIFY(!r.dueAtMs);
        QCOMPARE(r.delayMs, 0LL);
        QVERIFY(!r.replace);
    }
};

QTEST_GUILESS_MAIN(TestTask)
#include "tst_task.moc"
