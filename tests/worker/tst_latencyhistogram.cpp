#include <delayq/latencyhistogram.h>

#include <QTest>

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
        QTest::newRow("exact below 100 ms") << QList<long long>{42, 42, 99} << 0.5 << 42LL;
        QTest::newRow("10 ms steps below 1 s") << QList<long long>{123} << 0.5 << 120LL;
        QTest::newRow("100 ms steps below 10 s") << QList<long long>{4567} << 0.5 << 4500LL;
        QTest::newRow("1 s steps below 60 s") << QList<long long>{12345} << 0.5 << 12000LL;
        QTest::newRow("overflow capped by max") << QList<long long>{90000} << 0.99 << 60000LL;
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
