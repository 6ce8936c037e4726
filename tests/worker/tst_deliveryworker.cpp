#include "redissuite.h"
#include <delayq/connection.h>
#include <delayq/delivery.h>
#include <delayq/queue.h>
#include <delayq/worker.h>

#include <QTest>

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>

using namespace delayq;
using namespace std::chrono_literals;

namespace {

// What the worker handed to the deliveries of one test, as seen from the delivery side: the
// batches in the order they came, and which threads made a Delivery.
struct Seen
{
    std::mutex mutex;
    std::vector<std::vector<std::string>> batches;
    std::set<int> threads;
    int made = 0;
    std::atomic<bool> blocked{false};
    std::atomic<int> blockedPolls{0};
    // Delivery::died calls: "ID: ERROR", with the task's set in Redis at that moment.
    std::vector<std::string> died;
    std::function<std::string(const std::string&)> setOf;

    size_t tasks()
    {
        std::lock_guard lock(mutex);
        size_t n = 0;
        for (const auto& b : batches)
            n += b.size();
        return n;
    }
};

// Answers each task by its payload: "ack", "fail", "dead", "retry:MS", "throw" (the whole
// call throws). A real target's answers come from the broker or the endpoint; here the
// payload says what the target would have answered.
class ScriptedDelivery : public Delivery
{
public:
    explicit ScriptedDelivery(Seen& seen) : m_seen(seen) {}

    std::vector<HandlerResult> deliver(const std::vector<ClaimedTask>& tasks) override
    {
        std::vector<HandlerResult> results;
        {
            std::lock_guard lock(m_seen.mutex);
            m_seen.batches.emplace_back();
            for (const auto& t : tasks)
                m_seen.batches.back().push_back(t.id);
        }
        for (const auto& t : tasks) {
            if (t.payload == "throw")
                throw std::runtime_error("the target went away");
            if (t.payload == "fail")
                results.push_back(HandlerResult::fail("refused by the target"));
            else if (t.payload == "dead")
                results.push_back(HandlerResult::dead("HTTP 410 Gone"));
            else if (t.payload.rfind("retry:", 0) == 0)
                results.push_back(HandlerResult::fail("busy", std::stoll(t.payload.substr(6))));
            else
                results.push_back(HandlerResult::ack());
        }
        return results;
    }

    bool blocked() override
    {
        ++m_seen.blockedPolls;
        return m_seen.blocked;
    }

    void died(const ClaimedTask& task, const std::string& error) override
    {
        const std::string set = m_seen.setOf ? m_seen.setOf(task.id) : "";
        std::lock_guard lock(m_seen.mutex);
        m_seen.died.push_back(task.id + ": " + error + " (" + set + ")");
    }

private:
    Seen& m_seen;
};

} // namespace

// The worker's side of a delivery target (core/worker/workerthread.cpp, deliverWaiting): a claim's
// tasks reach the target together, each result lands on its own task, and a blocked target
// holds the claims back.
class TestDeliveryWorker : public RedisSuite
{
    Q_OBJECT

protected:
    void initTest() override
    {
        m_conn = std::make_unique<Connection>(ConnectionOptions::fromUrl(m_server.unixUrl()));
        m_jobs = std::make_unique<Queue>(*m_conn, "jobs");
        m_seen = std::make_unique<Seen>();
    }
    void cleanupTest() override
    {
        m_jobs.reset();
        m_conn.reset();
    }

private slots:
    void aClaimGoesToTheTargetInOneCall()
    {
        for (int i = 0; i < 50; ++i)
            push("ack", QString::asprintf("t%03d", i).toStdString()); // ties sort by id
        Worker w(options(1, 50), factory());
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, 50LL, 10000);
        QCOMPARE(m_seen->tasks(), size_t(50));
        // One claim of 50 (a fixed batch): one call, in due order.
        QCOMPARE(m_seen->batches.size(), size_t(1));
        QCOMPARE(m_seen->batches.front().front(), std::string("t000"));
        QCOMPARE(m_seen->batches.front().back(), std::string("t049"));
        QCOMPARE(m_jobs->counts().pending + m_jobs->counts().active, 0LL);
    }

    void oneDeliveryPerThread()
    {
        for (int i = 0; i < 200; ++i)
            push("ack", "t" + std::to_string(i));
        Worker w(options(3, 5), factory());
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, 200LL, 10000);
        w.stop();
        QCOMPARE(m_seen->made, 3);
        QCOMPARE(m_seen->threads, (std::set<int>{0, 1, 2}));
    }

    void eachResultLandsOnItsTask_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<QString>("set");
        QTest::addColumn<QString>("error");
        QTest::newRow("ack") << "ack"
                             << ""
                             << "";
        QTest::newRow("fail: retried on the backoff") << "fail"
                                                      << "pending"
                                                      << "refused by the target";
        QTest::newRow("dead at once, attempts left") << "dead"
                                                     << "dead"
                                                     << "HTTP 410 Gone";
        QTest::newRow("a throwing target fails the batch")
            << "throw"
            << "pending"
            << "delivery threw: the target went away";
    }
    void eachResultLandsOnItsTask()
    {
        QFETCH(QString, answer);
        QFETCH(QString, set);
        QFETCH(QString, error);
        // Beside it, tasks the target acks: a result must not slide to a neighbour.
        push("ack", "a-before");
        push(answer.toStdString(), "subject", 5);
        push("ack", "a-after");
        Worker w(options(1, 10), factory());
        QVERIFY(w.start());
        QTRY_VERIFY_WITH_TIMEOUT(w.counters().acked + w.counters().failed >= 3, 10000);
        w.stop();
        const auto found = m_jobs->find("subject");
        if (set.isEmpty()) {
            QVERIFY(!found);
        } else {
            QVERIFY(found);
            QCOMPARE(QString(taskSetName(found->first)), set);
            QCOMPARE(QString::fromStdString(found->second.lastError), error);
            QCOMPARE(found->second.attempts, 1); // "dead" did not spend its 5 attempts
        }
        if (answer != "throw") {
            QVERIFY(!m_jobs->find("a-before"));
            QVERIFY(!m_jobs->find("a-after"));
        }
    }

    void aRetryDelayFromTheTargetIsKept()
    {
        push("retry:60000", "later", 5);
        Worker w(options(1, 10), factory());
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().retried, 1LL, 10000);
        w.stop();
        const auto found = m_jobs->find("later");
        QVERIFY(found);
        const long long now = m_conn->serverNowMs();
        QVERIFY2(found->second.due > now + 55000 && found->second.due <= now + 60000,
                 "retried about 60 s from now, as the target asked");
    }

    void aBlockedTargetHoldsClaimsBack()
    {
        m_seen->blocked = true;
        for (int i = 0; i < 20; ++i)
            push("ack", "t" + std::to_string(i));
        Worker w(options(1, 10), factory());
        QVERIFY(w.start());
        // The worker asks the target several times and claims nothing meanwhile.
        QTRY_VERIFY_WITH_TIMEOUT(m_seen->blockedPolls >= 5, 10000);
        QCOMPARE(m_jobs->counts().pending, 20LL);
        QCOMPARE(m_jobs->counts().active, 0LL);
        QCOMPARE(m_seen->tasks(), size_t(0));
        m_seen->blocked = false;
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().acked, 20LL, 10000);
    }

    // Delivery::died (amqp's dead_exchange= copy) hears of each task the target failed once
    // Redis has it dead: the last failure and a Dead result, not a failure with attempts left.
    void theTargetHearsOfDeadTasks()
    {
        const std::string url = m_server.unixUrl();
        m_seen->setOf = [url](const std::string& id) {
            Connection c(ConnectionOptions::fromUrl(url));
            const auto found = Queue(c, "jobs").find(id);
            return found ? std::string(taskSetName(found->first)) : std::string("gone");
        };
        push("fail", "last", 1);
        push("dead", "gone-410", 5);
        push("fail", "retried", 5);
        push("ack", "fine");
        Worker w(options(1, 10), factory());
        QVERIFY(w.start());
        QTRY_COMPARE_WITH_TIMEOUT(w.counters().dead + w.counters().retried, 3LL, 10000);
        w.stop();
        std::sort(m_seen->died.begin(), m_seen->died.end());
        QCOMPARE(m_seen->died, (std::vector<std::string>{"gone-410: HTTP 410 Gone (dead)",
                                                         "last: refused by the target (dead)"}));
    }

private:
    void push(const std::string& payload, const std::string& id, int maxAttempts = 0)
    {
        PushRequest r;
        r.payload = payload;
        r.id = id;
        r.maxAttempts = maxAttempts;
        r.backoff = "30s";
        QCOMPARE(m_jobs->push(r).status, PushResult::Status::Created);
    }

    WorkerOptions options(int threads, int batch)
    {
        WorkerOptions o;
        o.connection = ConnectionOptions::fromUrl(m_server.unixUrl());
        o.queue = "jobs";
        o.concurrency = threads;
        o.batch = batch;
        o.maxBatch = batch;
        o.pollInterval = 200ms;
        o.maxReconnectDelay = 500ms;
        return o;
    }

    DeliveryFactory factory()
    {
        Seen* seen = m_seen.get();
        return [seen](int thread) {
            std::lock_guard lock(seen->mutex);
            ++seen->made;
            seen->threads.insert(thread);
            return std::make_unique<ScriptedDelivery>(*seen);
        };
    }

    std::unique_ptr<Connection> m_conn;
    std::unique_ptr<Queue> m_jobs;
    std::unique_ptr<Seen> m_seen;
};

QTEST_GUILESS_MAIN(TestDeliveryWorker)
#include "tst_deliveryworker.moc"
