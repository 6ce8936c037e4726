#include "redissuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/taskid.h>

#include <QTest>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace delayq;

// Workers on separate connections racing for the same queue: claim is atomic, so every task
// goes to exactly one of them.
class TestConcurrency : public RedisSuite
{
    Q_OBJECT

private slots:
    void everyTaskClaimedExactlyOnce_data()
    {
        QTest::addColumn<int>("batch");
        QTest::newRow("batches of 100") << 100;
        QTest::newRow("batches of 7") << 7;
    }
    void everyTaskClaimedExactlyOnce()
    {
        QFETCH(int, batch);
        constexpr int kTasks = 20'000;
        constexpr int kThreads = 4;
        std::set<std::string> pushed;
        {
            Connection conn(ConnectionOptions::fromUrl(m_server.unixUrl()));
            Queue queue(conn, "race");
            std::vector<PushRequest> requests(kTasks);
            for (int i = 0; i < kTasks; ++i)
                requests[static_cast<size_t>(i)].payload = "task " + std::to_string(i);
            for (const auto& r : queue.pushBatch(requests)) {
                QCOMPARE(r.status, PushResult::Status::Created);
                pushed.insert(r.id);
            }
            QCOMPARE(pushed.size(), size_t(kTasks));
            QCOMPARE(queue.counts().dueNow, static_cast<long long>(kTasks));
        }

        std::vector<std::vector<std::string>> claimedBy(kThreads);
        std::vector<std::string> failures;
        std::mutex failuresMutex;
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                try {
                    // One connection per thread (docs/design.md, "Threads").
                    Connection conn(
                        ConnectionOptions::fromUrl(t % 2 ? m_server.unixUrl() : m_server.tcpUrl()));
                    Queue queue(conn, "race");
                    const std::string worker = "worker-" + std::to_string(t);
                    auto& mine = claimedBy[static_cast<size_t>(t)];
                    for (;;) {
                        const ClaimResult claim = queue.claim(batch, 60'000, worker);
                        if (claim.tasks.empty())
                            break;
                        std::vector<std::pair<std::string, std::string>> acks;
                        for (const auto& task : claim.tasks) {
                            mine.push_back(task.id);
                            acks.emplace_back(task.id, task.token);
                            if (task.attempts != 1)
                                throw std::runtime_error("a task was handed out twice: " + task.id);
                        }
                        for (bool acked : queue.ack(acks))
                            if (!acked)
                                throw std::runtime_error("an ack was refused as lease lost");
                    }
                } catch (const std::exception& e) {
                    std::lock_guard lock(failuresMutex);
                    failures.push_back(e.what());
                }
            });
        }
        for (auto& thread : threads)
            thread.join();
        QVERIFY2(failures.empty(), failures.empty() ? "" : failures.front().c_str());

        std::multiset<std::string> all;
        for (const auto& ids : claimedBy)
            all.insert(ids.begin(), ids.end());
        QCOMPARE(all.size(), size_t(kTasks));
        QCOMPARE(std::set<std::string>(all.begin(), all.end()), pushed);

        Connection conn(ConnectionOptions::fromUrl(m_server.unixUrl()));
        Queue queue(conn, "race");
        const QueueCounts counts = queue.counts();
        QCOMPARE(counts.pending, 0LL);
        QCOMPARE(counts.active, 0LL);
        QCOMPARE(counts.dead, 0LL);
        const Counters stats = queue.stats();
        QCOMPARE(stats.at("claimed"), static_cast<long long>(kTasks));
        QCOMPARE(stats.at("acked"), static_cast<long long>(kTasks));
        // Acked tasks leave no data behind.
        QCOMPARE(m_server.cli({"--scan", "--pattern", "dq:{race}:d:*"}).trimmed(),
                 QByteArray("dq:{race}:d:layout"));
        QCOMPARE(m_server.cli({"EXISTS", "dq:{race}:run"}).trimmed(), QByteArray("0"));
    }

    void generatedIdsAreUniqueAcrossThreads()
    {
        constexpr int kThreads = 4;
        constexpr int kIds = 20'000;
        std::vector<std::vector<std::string>> ids(kThreads);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&ids, t] {
                auto& mine = ids[static_cast<size_t>(t)];
                mine.reserve(kIds);
                for (int i = 0; i < kIds; ++i)
                    mine.push_back(generateTaskId());
            });
        for (auto& thread : threads)
            thread.join();
        std::set<std::string> all;
        for (const auto& mine : ids) {
            // Within one thread the ids keep their creation order.
            QVERIFY(std::is_sorted(mine.begin(), mine.end()));
            QVERIFY(std::adjacent_find(mine.begin(), mine.end()) == mine.end());
            all.insert(mine.begin(), mine.end());
        }
        QCOMPARE(all.size(), size_t(kThreads * kIds));
    }
};

QTEST_GUILESS_MAIN(TestConcurrency)
#include "tst_concurrency.moc"
