// The Redis round trips of the app's cancel, reschedule and page load (issue 50), counted by a
// proxy between the app's connection and the suite's own redis-server, with the commands each
// sent (INFO commandstats). Each action is made as the app makes it (ui/client: IoWorker::
// queueFor builds a fresh NativeTaskQueue for every request on the session's one Connection):
// page load = TaskRequests::pages (the set's size, then one page), cancel and reschedule =
// the queue's own call. The goal: one request is one round trip, apart from what the result
// needs (a page reads its members, then their records).
#include "client/nativetaskqueue.h"
#include "client/taskrequests.h"
#include "redissuite.h"
#include "roundtripproxy.h"
#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/script.h>
#include <delayq/shardmover.h>

#include <QTest>

#include <chrono>
#include <thread>

using namespace delayq;

class TestRoundTrips : public RedisSuite
{
    Q_OBJECT

private slots:
    void appActions_data();
    void appActions();

private:
    long long commandsSent(Connection& admin);
};

long long TestRoundTrips::commandsSent(Connection& admin)
{
    const std::string info = admin.command({"INFO", "stats"}).str;
    const std::string field = "total_commands_processed:";
    const auto at = info.find(field);
    return at == std::string::npos ? -1 : std::stoll(info.substr(at + field.size()));
}

void TestRoundTrips::appActions_data()
{
    QTest::addColumn<int>("shards");
    QTest::addColumn<int>("goalPage");   // ZCARD; ZRANGE; the records
    QTest::addColumn<int>("goalAction"); // the script call
    QTest::newRow("unsharded") << 1 << 3 << 1;
    QTest::newRow("3 shards") << 3 << 3 << 1;
}

void TestRoundTrips::appActions()
{
    QFETCH(int, shards);
    QFETCH(int, goalPage);
    QFETCH(int, goalAction);
    Connection admin(
        ConnectionOptions::fromUrl("redis://127.0.0.1:" + std::to_string(m_server.port())));
    Queue setup(admin, "trips");
    std::vector<PushRequest> tasks(30);
    for (size_t i = 0; i < tasks.size(); ++i) {
        tasks[i].id = "t" + std::to_string(i);
        tasks[i].payload = "{}";
        tasks[i].delayMs = 3600000;
    }
    setup.pushBatch(tasks);
    if (shards > 1) {
        ShardMover mover(setup);
        for (MoveProgress p = mover.start(shards); !p.finished; p = mover.step(50))
            std::this_thread::sleep_for(std::chrono::milliseconds(p.waitMs));
    }

    // A server that has not seen a script answers its first EVALSHA with NOSCRIPT (one round
    // trip more, once per server): loaded here, as on a server in use.
    for (const Script* script : {&scripts::cancel, &scripts::reschedule})
        admin.command({"SCRIPT", "LOAD", std::string(script->source)});

    RoundTripProxy proxy(m_server.port());
    Connection app(ConnectionOptions::fromUrl("redis://127.0.0.1:" + std::to_string(proxy.port())));
    // The session's first look at the queue: IoWorker::nativeQueue checks its layout once,
    // and the counts come first. That first read learns the shards (a guess of one shard
    // corrected in a second round trip); the requests measured come after it.
    // Its first page also reads the record table's state (RecordReads keeps it per queue for
    // the process): one round trip more, once.
    Queue(app, "trips").requireCurrentLayout();
    ui::NativeTaskQueue(app, "trips", "dq").counts();
    {
        ui::NativeTaskQueue q(app, "trips", "dq");
        ui::PageResult first;
        first.set = TaskSet::Pending;
        ui::TaskRequests::pages(q, {0}, 100, first);
    }

    struct Measure
    {
        const char* what;
        std::function<void()> run;
        int goal;
    };
    const std::vector<Measure> actions = {
        {"page load",
         [&] {
             ui::NativeTaskQueue q(app, "trips", "dq");
             ui::PageResult result;
             result.set = TaskSet::Pending;
             ui::TaskRequests::pages(q, {0}, 100, result);
             QCOMPARE(result.pages.value(0).size(), 30);
         },
         goalPage},
        {"cancel",
         [&] {
             ui::NativeTaskQueue q(app, "trips", "dq");
             QCOMPARE(q.cancel({"t7"}).front().status, IdResult::Status::Done);
         },
         goalAction},
        {"reschedule",
         [&] {
             ui::NativeTaskQueue q(app, "trips", "dq");
             QCOMPARE(q.reschedule({"t8"}, std::nullopt, 60000).front().status,
                      IdResult::Status::Done);
         },
         goalAction},
    };
    // All measured and printed first, then compared: a failure shows every count.
    std::vector<long long> taken;
    for (const auto& action : actions) {
        const long long trips = proxy.roundTrips();
        const long long commands = commandsSent(admin);
        action.run();
        if (QTest::currentTestFailed())
            return;
        taken.push_back(proxy.roundTrips() - trips);
        const long long commandsTaken = commandsSent(admin) - commands - 1; // less the first INFO
        qInfo("%d shard(s), %s: %lld round trips, %lld commands (the scripts' own calls included)",
              shards, action.what, taken.back(), commandsTaken);
    }
    for (size_t i = 0; i < actions.size(); ++i)
        QCOMPARE(taken[i], static_cast<long long>(actions[i].goal));
}

QTEST_GUILESS_MAIN(TestRoundTrips)
#include "tst_roundtrips.moc"
