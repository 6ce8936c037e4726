#include <delayq/forecast.h>

#include <QTest>

#include <cmath>
#include <vector>

using namespace delayq;

Q_DECLARE_METATYPE(std::vector<int64_t>)

// The forecast's fluid model alone (simulateForecast, capacityForThreshold): the backlog and
// lateness at each bucket's end, the peak and its time, the capacity that keeps the peak
// under a threshold. No server: the reads are tst_forecastread's.
class TestForecastModel : public QObject
{
    Q_OBJECT

private slots:
    void curve_data();
    void curve();
    void threshold_data();
    void threshold();
    void noCapacityNoCurve();
};

namespace {
constexpr int64_t kFrom = 1'000'000;
}

void TestForecastModel::curve_data()
{
    QTest::addColumn<int64_t>("overdue");
    QTest::addColumn<std::vector<int64_t>>("arrivals"); // per bucket of 1 s
    QTest::addColumn<double>("capacity");               // tasks/s
    QTest::addColumn<double>("burst");
    QTest::addColumn<std::vector<int64_t>>("backlog"); // at from, then each bucket's end
    QTest::addColumn<int64_t>("peakMs");
    QTest::addColumn<int64_t>("peakAfterMs"); // peak time - from

    using V = std::vector<int64_t>;
    QTest::newRow("nothing due") << int64_t(0) << V{0, 0, 0} << 10.0 << 0.0 << V{0, 0, 0, 0}
                                 << int64_t(0) << int64_t(0);
    QTest::newRow("below capacity")
        << int64_t(0) << V{5, 10, 3} << 10.0 << 0.0 << V{0, 0, 0, 0} << int64_t(0) << int64_t(0);
    // 100 overdue at 10/s: a task due now waits 10 s; the backlog drains 10 a second.
    QTest::newRow("overdue drains") << int64_t(100) << V{0, 0, 0} << 10.0 << 0.0
                                    << V{100, 90, 80, 70} << int64_t(10000) << int64_t(0);
    // A burst of 100 in the third second: 90 left at its end, 9 s for the last of them.
    QTest::newRow("burst") << int64_t(0) << V{0, 0, 100, 0, 0} << 10.0 << 0.0
                           << V{0, 0, 0, 90, 80, 70} << int64_t(9000) << int64_t(3000);
    // Arrivals over capacity pile up until they stop: the peak is where they stop.
    QTest::newRow("steady overload") << int64_t(0) << V{20, 20, 20, 0} << 10.0 << 0.0
                                     << V{0, 10, 20, 30, 20} << int64_t(3000) << int64_t(3000);
    // A rate limit's burst of 50 serves at once on top of the rate; idle, it stays full.
    QTest::newRow("rate burst") << int64_t(0) << V{0, 100, 0} << 10.0 << 50.0 << V{0, 0, 40, 30}
                                << int64_t(4000) << int64_t(2000);
    // The burst is spent on the overdue first, and refills only while nothing waits.
    QTest::newRow("burst spent on overdue")
        << int64_t(80) << V{0, 0} << 10.0 << 50.0 << V{30, 20, 10} << int64_t(3000) << int64_t(0);
    // Two peaks: the higher one, the earlier when equal.
    QTest::newRow("two peaks") << int64_t(0) << V{30, 0, 0, 0, 30, 0} << 10.0 << 0.0
                               << V{0, 20, 10, 0, 0, 20, 10} << int64_t(2000) << int64_t(1000);
}

void TestForecastModel::curve()
{
    QFETCH(int64_t, overdue);
    QFETCH(std::vector<int64_t>, arrivals);
    QFETCH(double, capacity);
    QFETCH(double, burst);
    QFETCH(std::vector<int64_t>, backlog);
    QFETCH(int64_t, peakMs);
    QFETCH(int64_t, peakAfterMs);

    ForecastInput in;
    in.fromMs = kFrom;
    in.bucketMs = 1000;
    in.overdue = overdue;
    in.arrivals = arrivals;
    in.capacityPerSecond = capacity;
    in.burst = burst;
    const ForecastCurve c = simulateForecast(in);
    QCOMPARE(c.points.size(), arrivals.size() + 1);
    std::vector<int64_t> got;
    for (size_t i = 0; i < c.points.size(); ++i) {
        got.push_back(c.points[i].backlog);
        QCOMPARE(c.points[i].atMs, kFrom + static_cast<int64_t>(i) * 1000);
        // The last task due at a point waits for the backlog ahead of it.
        QCOMPARE(c.points[i].latenessMs,
                 static_cast<int64_t>(std::llround(c.points[i].backlog * 1000.0 / capacity)));
        QCOMPARE(c.points[i].due, i == 0 ? overdue : arrivals[i - 1]);
    }
    QCOMPARE(got, backlog);
    QCOMPARE(c.peakLatenessMs, peakMs);
    QCOMPARE(c.peakAtMs - kFrom, peakAfterMs);
}

void TestForecastModel::threshold_data()
{
    QTest::addColumn<int64_t>("overdue");
    QTest::addColumn<std::vector<int64_t>>("arrivals");
    QTest::addColumn<double>("capacity");
    QTest::addColumn<int64_t>("thresholdMs");
    QTest::addColumn<double>("expected"); // tasks/s, within 1 %

    using V = std::vector<int64_t>;
    QTest::newRow("nothing due") << int64_t(0) << V{0, 0} << 10.0 << int64_t(1000) << 0.0;
    // 100 overdue within 10 s: 10/s.
    QTest::newRow("overdue") << int64_t(100) << V{0} << 1.0 << int64_t(10000) << 10.0;
    // (100 - c) / c <= 1 s: c = 50/s, found above and below the current capacity.
    QTest::newRow("burst, from below")
        << int64_t(0) << V{0, 100, 0} << 10.0 << int64_t(1000) << 50.0;
    QTest::newRow("burst, from above")
        << int64_t(0) << V{0, 100, 0} << 400.0 << int64_t(1000) << 50.0;
    // Never late: the whole burst within its own second.
    QTest::newRow("threshold 0") << int64_t(0) << V{0, 100, 0} << 10.0 << int64_t(0) << 100.0;
}

void TestForecastModel::threshold()
{
    QFETCH(int64_t, overdue);
    QFETCH(std::vector<int64_t>, arrivals);
    QFETCH(double, capacity);
    QFETCH(int64_t, thresholdMs);
    QFETCH(double, expected);

    ForecastInput in;
    in.fromMs = kFrom;
    in.bucketMs = 1000;
    in.overdue = overdue;
    in.arrivals = arrivals;
    in.capacityPerSecond = capacity;
    const double got = capacityForThreshold(in, thresholdMs);
    if (expected == 0) {
        QCOMPARE(got, 0.0);
        return;
    }
    QVERIFY2(std::abs(got - expected) <= expected * 0.01,
             qPrintable(QStringLiteral("%1 tasks/s, expected %2").arg(got).arg(expected)));
    // It does keep the peak under the threshold.
    in.capacityPerSecond = got;
    QVERIFY(simulateForecast(in).peakLatenessMs <= thresholdMs);
}

void TestForecastModel::noCapacityNoCurve()
{
    ForecastInput in;
    in.fromMs = kFrom;
    in.overdue = 5;
    in.arrivals = {1, 2};
    in.capacityPerSecond = 0;
    const ForecastCurve c = simulateForecast(in);
    QVERIFY(c.points.empty());
    QCOMPARE(c.peakLatenessMs, int64_t(0));
    QCOMPARE(c.peakAtMs, kFrom);
}

QTEST_APPLESS_MAIN(TestForecastModel)
#include "tst_forecastmodel.moc"
