#include <delayq/latencyhistogram.h>

#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace delayq;

class TestLatencyHistogram : public QObject
{
    Q_OBJECT

private slots:
    void percentiles_data()
    {
        QTest::addColumn<QList<long long>>("values");
        QTest::addColumn<double>("q");
        QTest::addColumn<long long>("expected");
        QTest::newRow("empty") << QList<long long>{} << 0.5 << 0LL;
        QTest::newRow("one") << QList<long long>{7} << 0.99 << 7LL;
        QTest::newRow("median of 1..5") << QList<long long>{5, 1, 4, 2, 3} << 0.5 << 3LL;
        QTest::newRow("exact below 1 s") << QList<long long>{42, 42, 99} << 0.5 << 42LL;
        QTest::newRow("exact to the ms below 1 s") << QList<long long>{123, 999} << 0.99 << 999LL;
        QTest::newRow("10 ms steps below 10 s") << QList<long long>{4567} << 0.5 << 4560LL;
        QTest::newRow("100 ms steps below 100 s") << QList<long long>{12345} << 0.5 << 12300LL;
        QTest::newRow("past a minute") << QList<long long>{90000} << 0.99 << 90000LL;
        // An operator's backlog: 5 and 34.1 minutes overdue read as such, not as "1m".
        QTest::newRow("1 s steps below 1,000 s") << QList<long long>{304321} << 0.5 << 304000LL;
        QTest::newRow("10 s steps below 10,000 s")
            << QList<long long>{2046789} << 0.99 << 2040000LL;
        QTest::newRow("days") << QList<long long>{259323456} << 0.5 << 259000000LL;
        QTest::newRow("overflow past 10^13 ms")
            << QList<long long>{20'000'000'000'000} << 0.5 << 10'000'000'000'000LL;
        QTest::newRow("negative counts as 0") << QList<long long>{-5} << 0.5 << 0LL;
    }
    void percentiles()
    {
        QFETCH(QList<long long>, values);
        QFETCH(double, q);
        QFETCH(long long, expected);
        LatencyHistogram h;
        for (long long v : values)
            h.record(v);
        QCOMPARE(h.count(), static_cast<long long>(values.size()));
        QCOMPARE(h.percentile(q), expected);
    }

    // Against the exact quantile of the recorded values: never above it, never more than
    // 1% below (exact below 1 s), over the ranges a worker meets.
    void percentilesWithinOnePercent_data()
    {
        QTest::addColumn<long long>("from");
        QTest::addColumn<long long>("to");
        QTest::newRow("0 to 1 s") << 0LL << 999LL;
        QTest::newRow("0 to 2 minutes") << 0LL << 120'000LL;
        QTest::newRow("1 to 40 minutes overdue") << 60'000LL << 2'400'000LL;
        QTest::newRow("an hour to a week") << 3'600'000LL << 604'800'000LL;
    }
    void percentilesWithinOnePercent()
    {
        QFETCH(long long, from);
        QFETCH(long long, to);
        std::mt19937_64 rng(42);
        std::uniform_int_distribution<long long> pick(from, to);
        std::vector<long long> values(5000);
        LatencyHistogram h;
        for (auto& v : values) {
            v = pick(rng);
            h.record(v);
        }
        std::sort(values.begin(), values.end());
        for (double q : {0.01, 0.5, 0.9, 0.99, 1.0}) {
            const auto rank = static_cast<size_t>(std::ceil(q * values.size()));
            const long long exact = values[rank - 1];
            const long long estimate = h.percentile(q);
            QVERIFY2(estimate <= exact &&
                         (exact < 1000 ? estimate == exact : estimate >= exact - exact / 100),
                     qPrintable(QStringLiteral("q %1: %2 for %3").arg(q).arg(estimate).arg(exact)));
        }
        QCOMPARE(h.max(), values.back());
    }

    void p99OfAHundred()
    {
        LatencyHistogram h;
        for (int i = 1; i <= 100; ++i)
            h.record(i <= 98 ? 1 : 500);
        QCOMPARE(h.percentile(0.5), 1LL);
        QCOMPARE(h.percentile(0.99), 500LL);
        QCOMPARE(h.max(), 500LL);
    }

    void coarseBucketsCountEverythingOnce()
    {
        LatencyHistogram a;
        LatencyHistogram b;
        for (long long v : {0LL, 1LL, 3LL, 7LL, 150LL, 999LL, 1000LL, 45000LL, 100000LL})
            a.record(v);
        b.record(3);
        a.merge(b);
        const auto buckets = a.coarseBuckets();
        QCOMPARE(buckets.size(), size_t(16));
        long long total = 0;
        for (const auto& bucket : buckets)
            total += bucket.count;
        QCOMPARE(total, 10LL);
        QCOMPARE(buckets[0].count, 1LL);  // [0, 1)
        QCOMPARE(buckets[2].count, 2LL);  // [2, 5): 3 and 3
        QCOMPARE(buckets[3].count, 1LL);  // [5, 10)
        QCOMPARE(buckets[7].count, 1LL);  // [100, 200)
        QCOMPARE(buckets[9].count, 1LL);  // [500, 1000)
        QCOMPARE(buckets[10].count, 1LL); // [1 s, 2 s)
        QCOMPARE(buckets[14].count, 1LL); // [30 s, 60 s)
        QCOMPARE(buckets[15].count, 1LL); // 60 s and more
        QCOMPARE(buckets[15].toMs, -1LL);
        a.clear();
        QCOMPARE(a.count(), 0LL);
        QCOMPARE(a.max(), 0LL);
    }
};

QTEST_GUILESS_MAIN(TestLatencyHistogram)
#include "tst_latencyhistogram.moc"
