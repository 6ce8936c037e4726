#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace delayq;

// Layout 3's record table (lua/buckets.lua, docs/design/key-layout.md): it grows with the
// queue so a bucket holds a few dozen records at any size, and `upgrade` takes a queue of
// layout 2 into it while work goes on.
class TestBuckets : public QueueSuite
{
    Q_OBJECT

    // The record count of every bucket of the table (d:g:B).
    std::vector<long long> bucketSizes()
    {
        std::vector<std::vector<std::string>> lengths;
        const QList<QByteArray> keys =
            m_server.cli({"--scan", "--pattern", "dq:{orders}:d:g:*"}).split('\n');
        for (const QByteArray& key : keys)
            if (!key.isEmpty())
                lengths.push_back({"HLEN", key.toStdString()});
        std::vector<long long> sizes;
        for (const Reply& r : lengths.empty() ? std::vector<Reply>{} : m_conn->pipeline(lengths))
            sizes.push_back(r.toInteger());
        return sizes;
    }

    // Claims and acks everything due; returns each id's payload, failing on an id handed out twice.
    std::map<std::string, std::string> drain()
    {
        std::map<std::string, std::string> seen;
        for (;;) {
            const ClaimResult r = m_queue->claim(1000, 60'000, "w");
            if (r.tasks.empty())
                return seen;
            std::vector<std::pair<std::string, std::string>> acks;
            for (const auto& t : r.tasks) {
                if (!seen.emplace(t.id, t.payload).second)
                    qFatal("task %s handed out twice", t.id.c_str());
                acks.emplace_back(t.id, t.token);
            }
            m_queue->ack(acks);
        }
    }

    // Layout 2's bucket of an id, written out as lua/buckets.lua's legacy_bucket has it.
    static int legacyBucket(const std::string& id)
    {
        long long b[4] = {0, 0, 0, 0};
        const size_t take = std::min<size_t>(4, id.size());
        for (size_t i = 0; i < take; ++i)
            b[i] = static_cast<unsigned char>(id[id.size() - take + i]);
        return static_cast<int>((((b[0] * 31 + b[1]) * 31 + b[2]) * 31 + b[3]) % 8192);
    }

private slots:
    void growsWithTheQueue_data()
    {
        QTest::addColumn<QString>("pattern"); // %1 = a number; "" = generated ids
        QTest::newRow("generated ids") << QString();
        QTest::newRow("a common suffix") << QStringLiteral("user-%1-reminder");
        QTest::newRow("counting numbers") << QStringLiteral("order-%1");
    }

    void growsWithTheQueue()
    {
        QFETCH(QString, pattern);
        const int n = 20'000;
        std::vector<PushRequest> batch;
        for (int i = 0; i < n; ++i) {
            batch.push_back(request("p" + std::to_string(i), 0,
                                    pattern.isEmpty() ? std::string()
                                                      : pattern.arg(i).toStdString()));
            if (batch.size() == 200) {
                m_queue->pushBatch(batch);
                batch.clear();
            }
        }
        const std::vector<long long> sizes = bucketSizes();
        long long total = 0;
        for (long long s : sizes)
            total += s;
        QCOMPARE(total, static_cast<long long>(n));
        // About 32 a bucket on average, none near a listpack's 512 entries: layout 2 put these
        // in 8192 fixed buckets, and ids of a common suffix all in one.
        QVERIFY2(sizes.size() >= static_cast<size_t>(n / 64), std::to_string(sizes.size()).c_str());
        const long long most = *std::max_element(sizes.begin(), sizes.end());
        QVERIFY2(most <= 200, std::to_string(most).c_str());
        const auto seen = drain();
        QCOMPARE(seen.size(), static_cast<size_t>(n));
        for (const auto& [id, payload] : seen)
            QVERIFY(payload.starts_with("p"));
        QCOMPARE(bucketSizes().size(), size_t(0));
    }

    void aRefusedPushMakesNoTable()
    {
        m_queue->setConfig("max_payload", "10");
        QCOMPARE(m_queue->push(request(std::string(11, 'x'))).status, PushResult::Status::TooLarge);
        QCOMPARE(m_server.cli({"EXISTS", "dq:{orders}:d:layout"}).trimmed(), QByteArray("0"));
    }

    // A queue of layout 2 (records in d:0..d:8191, no table) works as it is, and upgrade
    // moves it a few records a call while tasks are claimed, acked and pushed between the
    // calls: every task is handed out once, with its payload, and no old bucket is left.
    void upgradeFromLayoutTwoWhileWorking()
    {
        const int n = 3000;
        std::vector<std::vector<std::string>> writes;
        for (int i = 0; i < n; ++i) {
            const std::string id = "old-" + std::to_string(i);
            writes.push_back({"HSET", "dq:{orders}:d:" + std::to_string(legacyBucket(id)), id,
                              "kx0|5||was-" + std::to_string(i)});
            writes.push_back({"ZADD", "dq:{orders}:pending", std::to_string(1000 + i), id});
        }
        for (const Reply& r : m_conn->pipeline(writes))
            QVERIFY(!r.isError());
        QVERIFY(m_queue->find("old-7"));
        QCOMPARE(m_queue->find("old-7")->second.payload, std::string("was-7"));

        std::map<std::string, std::string> seen;
        int pushed = 0;
        UpgradeResult step;
        for (int round = 0; !step.finished && round < 2000; ++round) {
            step = m_queue->upgrade(100, 1);
            const ClaimResult r = m_queue->claim(7, 60'000, "w");
            std::vector<std::pair<std::string, std::string>> acks;
            for (const auto& t : r.tasks) {
                QVERIFY2(seen.emplace(t.id, t.payload).second, t.id.c_str());
                acks.emplace_back(t.id, t.token);
            }
            m_queue->ack(acks);
            for (int k = 0; k < 3; ++k, ++pushed)
                m_queue->push(request("new-" + std::to_string(pushed), 0, "new-" + std::to_string(pushed)));
        }
        QVERIFY(step.finished);
        for (auto& [id, payload] : drain())
            QVERIFY2(seen.emplace(id, payload).second, id.c_str());
        QCOMPARE(seen.size(), static_cast<size_t>(n + pushed));
        for (const auto& [id, payload] : seen)
            QCOMPARE(payload, (id.starts_with("old-") ? "was-" + id.substr(4) : id));
        QCOMPARE(m_server.cli({"HGET", "dq:{orders}:d:layout", "migrated"}).trimmed(), QByteArray("8192"));
        QCOMPARE(m_server.cli({"--scan", "--pattern", "dq:{orders}:d:[0-9]*"}).trimmed(), QByteArray());
        // A second upgrade finds nothing to do.
        const UpgradeResult again = m_queue->upgrade(100, 0);
        QVERIFY(again.finished);
        QCOMPARE(again.moved, 0LL);
    }
};

QTEST_GUILESS_MAIN(TestBuckets)
#include "tst_buckets.moc"
