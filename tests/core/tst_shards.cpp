#include "clustergroup.h"
#include "groupsuite.h"
#include "runcount.h"
#include "topologytasks.h"

#include <delayq/actor.h>
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/queuereader.h>
#include <delayq/queuesnapshot.h>
#include <delayq/script.h>
#include <delayq/shardmover.h>
#include <delayq/taskexport.h>
#include <delayq/taskimport.h>
#include <delayq/taskscan.h>
#include <delayq/worker.h>

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

using namespace delayq;

// Sharded queues (docs/design.md, "Sharded queues") on a real Redis Cluster of three masters
// and three replicas: one queue spread over the masters, read and operated as one; changed
// from 1 to 3 to 2 shards under running workers; a shard's master SIGKILLed mid-drain; the
// cross-shard ordering bound.
class TestShards : public GroupSuite
{
    Q_OBJECT

public:
    TestShards() : GroupSuite(m_group, "shards") {}

private slots:
    void shardsLandOnDifferentMasters();
    void oneQueueAcrossShards();
    void pagesMergeInDueOrder_data();
    void pagesMergeInDueOrder();
    void findExportAndImportSeeEveryShard();
    void aWorkerHearsEveryShardsWakeUps();
    void claimsKeepCrossShardOrder();
    void reshardingUnderWorkersLosesNothing();
    void aRefusedChangeChangesNothing();
    void tasksHeldThroughAReshardGoHome();
    void aMovedTaskKeepsItsStartByAndTags();
    void nothingMovesWhileProducersMayHoldTheOldLayout();
    void aMovedTaskKeepsItsOwnWindowAndDebounceStart();
    void aPushDuringAReshardSeesTheFormerHome();
    void aTaskAgainInItsNewHomeOutranksItsFormerHomesMemory();
    void aRefusedReplaceKeepsTheFormerHomesMemory();
    void anInterruptedMoveResumes_data();
    void anInterruptedMoveResumes();
    void leasesFollowTheirShardsToken();
    void shardMasterKilledMidDrain(); // last: it leaves one master dead

private:
    ConnectionOptions options() const { return ConnectionOptions::fromUrl(m_group.url()); }
    // A worker of two threads claiming 5 at a time, as the drains under change use.
    WorkerOptions drainer(const std::string& queue) const
    {
        WorkerOptions o;
        o.connection = options();
        o.queue = queue;
        o.concurrency = 2;
        o.batch = 5;
        return o;
    }
    // A fresh queue with `shards` shards.
    Queue sharded(Connection& connection, const std::string& name, int shards);
    // Steps a change to `count` shards to its end.
    static void reshard(Queue& queue, int count);

    ClusterGroup m_group;
};

Queue TestShards::sharded(Connection& connection, const std::string& name, int shards)
{
    Queue queue(connection, name);
    reshard(queue, shards);
    return queue;
}

void TestShards::reshard(Queue& queue, int count)
{
    ShardMover mover(queue);
    MoveProgress p = mover.start(count);
    while (!p.finished) {
        p = mover.step(50);
        // A pass that could move nothing (the settle time, tasks workers hold) says how long
        // to wait before the next.
        std::this_thread::sleep_for(std::chrono::milliseconds(p.waitMs));
        if (p.pass > 50)
            QFAIL("the move did not finish within 50 passes");
    }
    queue.reloadLayout();
}

void TestShards::shardsLandOnDifferentMasters()
{
    ConnectionOptions withActor = options();
    withActor.actor = Actor::ofThisProcess("delayq-test", "9.9.9");
    Connection connection(withActor);
    Queue queue = sharded(connection, "placed", 3);
    QCOMPARE(queue.layout().count, 3);
    // Starting the change is audited, once.
    const auto audit = queue.audit();
    QCOMPARE(audit.size(), size_t(1));
    QCOMPARE(audit[0].action, std::string("reshard"));
    QCOMPARE(audit[0].detail, std::string("1>3"));
    std::set<std::string> nodes;
    for (size_t s = 0; s < 3; ++s)
        nodes.insert(connection.nodeForKey(queue.shardKeys(s).pending()));
    QCOMPARE(nodes.size(), size_t(3));
    QCOMPARE(queue.config().shards, 3);
}

// Push spreads by id; counts, counters, the timeline and operations by id see one queue.
void TestShards::oneQueueAcrossShards()
{
    Connection connection(options());
    Queue queue = sharded(connection, "orders", 3);
    std::vector<PushRequest> requests;
    for (int i = 0; i < 60; ++i)
        requests.push_back(task("o" + std::to_string(i), 3'600'000 + i * 1000));
    const auto pushed = queue.pushBatch(requests);
    QCOMPARE(pushed.size(), size_t(60));
    for (const auto& r : pushed)
        QCOMPARE(r.status, PushResult::Status::Created);
    // Every shard got its share, each task its home shard.
    for (size_t s = 0; s < 3; ++s) {
        const long long here =
            connection.command({"ZCARD", queue.shardKeys(s).pending()}).toInteger();
        QVERIFY2(here > 5,
                 ("shard " + std::to_string(s) + " holds " + std::to_string(here)).c_str());
    }
    QCOMPARE(connection
                 .command({"ZSCORE", queue.shardKeys(size_t(queue.layout().homeOf("o7"))).pending(),
                           "o7"})
                 .isNil(),
             false);
    QCOMPARE(queue.counts().pending, 60LL);
    QCOMPARE(queue.size(TaskSet::Pending), 60LL);
    // The overview and the exporter (snapshots) and the queue list (summaries) too.
    const auto snapshot = QueueSnapshotReader(connection, "dq").read({"orders"}, true);
    QCOMPARE(snapshot.size(), size_t(1));
    QCOMPARE(snapshot[0].counts.pending, 60LL);
    QCOMPARE(snapshot[0].counters.at("pushed"), 60LL);
    QCOMPARE(Queue::summaries(connection, {"orders"}, "dq")[0].counts.pending, 60LL);
    QCOMPARE(queue.stats()["pushed"], 60LL);
    const long long now = connection.serverNowMs();
    const auto buckets = queue.histogram(now, now + 3'600'000 + 61'000, 2);
    QCOMPARE(buckets[0] + buckets[1], 60LL);
    QCOMPARE(queue.dueBy(now + 3'600'000 + 9'500), 10LL);

    const auto cancelled = queue.cancel({"o1", "o2", "nope"});
    QCOMPARE(cancelled[0].status, IdResult::Status::Done);
    QCOMPARE(cancelled[1].status, IdResult::Status::Done);
    QCOMPARE(cancelled[2].status, IdResult::Status::NotFound);
    QCOMPARE(queue.reschedule({"o3", "o4"}, std::nullopt, 0)[1].status, IdResult::Status::Done);
    QCOMPARE(queue.find("o3")->first, TaskSet::Pending);
    QCOMPARE(queue.find("o3")->second.payload, std::string("payload of o3"));

    // Claim and ack: the two rescheduled ones are due now, wherever their shards are. A claim
    // asks one shard (the next when that one has nothing due), so two claims take both.
    ClaimResult claim = queue.claim(10, 5000, "w");
    if (claim.tasks.size() == 1) {
        QCOMPARE(claim.nextDue, std::optional<long long>(claim.serverNow)); // "look again now"
        ClaimResult more = queue.claim(10, 5000, "w");
        claim.tasks.insert(claim.tasks.end(), more.tasks.begin(), more.tasks.end());
    }
    QCOMPARE(claim.tasks.size(), size_t(2));
    for (const auto& t : claim.tasks)
        QVERIFY2(t.token.rfind("s", 0) == 0, t.token.c_str());
    const std::vector<std::pair<std::string, std::string>> acks = {
        {claim.tasks[0].id, claim.tasks[0].token}, {claim.tasks[1].id, claim.tasks[1].token}};
    QVERIFY(queue.extend(acks, 10000)[0].has_value());
    QCOMPARE(queue.ack(acks), std::vector<bool>({true, true}));
    const Counters stats = queue.stats();
    QCOMPARE(stats.at("acked"), 2LL);
    QCOMPARE(stats.at("cancelled"), 2LL);
    QCOMPARE(queue.counts().pending, 56LL);

    // Settings reach every shard; the audit trail reads as one.
    queue.setConfig("max_attempts", "7");
    for (size_t s = 0; s < 3; ++s)
        QCOMPARE(connection.command({"HGET", queue.shardKeys(s).config(), "max_attempts"}).str,
                 std::string("7"));
    QCOMPARE(queue.purge().done, 56LL);
    QCOMPARE(queue.counts().pending, 0LL);
}

void TestShards::pagesMergeInDueOrder_data()
{
    QTest::addColumn<long long>("offset");
    QTest::addColumn<long long>("limit");
    QTest::newRow("first page") << 0LL << 25LL;
    QTest::newRow("a middle page (the rank seek)") << 37LL << 20LL;
    QTest::newRow("the last tasks") << 140LL << 50LL;
}

// Equal due times included: the merge orders them by id, as Redis does within a shard.
void TestShards::pagesMergeInDueOrder()
{
    QFETCH(long long, offset);
    QFETCH(long long, limit);
    Connection connection(options());
    Queue queue = sharded(connection, "paged", 3);
    if (queue.size(TaskSet::Pending) == 0) {
        std::vector<PushRequest> requests;
        const long long base = connection.serverNowMs() + 3'600'000;
        for (int i = 0; i < 150; ++i) {
            PushRequest r = task("p" + std::to_string(1000 + i));
            r.dueAtMs = base + (i / 3) * 1000; // three tasks a due time
            requests.push_back(r);
        }
        queue.pushBatch(requests);
    }
    std::vector<std::pair<long long, std::string>> expected;
    for (const auto& t : queue.pageFromScore(TaskSet::Pending, 0, 1000))
        expected.emplace_back(t.score, t.id);
    QCOMPARE(expected.size(), size_t(150));
    QVERIFY(std::is_sorted(expected.begin(), expected.end()));
    const auto page = queue.page(TaskSet::Pending, offset, limit);
    const size_t end = std::min(expected.size(), static_cast<size_t>(offset + limit));
    QCOMPARE(page.size(), end - static_cast<size_t>(offset));
    for (size_t i = 0; i < page.size(); ++i)
        QCOMPARE(page[i].id, expected[static_cast<size_t>(offset) + i].second);
    // The rank of a task is where the merged order has it.
    QCOMPARE(queue.rankOf(TaskSet::Pending, page.front().id), std::optional<long long>(offset));
    QCOMPARE(queue.rankOfScore(TaskSet::Pending, expected[static_cast<size_t>(offset)].first),
             offset - offset % 3);
    QCOMPARE(*queue.earliest(TaskSet::Pending), expected.front().first);
}

void TestShards::findExportAndImportSeeEveryShard()
{
    Connection connection(options());
    Queue queue = sharded(connection, "found", 3);
    std::vector<PushRequest> requests;
    for (int i = 0; i < 30; ++i) {
        PushRequest r = task("f" + std::to_string(i), 3'600'000);
        r.payload = i % 3 == 0 ? "needle " + std::to_string(i) : "hay";
        requests.push_back(r);
    }
    queue.pushBatch(requests);

    TaskFilter filter;
    filter.text = "needle";
    std::set<std::string> matched;
    ScanCursor cursor;
    for (int steps = 0; !cursor.done && steps < 100; ++steps) {
        // The cursor goes through its text form, as the app and the CLI hand it on.
        ScanStep step = TaskScan(queue).step(filter, cursor, 4);
        for (const auto& t : step.matches)
            matched.insert(t.id);
        const std::string text = step.cursor.toString();
        cursor = text.empty() ? step.cursor : ScanCursor::fromString(text);
    }
    QCOMPARE(matched.size(), size_t(10));
    QCOMPARE(TaskScan(queue).inRange(filter), 30LL);

    std::vector<Task> exported;
    TaskExport out(queue, {TaskSet::Pending, TaskSet::Dead}, 7);
    QCOMPARE(out.total(), 30LL);
    while (!out.atEnd())
        for (auto& t : out.next())
            exported.push_back(std::move(t));
    QCOMPARE(exported.size(), size_t(30));
    QCOMPARE(TaskExport::readIds(queue, {"f4", "nope", "f29"}).size(), size_t(2));

    // Into another 3-shard queue: each task lands in its home shard there.
    Queue copy = sharded(connection, "copied", 3);
    for (size_t i = 0; i < exported.size(); i += 10) {
        const std::vector<Task> some(exported.begin() + static_cast<long>(i),
                                     exported.begin() +
                                         static_cast<long>(std::min(i + 10, exported.size())));
        for (auto status : TaskImport(copy, false).importBatch(some))
            QCOMPARE(status, PushResult::Status::Created);
    }
    QCOMPARE(copy.counts().pending, 30LL);
    for (const auto& t : exported) {
        const size_t home = static_cast<size_t>(copy.layout().homeOf(t.id));
        QVERIFY(!connection.command({"ZSCORE", copy.shardKeys(home).pending(), t.id}).isNil());
    }
    queue.purge();
    copy.purge();
}

// A worker idle with a long poll interval still runs a task pushed to any shard at once:
// it listens to every shard's wake channel.
void TestShards::aWorkerHearsEveryShardsWakeUps()
{
    Connection connection(options());
    Queue queue = sharded(connection, "woken", 3);
    WorkerOptions o;
    o.connection = options();
    o.queue = "woken";
    o.pollInterval = std::chrono::milliseconds(60'000);
    std::mutex mutex;
    std::set<std::string> ran;
    Worker worker(o, [&](const ClaimedTask& t) {
        std::lock_guard lock(mutex);
        ran.insert(t.id);
        return HandlerResult::ack();
    });
    worker.start();
    QTest::qWait(300); // subscribed, asleep
    // One id whose home is each shard.
    std::vector<std::string> ids(3);
    for (int i = 0; i < 100; ++i) {
        const std::string id = "w" + std::to_string(i);
        ids[static_cast<size_t>(queue.layout().homeOf(id))] = id;
    }
    for (const auto& id : ids) {
        QVERIFY(!id.empty());
        queue.push(task(id, 200));
        QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                     std::lock_guard lock(mutex);
                                     return ran.count(id) == 1;
                                 }()),
                                 5000);
    }
    worker.stop();
}

// With a backlog in every shard, a worker visiting the shards in turn claims a task at most
// about one round of claims after a later-due task of another shard.
void TestShards::claimsKeepCrossShardOrder()
{
    constexpr int kTasks = 3000;
    Connection connection(options());
    Queue queue = sharded(connection, "ordered", 3);
    const long long base = connection.serverNowMs() - 60'000;
    std::vector<PushRequest> requests;
    for (int i = 0; i < kTasks; ++i) {
        PushRequest r = task("q" + std::to_string(i));
        r.dueAtMs = base + i; // 1 ms apart, all due
        requests.push_back(r);
    }
    queue.pushBatch(requests);
    WorkerOptions o;
    o.connection = options();
    o.queue = "ordered";
    o.batch = 10;
    o.maxBatch = 10;
    std::mutex mutex;
    std::vector<std::pair<long long, long long>> runs; // due, ran at (server ms)
    Worker worker(o, [&](const ClaimedTask& t) {
        const long long at = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
        std::lock_guard lock(mutex);
        runs.emplace_back(t.due, at);
        return HandlerResult::ack();
    });
    worker.start();
    QTRY_VERIFY_WITH_TIMEOUT(queue.counts().pending == 0 && queue.counts().active == 0, 60000);
    worker.stop();
    QCOMPARE(static_cast<int>(runs.size()), kTasks);
    // For each task: how long after the first run of any later-due task it ran.
    std::sort(runs.begin(), runs.end());
    long long firstLater = LLONG_MAX;
    long long worst = 0;
    for (size_t i = runs.size(); i-- > 0;) {
        if (firstLater != LLONG_MAX)
            worst = std::max(worst, runs[i].second - firstLater);
        firstLater = std::min(firstLater, runs[i].second);
    }
    qInfo("cross-shard ordering: a task ran at most %lld ms after a later-due one "
          "(3 shards, batch 10, %d tasks)",
          worst, kTasks);
    // About one round of claims over the three shards (13 ms measured here), with room for a
    // sanitized build on a busy machine; draining the shards one after the other would take
    // over a second.
    QVERIFY2(worst <= 500, std::to_string(worst).c_str());
}

// 1 -> 3 -> 2 shards while two workers drain: every task acked exactly once in the counters,
// none left anywhere, the retired shard empty.
void TestShards::reshardingUnderWorkersLosesNothing()
{
    constexpr int kTasks = 1200;
    Connection connection(options());
    Queue queue(connection, "moving");
    std::vector<PushRequest> requests;
    for (int i = 0; i < kTasks; ++i)
        requests.push_back(task("m" + std::to_string(i), 500 + (i % 40) * 100)); // over 4.5 s
    queue.pushBatch(requests);
    RunCount runs;
    WorkerOptions o = drainer("moving");
    o.pollInterval = std::chrono::milliseconds(100);
    Worker worker(o, [&](const ClaimedTask& t) {
        runs.add(t.id);
        return HandlerResult::ack();
    });
    worker.start();
    reshard(queue, 3);
    QCOMPARE(queue.layout().count, 3);
    QCOMPARE(queue.layout().moving(), false);
    reshard(queue, 2);
    QCOMPARE(queue.layout().count, 2);
    QTRY_VERIFY_WITH_TIMEOUT(runs.drained(queue, kTasks), 30000);
    worker.stop();
    const Counters stats = queue.stats();
    QCOMPARE(stats.at("pushed"), static_cast<long long>(kTasks));
    QCOMPARE(stats.at("acked"), static_cast<long long>(kTasks));
    QCOMPARE(runs.twice(), 0);
    QCOMPARE(queue.shardCount(), size_t(3)); // shard 2 retired, still looked at
    for (const auto& key : {queue.shardKeys(2).pending(), queue.shardKeys(2).active(),
                            queue.shardKeys(2).dead(), queue.shardKeys(0).moving()})
        QCOMPARE(connection.command({"EXISTS", key}).toInteger(), 0LL);
    qInfo("moved %lld tasks over the two changes", queue.layout().moved);
}

void TestShards::aRefusedChangeChangesNothing()
{
    Connection connection(options());
    Queue queue(connection, "refused");
    queue.push(task("r1", 3'600'000));
    QVERIFY_THROWS_EXCEPTION(Error, ShardMover(queue).start(0));
    QVERIFY_THROWS_EXCEPTION(Error, ShardMover(queue).start(65));
    QVERIFY_THROWS_EXCEPTION(Error, queue.setConfig("shards", "3"));
    ShardMover mover(queue);
    mover.start(3); // not stepped: the move is under way
    try {
        ShardMover(queue).start(2);
        QFAIL("a second change while one is under way was taken");
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::InvalidArgument);
        QVERIFY2(std::string(e.what()).find("--shards 3") != std::string::npos, e.what());
    }
    QCOMPARE(queue.reloadLayout().count, 3);
    reshard(queue, 3); // the same count resumes it
    QCOMPARE(queue.find("r1")->first, TaskSet::Pending);
    queue.purge();
}

// A worker holds every task while the queue goes from 1 to 3 shards, then nacks them: the
// reshard waits for them instead of finishing with them outside their home, so afterwards an
// nx push of the same ids creates nothing and a drain runs each once. (It used to report
// "0 tasks moved", leave about 70 of 100 outside their home for good, and let a re-push make
// a second copy of each.)
void TestShards::tasksHeldThroughAReshardGoHome()
{
    Connection connection(options());
    Queue queue(connection, "held");
    std::vector<PushRequest> requests;
    for (int i = 0; i < 100; ++i)
        requests.push_back(task("h" + std::to_string(i), 0));
    queue.pushBatch(requests);
    const ClaimResult claimed = queue.claim(100, 60'000, "holder");
    QCOMPARE(claimed.tasks.size(), size_t(100));
    ShardMover mover(queue);
    MoveProgress p = mover.start(3);
    long long held = 0;
    while (p.pass < 3 && !p.finished) {
        p = mover.step(100);
        held = std::max(held, p.held);
    }
    QVERIFY2(!p.finished, "the reshard finished while a worker held tasks outside their home");
    QVERIFY2(held > 50, std::to_string(held).c_str());
    for (const auto& t : claimed.tasks)
        queue.nack(t.id, t.token, "not now", 0);
    reshard(queue, 3);
    for (int i = 0; i < 100; ++i) {
        const std::string id = "h" + std::to_string(i);
        const size_t home = static_cast<size_t>(queue.layout().homeOf(id));
        QVERIFY2(!connection.command({"ZSCORE", queue.shardKeys(home).pending(), id}).isNil(),
                 (id + " is not in its home shard").c_str());
    }
    for (const auto& r : queue.pushBatch(requests))
        QCOMPARE(r.status, PushResult::Status::Exists);
    QCOMPARE(queue.counts().pending, 100LL);
    std::set<std::string> ran;
    for (int round = 0; round < 50 && ran.size() < 100; ++round)
        for (const auto& t : queue.claim(100, 60'000, "drainer").tasks) {
            QVERIFY2(ran.insert(t.id).second, (t.id + " ran twice").c_str());
            queue.ack(t.id, t.token);
        }
    QCOMPARE(ran.size(), size_t(100));
}

// For kSettleMs after a change starts, a producer may still push by its copy of the old layout
// (read again once over a second old) to a task's old home: a step then moves nothing and
// says how long to wait, so such a push still finds the task (and a remembered id) there.
void TestShards::nothingMovesWhileProducersMayHoldTheOldLayout()
{
    Connection connection(options());
    Queue queue(connection, "settle");
    std::vector<PushRequest> requests;
    for (int i = 0; i < 30; ++i)
        requests.push_back(task("s" + std::to_string(i), 600'000));
    queue.pushBatch(requests);
    Queue stale(connection, "settle");
    (void)stale.layout(); // a producer's copy, read before the change
    ShardMover mover(queue);
    mover.start(3);
    const MoveProgress p = mover.step(100);
    QVERIFY(!p.finished);
    QCOMPARE(p.moved, 0LL);
    QVERIFY2(p.waitMs > 0 && p.waitMs <= ShardMover::kSettleMs, std::to_string(p.waitMs).c_str());
    QCOMPARE(connection.command({"ZCARD", queue.shardKeys(0).pending()}).toInteger(), 30LL);
    // The stale producer's nx pushes, by the old layout, find every task where it is.
    for (const auto& r : stale.pushBatch(requests))
        QCOMPARE(r.status, PushResult::Status::Exists);
    reshard(queue, 3);
    QCOMPARE(queue.counts().pending, 30LL);
}

// A task a reshard moves keeps its own start-by time and its fair-order tags (shard_take hands
// them to import_tasks): it lost both, so a moved task could run after its start-by time (the
// model check found one handed out 481 ms after it).
void TestShards::aMovedTaskKeepsItsStartByAndTags()
{
    Connection connection(options());
    Queue queue(connection, "keepsit");
    queue.setConfig("order", "fair"); // tags are pushed in fair order, on one shard
    const long long startBy = connection.serverTimeMs() + 3'600'000;
    std::vector<PushRequest> requests;
    for (int i = 0; i < 60; ++i) {
        PushRequest r = task("k" + std::to_string(i), 600'000);
        r.expiresAtMs = startBy + i;
        r.priority = i % 19 - 9;
        r.group = "g" + std::to_string(i % 4);
        requests.push_back(r);
    }
    queue.pushBatch(requests);
    queue.setConfig("order", "due"); // a sharded queue takes due order only; the tags stay
    reshard(queue, 3);
    const std::vector<Task> tasks =
        QueueReader(connection, "keepsit").page(TaskSet::Pending, 0, 100);
    QCOMPARE(tasks.size(), size_t(60));
    std::set<size_t> homes;
    for (const Task& t : tasks) {
        const int i = std::stoi(t.id.substr(1));
        homes.insert(static_cast<size_t>(queue.layout().homeOf(t.id)));
        QVERIFY2(t.expiresAt && *t.expiresAt == startBy + i, (t.id + ": start-by lost").c_str());
        QCOMPARE(t.priority, i % 19 - 9);
        QCOMPARE(QString::fromStdString(t.group), QStringLiteral("g%1").arg(i % 4));
    }
    QCOMPARE(homes.size(), size_t(3)); // moved: every shard holds some of them
}

// A task a reshard moves keeps its own dedup window and its debounce start (shard_take answers
// them, the mover writes them in the target shard): the copy started without them, so a task
// pushed with its own window was remembered for the queue's (here none) and a re-push after
// its ack ran it again; a debounced push after the move counted the maximum wait from itself.
void TestShards::aMovedTaskKeepsItsOwnWindowAndDebounceStart()
{
    Connection connection(options());
    Queue queue(connection, "keepown");
    constexpr int kTasks = 40;
    constexpr long long kFirstDelay = 600'000, kMaxWait = 1'200'000;
    std::vector<PushRequest> own, debounced;
    for (int i = 0; i < kTasks; ++i) {
        own.push_back(task("o" + std::to_string(i), 0));
        own.back().dedupMs = 3'600'000;
        debounced.push_back(task("b" + std::to_string(i), kFirstDelay));
        debounced.back().debounceMaxWaitMs = kMaxWait;
    }
    for (const auto& r : queue.pushBatch(own))
        QCOMPARE(r.status, PushResult::Status::Created);
    std::map<std::string, long long> firstDue;
    for (const auto& r : queue.pushBatch(debounced)) {
        QCOMPARE(r.status, PushResult::Status::Created);
        firstDue[r.id] = r.due;
    }
    reshard(queue, 3); // takes kSettleMs (2 s) at least: the wait's start is measurable
    int movedOwn = 0, movedDebounced = 0;
    for (int i = 0; i < kTasks; ++i) {
        movedOwn += queue.layout().homeOf("o" + std::to_string(i)) != 0;
        movedDebounced += queue.layout().homeOf("b" + std::to_string(i)) != 0;
    }
    QVERIFY2(movedOwn > 0 && movedDebounced > 0, "no task moved");

    // The debounce start stayed: pushed again to an hour from now, each is capped at its first
    // push + the maximum wait (its first due + 10 min), not at this push + the maximum wait.
    for (auto& r : debounced)
        r.delayMs = 3'600'000;
    for (const auto& r : queue.pushBatch(debounced)) {
        QCOMPARE(r.status, PushResult::Status::Debounced);
        const long long expected = firstDue.at(r.id) + (kMaxWait - kFirstDelay);
        QVERIFY2(std::llabs(r.due - expected) < 500,
                 (r.id + " (home shard " + std::to_string(queue.layout().homeOf(r.id)) +
                  ") is due " + std::to_string(r.due - expected) +
                  " ms after its first push + the maximum wait")
                     .c_str());
    }

    // The own window stayed: acked, each id is refused for it, on a queue without a window.
    QVERIFY(connection.command({"HGET", queue.keys().config(), "dedup_window"}).isNil());
    std::set<std::string> acked;
    for (int round = 0; round < 50 && acked.size() < size_t(kTasks); ++round)
        for (const auto& t : queue.claim(100, 60'000, "w").tasks) {
            QVERIFY2(t.id.front() == 'o', (t.id + " was due").c_str());
            queue.ack(t.id, t.token);
            acked.insert(t.id);
        }
    QCOMPARE(acked.size(), size_t(kTasks));
    for (auto& r : own)
        r.dedupMs = 0;
    for (const auto& r : queue.pushBatch(own))
        QVERIFY2(r.status == PushResult::Status::RecentlyDone,
                 (r.id + " (home shard " + std::to_string(queue.layout().homeOf(r.id)) +
                  ") answered " + pushStatusName(r.status))
                     .c_str());
    QCOMPARE(queue.counts().pending, static_cast<long long>(kTasks)); // the debounced ones
}

// While a reshard is under way, a task not moved yet is in its former home: an nx push of its
// id answers exists and changes nothing, and a replace leaves exactly one copy, the new one.
// (An nx push used to create a second copy in the new home, which the move then kept in
// place of the original: nx behaved like replace.)
// During a reshard an id's former home may still remember it as done (its dedup window) while
// its task exists again in its new home (requeued from dead, then moved before the remembered
// id was): a push of it answers for that task, as on a steady layout, not recently_done.
void TestShards::aTaskAgainInItsNewHomeOutranksItsFormerHomesMemory()
{
    Connection connection(options());
    Queue queue(connection, "again");
    ShardMover mover(queue);
    mover.start(3);
    queue.reloadLayout();
    std::string id;
    for (int i = 0; id.empty(); ++i) {
        const std::string candidate = "a" + std::to_string(i);
        if (queue.layout().homeOf(candidate) != queue.layout().formerHomeOf(candidate))
            id = candidate;
    }
    PushRequest debounced = task(id, 60'000);
    debounced.debounceMaxWaitMs = 3'600'000;
    QCOMPARE(queue.push(debounced).status, PushResult::Status::Created); // in its new home
    const size_t former = static_cast<size_t>(queue.layout().formerHomeOf(id));
    const long long until = connection.serverTimeMs() + 3'600'000;
    connection.command({"ZADD", queue.shardKeys(former).recentlyDone(), std::to_string(until), id});
    debounced.delayMs = 120'000;
    QCOMPARE(queue.push(debounced).status, PushResult::Status::Debounced);
    PushRequest plain = task(id, 0);
    QCOMPARE(queue.push(plain).status, PushResult::Status::Exists);
    reshard(queue, 3);
}

// During a reshard, a replace of an id its former home remembers as done, refused in the new
// home because a worker holds the task there (active), changes nothing: the former home still
// remembers the id. A replace that succeeds forgets it there.
void TestShards::aRefusedReplaceKeepsTheFormerHomesMemory()
{
    Connection connection(options());
    Queue queue(connection, "refusedreplace");
    ShardMover mover(queue);
    mover.start(3);
    queue.reloadLayout();
    std::string id;
    for (int i = 0; id.empty(); ++i) {
        const std::string candidate = "r" + std::to_string(i);
        if (queue.layout().homeOf(candidate) != queue.layout().formerHomeOf(candidate))
            id = candidate;
    }
    const Keys former = queue.shardKeys(static_cast<size_t>(queue.layout().formerHomeOf(id)));
    QCOMPARE(queue.push(task(id, 0)).status, PushResult::Status::Created);
    QCOMPARE(queue.claim(1, 60'000, "w").tasks.size(), size_t(1));
    const std::string until = std::to_string(connection.serverTimeMs() + 3'600'000);
    connection.command({"ZADD", former.recentlyDone(), until, id});
    PushRequest replace = task(id, 0);
    replace.replace = true;
    QCOMPARE(queue.push(replace).status, PushResult::Status::Active);
    QVERIFY2(!connection.command({"ZSCORE", former.recentlyDone(), id}).isNil(),
             "a refused replace forgot the former home's window");
    // Once the task is gone, a replace goes through and forgets it there.
    queue.cancel({id}, true);
    QCOMPARE(queue.push(replace).status, PushResult::Status::Created);
    QVERIFY(connection.command({"ZSCORE", former.recentlyDone(), id}).isNil());
    reshard(queue, 3);
}

void TestShards::aPushDuringAReshardSeesTheFormerHome()
{
    Connection connection(options());
    Queue queue(connection, "former");
    std::vector<PushRequest> v1, v2;
    for (int i = 0; i < 200; ++i) {
        const std::string id = "f" + std::to_string(i);
        v1.push_back(task(id, 3'600'000));
        v1.back().payload = "v1";
        v2.push_back(task(id, 7'200'000));
        v2.back().payload = "v2";
    }
    const auto first = queue.pushBatch(v1);
    ShardMover mover(queue);
    mover.start(3);
    mover.step(10); // most tasks are still in shard 0
    const auto again = queue.pushBatch(v2);
    for (size_t i = 0; i < again.size(); ++i) {
        QCOMPARE(again[i].status, PushResult::Status::Exists);
        QCOMPARE(again[i].due, first[i].due);
    }
    // An import of the file of an id not moved yet finds it where it is, as a push does.
    Task imported;
    for (int i = 100; i < 200 && imported.id.empty(); ++i) {
        const std::string id = "f" + std::to_string(i);
        if (queue.layout().homeOf(id) != 0 &&
            !connection.command({"ZSCORE", queue.shardKeys(0).pending(), id}).isNil())
            imported.id = id;
    }
    QVERIFY(!imported.id.empty());
    imported.state = "pending";
    imported.due = 1;
    imported.payload = "v3";
    QCOMPARE(TaskImport(queue, false).importBatch({imported}).front(), PushResult::Status::Exists);
    // Replace half of them while the move goes on.
    std::vector<PushRequest> replacing(v2.begin(), v2.begin() + 100);
    for (auto& r : replacing)
        r.replace = true;
    for (const auto& r : queue.pushBatch(replacing))
        QCOMPARE(r.status, PushResult::Status::Replaced);
    reshard(queue, 3);
    QCOMPARE(queue.counts().pending, 200LL);
    for (int i = 0; i < 200; ++i) {
        const auto found = queue.find("f" + std::to_string(i));
        QVERIFY(found);
        QCOMPARE(found->second.payload, std::string(i < 100 ? "v2" : "v1"));
    }
}

void TestShards::anInterruptedMoveResumes_data()
{
    QTest::addColumn<bool>("late");
    QTest::newRow("within the hold") << false;
    QTest::newRow("after the hold ran out and a reap took the tasks back") << true;
}

// A mover that died between taking tasks and releasing them: the next step finishes its work,
// and every task ends up once, in its home shard.
void TestShards::anInterruptedMoveResumes()
{
    QFETCH(bool, late);
    const std::string name = late ? "late" : "resumed";
    Connection connection(options());
    Queue queue(connection, name);
    std::vector<PushRequest> requests;
    for (int i = 0; i < 30; ++i)
        requests.push_back(task("r" + std::to_string(i), 3'600'000));
    queue.pushBatch(requests);
    ShardMover mover(queue);
    mover.start(3);
    queue.reloadLayout();
    // What a step does before it dies: shard_take on shard 0, no import, no release.
    std::vector<std::string> args{"60000", "deadbeef", "0"};
    std::vector<std::string> taken;
    for (int i = 0; i < 30; ++i) {
        const std::string id = "r" + std::to_string(i);
        if (queue.layout().homeOf(id) != 0) {
            args.insert(args.end(), {id, std::to_string(queue.layout().homeOf(id))});
            taken.push_back(id);
        }
    }
    args[2] = std::to_string(taken.size());
    std::vector<std::string> keys = queue.shardQueue(0).scriptKeys();
    keys.push_back(queue.shardKeys(0).moving());
    QCOMPARE(connection.evalScript(scripts::shardTake, keys, args).elements.size(), taken.size());
    QCOMPARE(queue.counts().active, static_cast<long long>(taken.size()));
    if (late) {
        for (const auto& id : taken)
            connection.command({"ZADD", queue.shardKeys(0).active(), "1", id});
        QCOMPARE(queue.reap(100).requeued, static_cast<int>(taken.size()));
    }
    reshard(queue, 3);
    QCOMPARE(queue.counts().pending, 30LL);
    QCOMPARE(queue.counts().active, 0LL);
    for (int i = 0; i < 30; ++i) {
        const std::string id = "r" + std::to_string(i);
        for (size_t s = 0; s < 3; ++s)
            QCOMPARE(connection.command({"ZSCORE", queue.shardKeys(s).pending(), id}).isNil(),
                     static_cast<size_t>(queue.layout().homeOf(id)) != s);
    }
    QCOMPARE(connection.command({"EXISTS", queue.shardKeys(0).moving()}).toInteger(), 0LL);
    queue.purge();
}

void TestShards::leasesFollowTheirShardsToken()
{
    // Every single-task renewal, nack and ack goes to the shard its token names, and a
    // shard's own queue hands out tokens that name it (the routing is the shard room's).
    Connection connection(options());
    Queue queue = sharded(connection, "tokens", 3);
    std::vector<PushRequest> tasks(30);
    for (auto& task : tasks)
        task.payload = "{}";
    queue.pushBatch(tasks);
    std::vector<ClaimedTask> held;
    for (int round = 0; round < 6 && held.size() < tasks.size(); ++round)
        for (auto& task : queue.claim(10, 60000, "w").tasks)
            held.push_back(std::move(task));
    QCOMPARE(held.size(), tasks.size());
    std::set<char> shards;
    for (const auto& task : held) {
        QVERIFY2(task.token.size() > 3 && task.token[0] == 's' && task.token[2] == '.',
                 task.token.c_str());
        shards.insert(task.token[1]);
        QVERIFY(queue.extend(task.id, task.token, 90000) > 0);
    }
    QCOMPARE(shards.size(), size_t(3));
    for (size_t i = 0; i < held.size(); ++i) {
        if (i % 2 == 0)
            queue.ack(held[i].id, held[i].token);
        else
            QVERIFY(!queue.nack(held[i].id, held[i].token, "again", 0).dead);
    }
    QCOMPARE(queue.counts().active, 0);
    Queue second = queue.shardQueue(2);
    const ClaimResult some = second.claim(10, 60000, "w");
    QVERIFY(!some.tasks.empty());
    for (const auto& task : some.tasks)
        QVERIFY2(task.token.rfind("s2.", 0) == 0, task.token.c_str());
}

void TestShards::shardMasterKilledMidDrain()
{
    constexpr int kTasks = 300;
    Connection connection(options());
    Queue queue = sharded(connection, "killed", 3);
    RunCount::pushRetried(queue, kTasks);
    const std::string victim = connection.nodeForKey(queue.shardKeys(1).pending());
    // Replication is asynchronous: the pushes must be on the replicas before a master dies.
    for (size_t s = 0; s < 3; ++s)
        QCOMPARE(connection
                     .pipelineOn(connection.nodeForKey(queue.shardKeys(s).pending()),
                                 {{"WAIT", "1", "5000"}})
                     .front()
                     .integer,
                 1LL);
    int master = -1;
    for (int i = 0; i < ClusterGroup::kNodes; ++i)
        if (m_group.address(i) == victim)
            master = i;
    QVERIFY(master >= 0);
    RunCount runs;
    WorkerOptions o = drainer("killed");
    o.leaseMs = 1000;
    o.maxReconnectDelay = std::chrono::milliseconds(500);
    Worker worker(o, [&](const ClaimedTask& t) {
        QThread::msleep(5);
        runs.add(t.id);
        return HandlerResult::ack();
    });
    worker.start();
    QTRY_VERIFY_WITH_TIMEOUT(runs.ran() >= kTasks / 4, 20000);
    m_group.node(master).crash();
    QTRY_VERIFY_WITH_TIMEOUT(runs.drained(queue, kTasks), 40000);
    worker.stop();
    QCOMPARE(runs.distinct(), kTasks);
    qInfo("%d tasks ran, %d of them more than once, after shard 1's master was SIGKILLed", kTasks,
          runs.twice());
}

QTEST_GUILESS_MAIN(TestShards)
#include "tst_shards.moc"
