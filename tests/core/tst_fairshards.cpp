#include "clustergroup.h"
#include "groupsuite.h"
#include "runcount.h"
#include "topologytasks.h"

#include <delayq/actor.h>
#include <delayq/auditlog.h>
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/queuereader.h>
#include <delayq/shardmover.h>
#include <delayq/worker.h>

#include <QTest>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>

using namespace delayq;

// Fair order on a sharded queue (docs/design/flow.md, "Sharded queues"), on a real Redis
// Cluster of three masters with real workers: each shard keeps its own index and its share of
// the group cap and rate; a group cap below the shard count is refused; a reshard in fair order
// indexes the moved tasks in their new shard.
class TestFairShards : public GroupSuite
{
    Q_OBJECT

public:
    TestFairShards() : GroupSuite(m_group, "fairshards") {}

private slots:
    void aSmallGroupIsNotStarvedBehindABigOne();
    void aGroupCapHoldsOverEveryShard();
    void aGroupCapBelowTheShardsIsRefused();
    void aReshardInFairOrderKeepsEveryTaskOnceWithItsGroup();

private:
    ConnectionOptions options() const { return ConnectionOptions::fromUrl(m_group.url()); }
    static void reshard(Queue& queue, int count)
    {
        ShardMover mover(queue);
        MoveProgress p = mover.start(count);
        for (int pass = 0; !p.finished; ++pass) {
            QVERIFY2(pass < 200, "the move did not finish");
            p = mover.step(100);
            std::this_thread::sleep_for(std::chrono::milliseconds(p.waitMs));
        }
        queue.reloadLayout();
    }
    // A task of `group`: its id is "GROUP.N", so a handler knows its group.
    static PushRequest grouped(const std::string& group, int n, long long delayMs = 0)
    {
        PushRequest r = task(group + "." + std::to_string(n), delayMs);
        r.group = group;
        return r;
    }
    static std::string groupOf(const std::string& id) { return id.substr(0, id.find('.')); }

    ClusterGroup m_group;
};

// One group with 1,500 due tasks pushed first, then 20 groups of 5: with two worker threads
// the small groups are all done before a tenth of the big one (in due order they would wait
// behind all of it). Before, a sharded queue refused fair order.
void TestFairShards::aSmallGroupIsNotStarvedBehindABigOne()
{
    constexpr int kBig = 1500, kSmallGroups = 20, kSmall = 5;
    Connection connection(options());
    Queue queue(connection, "starve");
    reshard(queue, 3);
    queue.setConfig("order", "fair");
    std::vector<PushRequest> requests;
    for (int i = 0; i < kBig; ++i)
        requests.push_back(grouped("big", i));
    queue.pushBatch(requests);
    requests.clear();
    for (int g = 0; g < kSmallGroups; ++g)
        for (int i = 0; i < kSmall; ++i)
            requests.push_back(grouped("s" + std::to_string(g), i));
    queue.pushBatch(requests);
    // Every shard holds some of each kind.
    for (size_t s = 0; s < 3; ++s)
        QVERIFY(connection.command({"ZCARD", queue.shardKeys(s).pending()}).toInteger() > 0);

    std::atomic<int> runs{0}, bigRuns{0}, smallRuns{0}, bigBeforeLastSmall{-1};
    WorkerOptions o;
    o.connection = options();
    o.queue = "starve";
    o.concurrency = 2;
    // Claims of a fixed 10: a claim serves one shard, so the small groups of a shard no claim
    // has reached yet wait for the batches the threads hold (docs/design/flow.md, "Sharded
    // queues"); claims grown to 200 would let up to 2 x 200 of the big group run first, which
    // is a tenth of this small group but under 1 % of a big group of 100,000.
    o.batch = 10;
    o.maxBatch = 10;
    Worker worker(o, [&](const ClaimedTask& t) {
        ++runs;
        if (groupOf(t.id) == "big")
            ++bigRuns;
        else if (++smallRuns == kSmallGroups * kSmall)
            bigBeforeLastSmall = bigRuns.load();
        return HandlerResult::ack();
    });
    worker.start();
    QTRY_VERIFY_WITH_TIMEOUT(runs.load() == kBig + kSmallGroups * kSmall, 60000);
    worker.stop();
    const int before = bigBeforeLastSmall.load();
    qInfo("big group's tasks run before the 20 small groups were done: %d of %d", before, kBig);
    QVERIFY2(before >= 0 && before < kBig / 10, std::to_string(before).c_str());
}

// A group cap of 4 over 3 shards (shares 2, 1, 1): eight worker threads never run more than 4
// of the group at once, counted by the handlers and read from every shard's slots.
void TestFairShards::aGroupCapHoldsOverEveryShard()
{
    constexpr long long kCap = 4;
    constexpr int kTasks = 150;
    Connection connection(options());
    Queue queue(connection, "capped");
    reshard(queue, 3);
    queue.setConfig({{"order", "fair"}, {"group_cap", std::to_string(kCap)}});
    std::vector<PushRequest> requests;
    for (int i = 0; i < kTasks; ++i)
        requests.push_back(grouped(i % 3 == 0 ? "h" : "g", i));
    queue.pushBatch(requests);

    std::mutex mutex;
    std::map<std::string, long long> running, most;
    std::atomic<int> done{0};
    WorkerOptions o;
    o.connection = options();
    o.queue = "capped";
    o.concurrency = 8;
    o.batch = 1;
    Worker worker(o, [&](const ClaimedTask& t) {
        const std::string group = groupOf(t.id);
        {
            std::lock_guard lock(mutex);
            most[group] = std::max(most[group], ++running[group]);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        {
            std::lock_guard lock(mutex);
            --running[group];
        }
        ++done;
        return HandlerResult::ack();
    });
    worker.start();
    // The server's view while it drains: the live slots of g summed over the shards.
    long long mostSlots = 0;
    Connection sampler(options());
    while (done.load() < kTasks) {
        const std::string now = "(" + std::to_string(sampler.serverNowMs());
        std::vector<std::vector<std::string>> reads;
        for (size_t s = 0; s < 3; ++s)
            reads.push_back({"ZCOUNT", queue.shardKeys(s).fair("act:g"), now, "+inf"});
        long long live = 0;
        for (const Reply& r : sampler.pipeline(reads))
            live += r.toInteger();
        mostSlots = std::max(mostSlots, live);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        QVERIFY2(worker.isRunning(), "the worker stopped");
    }
    worker.stop();
    qInfo("most of group g at once: %lld running, %lld slots (cap %lld)", most["g"], mostSlots,
          kCap);
    QVERIFY2(most["g"] <= kCap, std::to_string(most["g"]).c_str());
    QVERIFY2(most["h"] <= kCap, std::to_string(most["h"]).c_str());
    QVERIFY2(mostSlots <= kCap, std::to_string(mostSlots).c_str());
    QVERIFY(most["g"] >= 2); // more than one shard's share ran at once
}

// On 3 shards a group cap of 1 or 2 (order per key needs one shard) and a group rate whose
// burst is below 3 are refused naming the cause, and change nothing: no shard's config, no
// audit entry. A reshard to more shards than the group cap is refused the same way.
void TestFairShards::aGroupCapBelowTheShardsIsRefused()
{
    ConnectionOptions withActor = options();
    withActor.actor = Actor::ofThisProcess("delayq-test", "9.9.9");
    Connection connection(withActor);
    Queue queue(connection, "refusing");
    reshard(queue, 3);
    const size_t audited = queue.audit(0, 100).size();
    const auto refused = [&](const std::vector<std::pair<std::string, std::string>>& values,
                             const std::string& says) {
        try {
            queue.setConfig(values);
            QFAIL(("taken: " + values.back().first + " " + values.back().second).c_str());
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            const std::string what = e.what();
            QVERIFY2(what.find(says) != std::string::npos, what.c_str());
            QVERIFY2(what.find("3 shards") != std::string::npos, what.c_str());
        }
    };
    refused({{"order", "fair"}, {"group_cap", "1"}},
            "order per key (group cap 1) needs a queue of one shard");
    refused({{"group_cap", "2"}}, "a group cap of 2 is below 3 shards");
    refused({{"order", "fair"}, {"group_rate", "2/s"}}, "e.g. 4/2s");
    // The queue's own rate alike: 1/s on 3 shards gave each a burst of a third and never
    // started a task.
    refused({{"rate", "1/s"}}, "a burst of 1 is below 3 shards");
    refused({{"rate", "10/s"}, {"burst", "2"}}, "a burst of 2 is below 3 shards");
    for (size_t s = 0; s < 3; ++s) {
        const Reply config = connection.command({"HMGET", queue.shardKeys(s).config(), "order",
                                                 "group_cap", "group_rate", "rate", "burst"});
        for (const Reply& field : config.elements)
            QVERIFY2(field.isNil(), ("shard " + std::to_string(s) + " changed").c_str());
    }
    QCOMPARE(queue.audit(0, 100).size(), audited);
    // A group cap stored before (a queue resharded in due order by an older delayq) is judged
    // when fair order is turned on.
    for (size_t s = 0; s < 3; ++s)
        connection.command({"HSET", queue.shardKeys(s).config(), "group_cap", "1"});
    refused({{"order", "fair"}}, "change its group_cap in the same call");
    QVERIFY(connection.command({"HGET", queue.shardKeys(1).config(), "order"}).isNil());
    // 3 is kept, and fair order with it.
    queue.setConfig({{"order", "fair"}, {"group_cap", "3"}, {"group_rate", "3/s"}});
    QCOMPARE(queue.config().groupCap, 3LL);

    // An unsharded queue with group cap 2 cannot grow to 3 shards.
    Queue one(connection, "refusing1");
    one.setConfig({{"order", "fair"}, {"group_cap", "2"}});
    try {
        ShardMover(one).start(3);
        QFAIL("a reshard past the group cap was taken");
    } catch (const Error& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("group cap of 2 is below 3 shards") != std::string::npos, what.c_str());
        QVERIFY2(what.find("delayq config refusing1 group_cap") != std::string::npos, what.c_str());
    }
    QCOMPARE(one.reloadLayout().count, 1);
    QCOMPARE(one.reloadLayout().tags.size(), size_t(1));
    // ... nor one whose rate's burst is 2.
    Queue limited(connection, "refusing2");
    limited.setConfig({{"rate", "2/s"}});
    try {
        ShardMover(limited).start(3);
        QFAIL("a reshard past the rate's burst was taken");
    } catch (const Error& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("a burst of 2 is below 3 shards") != std::string::npos, what.c_str());
    }
    QCOMPARE(limited.reloadLayout().tags.size(), size_t(1));
}

// A queue in fair order grows from 1 to 3 shards under a running worker: the moved tasks keep
// their group and are indexed in their new shard (its fl:wait holds each one not yet due), and
// every task runs exactly once, the group cap held throughout. Before, the reshard was refused.
void TestFairShards::aReshardInFairOrderKeepsEveryTaskOnceWithItsGroup()
{
    constexpr int kTasks = 600;
    constexpr long long kCap = 3;
    Connection connection(options());
    Queue queue(connection, "fairmove");
    queue.setConfig({{"order", "fair"}, {"group_cap", std::to_string(kCap)}});
    std::vector<PushRequest> requests;
    const char* const groups[] = {"a", "b", "c", "d"};
    // A quarter due during the move, the rest long after it: those are moved while pending.
    for (int i = 0; i < kTasks; ++i)
        requests.push_back(grouped(groups[i % 4], i, i % 4 == 0 ? (i % 40) * 50 : 600'000 + i));
    queue.pushBatch(requests);

    RunCount runs;
    std::mutex mutex;
    std::map<std::string, long long> running, most;
    WorkerOptions o;
    o.connection = options();
    o.queue = "fairmove";
    o.concurrency = 4;
    o.batch = 5;
    o.pollInterval = std::chrono::milliseconds(100);
    Worker worker(o, [&](const ClaimedTask& t) {
        const std::string group = groupOf(t.id);
        {
            std::lock_guard lock(mutex);
            most[group] = std::max(most[group], ++running[group]);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        {
            std::lock_guard lock(mutex);
            --running[group];
        }
        runs.add(t.id);
        return HandlerResult::ack();
    });
    worker.start();
    reshard(queue, 3);
    QCOMPARE(queue.layout().count, 3);

    // Every task left is in its home with its group, and indexed there (not due: fl:wait).
    const std::vector<Task> left =
        QueueReader(connection, "fairmove").page(TaskSet::Pending, 0, 1000);
    QVERIFY(left.size() >= size_t(kTasks * 3 / 4));
    std::map<size_t, long long> pendingIn;
    for (const Task& t : left) {
        QCOMPARE(t.group, groupOf(t.id));
        ++pendingIn[static_cast<size_t>(queue.layout().homeOf(t.id))];
    }
    QCOMPARE(pendingIn.size(), size_t(3));
    // The new shards index exactly what they were given; shard 0 keeps stale entries of the
    // moved tasks in its index (claim drops them when it meets them), not their tags.
    for (size_t s = 0; s < 3; ++s) {
        const Keys& k = queue.shardKeys(s);
        QCOMPARE(connection.command({"ZCARD", k.pending()}).toInteger(), pendingIn[s]);
        if (s > 0)
            QCOMPARE(connection.command({"ZCARD", k.fair("wait")}).toInteger(), pendingIn[s]);
        QCOMPARE(connection.command({"HLEN", k.fairTags()}).toInteger(), pendingIn[s]);
    }

    // Due now: the worker drains them from every shard's index.
    std::vector<std::string> ids;
    for (const Task& t : left)
        ids.push_back(t.id);
    queue.reschedule(ids, std::nullopt, 0);
    QTRY_VERIFY_WITH_TIMEOUT(runs.drained(queue, kTasks), 60000);
    worker.stop();
    QCOMPARE(runs.twice(), 0);
    QCOMPARE(runs.ran(), kTasks);
    for (const auto& [group, n] : most)
        QVERIFY2(n <= kCap, (group + ": " + std::to_string(n)).c_str());
}

QTEST_GUILESS_MAIN(TestFairShards)
#include "tst_fairshards.moc"
