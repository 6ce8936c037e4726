#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>

#include <QTest>

#include <algorithm>
#include <climits>
#include <random>

using namespace delayq;

// Reading a native queue (delayq/queue.h): counts, statistics, per-minute history, the due-time
// histogram, pages, ranks and find.
class TestQueueRead : public QueueSuite
{
    Q_OBJECT

private slots:
    void countsStatsHistory()
    {
        Queue& q = *m_queue;
        const long long start = m_conn->serverTimeMs();
        q.pushBatch({request("a"), request("b"), request("c"), request("d", 600'000),
                     request("e", 600'000)});
        const auto claim = q.claim(1, 60'000, "w");
        // "Due now" is counted by the clock estimated at connect: allow it to catch up.
        QTRY_COMPARE(q.counts().dueNow, 2LL);
        QueueCounts c = q.counts();
        QCOMPARE(c.pending, 4LL);
        QCOMPARE(c.dueNow, 2LL);
        QCOMPARE(c.active, 1LL);
        QCOMPARE(c.dead, 0LL);
        q.ack(claim.tasks[0].id, claim.tasks[0].token);
        q.cancel({q.page(TaskSet::Pending, 0, 1)[0].id});
        const Counters s = q.stats();
        QCOMPARE(s.at("pushed"), 5LL);
        QCOMPARE(s.at("claimed"), 1LL);
        QCOMPARE(s.at("acked"), 1LL);
        QCOMPARE(s.at("cancelled"), 1LL);
        QCOMPARE(s.at("retried"), 0LL);
        QCOMPARE(s.at("died"), 0LL);
        QCOMPARE(s.at("expired"), 0LL);

        const long long end = m_conn->serverTimeMs();
        const auto history = q.history(start / 60000 - 2, end / 60000);
        QCOMPARE(history.size(), size_t(end / 60000 - start / 60000 + 3));
        QCOMPARE(history.front().minute, start / 60000 - 2);
        QVERIFY(history.front().counters.empty());
        Counters sum;
        for (const auto& m : history)
            for (const auto& [k, v] : m.counters)
                sum[k] += v;
        QCOMPARE(sum["pushed"], 5LL);
        QCOMPARE(sum["claimed"], 1LL);
        QCOMPARE(sum["acked"], 1LL);
        QCOMPARE(sum["cancelled"], 1LL);
        // Minute keys expire by themselves (48 h).
        const QByteArray ttl =
            m_server.cli({"TTL", "dq:{orders}:m:" + QString::number(start / 60000)}).trimmed();
        QVERIFY2(ttl.toLongLong() > 170'000 && ttl.toLongLong() <= 172'800, ttl.constData());
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.history(10, 9));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.history(0, 48 * 60 + 1));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.history(LLONG_MIN, 10));
    }

    void histogram()
    {
        Queue& q = *m_queue;
        const long long from = 4'000'000'000'000LL;
        std::vector<PushRequest> requests;
        std::mt19937 gen(3);
        std::vector<long long> dues;
        for (int i = 0; i < 300; ++i) {
            // Spread over a range a little wider than the histogram's, with exact boundaries.
            long long due = from - 500 + static_cast<long long>(gen() % 11'000);
            if (i < 7)
                due = from + i * 1000; // on bucket edges (width 1000 below)
            dues.push_back(due);
            PushRequest r = request("h");
            r.dueAtMs = due;
            requests.push_back(r);
        }
        q.pushBatch(requests);
        const long long to = from + 10'000;
        const auto buckets = q.histogram(from, to, 10);
        QCOMPARE(buckets.size(), size_t(10));
        long long total = 0;
        for (int b = 0; b < 10; ++b) {
            const long long expected = std::count_if(dues.begin(), dues.end(), [&](long long d) {
                return d >= from + b * 1000 && d < from + (b + 1) * 1000;
            });
            QCOMPARE(buckets[static_cast<size_t>(b)], expected);
            total += buckets[static_cast<size_t>(b)];
        }
        const QByteArray inRange = m_server
                                       .cli({"ZCOUNT", "dq:{orders}:pending", QString::number(from),
                                             "(" + QString::number(to)})
                                       .trimmed();
        QCOMPARE(QByteArray::number(total), inRange);

        // Uneven widths still cover the range exactly once.
        const auto odd = q.histogram(from, to, 7);
        long long oddTotal = 0;
        for (long long n : odd)
            oddTotal += n;
        QCOMPARE(oddTotal, total);
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.histogram(from, from, 5));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.histogram(from, to, 0));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.histogram(from, to, 10'001));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.histogram(LLONG_MIN, LLONG_MAX, 10));
        // A chart may start before 1970: nothing is due there, and that is no error.
        QCOMPARE(q.histogram(-60'000, 0, 3), (std::vector<long long>{0, 0, 0}));
    }

    void pagesRanksAndFind()
    {
        Queue& q = *m_queue;
        q.setConfig("max_attempts", "1");
        const long long base = 4'000'000'000'000LL;
        std::vector<PushRequest> requests;
        for (int i = 0; i < 10; ++i) {
            PushRequest r = request("payload-" + std::to_string(i), 0, "id" + std::to_string(i));
            r.dueAtMs = base + i * 1000;
            requests.push_back(r);
        }
        q.pushBatch(requests);
        const auto page = q.page(TaskSet::Pending, 3, 4);
        QCOMPARE(idsOf(page), (std::vector<std::string>{"id3", "id4", "id5", "id6"}));
        QCOMPARE(page[0].payload, std::string("payload-3"));
        QCOMPARE(page[0].score, base + 3000);
        QCOMPARE(page[0].due, base + 3000);
        QVERIFY(!page[0].broken);
        QVERIFY(q.page(TaskSet::Pending, 10, 5).empty());
        QCOMPARE(q.page(TaskSet::Pending, 8, 100).size(), size_t(2));

        QCOMPARE(idsOf(q.pageFromScore(TaskSet::Pending, base + 5000, 3)),
                 (std::vector<std::string>{"id5", "id6", "id7"}));
        QCOMPARE(idsOf(q.pageFromScore(TaskSet::Pending, base + 5001, 2)),
                 (std::vector<std::string>{"id6", "id7"}));
        QCOMPARE(q.rankOfScore(TaskSet::Pending, base + 5000), 5LL);
        QCOMPARE(q.rankOfScore(TaskSet::Pending, base + 5500), 6LL);
        QCOMPARE(q.rankOfScore(TaskSet::Pending, 0), 0LL);
        QCOMPARE(q.rankOfScore(TaskSet::Pending, base + 99'000), 10LL);
        QCOMPARE(q.size(TaskSet::Pending), 10LL);
        QCOMPARE(q.earliest(TaskSet::Pending), std::optional<long long>(base));
        QCOMPARE(q.earliest(TaskSet::Dead), std::nullopt);

        const auto found = q.find("id7");
        QVERIFY(found);
        QCOMPARE(found->first, TaskSet::Pending);
        QCOMPARE(found->second.id, std::string("id7"));
        QCOMPARE(found->second.payload, std::string("payload-7"));
        QCOMPARE(found->second.score, base + 7000);
        QVERIFY(!q.find("id99"));

        // Active and dead pages.
        q.reschedule({"id0", "id1"}, std::nullopt, 0);
        const auto claim = q.claim(2, 60'000, "w");
        QCOMPARE(claim.tasks.size(), size_t(2));
        q.nack(claim.tasks[1].id, claim.tasks[1].token, "broke");
        const auto active = q.page(TaskSet::Active, 0, 10);
        QCOMPARE(active.size(), size_t(1));
        QCOMPARE(active[0].score, claim.tasks[0].leaseDeadline);
        QCOMPARE(active[0].worker, std::string("w"));
        const auto dead = q.page(TaskSet::Dead, 0, 10);
        QCOMPARE(dead.size(), size_t(1));
        QCOMPARE(dead[0].lastError, std::string("broke"));
        QCOMPARE(q.find(claim.tasks[0].id)->first, TaskSet::Active);
        QCOMPARE(q.find(claim.tasks[1].id)->first, TaskSet::Dead);
        QCOMPARE(q.pageFromScore(TaskSet::Dead, 0, 10).size(), size_t(1));

        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.page(TaskSet::Pending, -1, 10));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.page(TaskSet::Pending, 0, 0));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.page(TaskSet::Pending, LLONG_MAX, 10));
        EXPECT_ERROR(ErrorCode::InvalidArgument, "", q.pageFromScore(TaskSet::Pending, 0, 10'001));
    }
};

QTEST_GUILESS_MAIN(TestQueueRead)
#include "tst_queueread.moc"
