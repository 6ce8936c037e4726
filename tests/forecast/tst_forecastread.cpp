#include "expecterror.h"
#include "queuesuite.h"
#include <delayq/forecast.h>
#include <delayq/schedules.h>
#include <delayq/shardmover.h>

#include <QTest>

#include <chrono>
#include <cmath>
#include <thread>

using namespace delayq;

// ForecastReader against a real server: what it reads (overdue, due times per bucket, the
// schedules' fires, acks per minute, flow limits) and the capacity it takes from them, on one
// shard and on three, and the inputs it refuses.
class TestForecastRead : public QueueSuite
{
    Q_OBJECT

private slots:
    void capacity_data();
    void capacity();
    void burstLandsInItsBucket();
    void workersForThreshold();
    void scheduleFires();
    void shardsSum();
    void refusals_data();
    void refusals();

private:
    // Not within the last 5 s of a minute, so that minute counters written now are still
    // this minute's when the forecast reads them.
    long long minuteWithRoom()
    {
        while (m_conn->serverNowMs() % 60000 > 55000)
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        return m_conn->serverNowMs() / 60000;
    }
    void pushAt(Queue& queue, int count, long long dueAtMs)
    {
        std::vector<PushRequest> requests(static_cast<size_t>(count));
        for (PushRequest& r : requests)
            r.dueAtMs = dueAtMs;
        queue.pushBatch(requests);
    }
    static ForecastReader::Options options(double stated = 0)
    {
        ForecastReader::Options o;
        o.horizonMs = 60'000;
        o.buckets = 60;
        o.statedPerSecond = stated;
        o.thresholdMs = 1000;
        return o;
    }
};

void TestForecastRead::capacity_data()
{
    QTest::addColumn<QStringList>("config"); // KEY VALUE pairs
    QTest::addColumn<int>("overdue");
    QTest::addColumn<int>("ackedThisMinute");
    QTest::addColumn<int>("ackedThreeMinutesAgo");
    QTest::addColumn<double>("stated");
    QTest::addColumn<double>("capacity"); // tasks/s
    QTest::addColumn<QString>("source");

    QTest::newRow("nothing measured") << QStringList{} << 0 << 0 << 0 << 0.0 << 0.0 << "none";
    // Idle now: the busiest whole minute of the last 15 says what the workers can do.
    QTest::newRow("measured, idle") << QStringList{} << 0 << 60 << 600 << 0.0 << 10.0 << "measured";
    // Tasks wait now: the workers take all they can, so the last 60 s are the capacity and
    // an older busier minute no longer counts.
    QTest::newRow("measured, busy")
        << QStringList{} << 20 << 300 << 6000 << 0.0 << 5.0 << "measured";
    QTest::newRow("stated") << QStringList{} << 0 << 60 << 600 << 4.0 << 4.0 << "stated";
    QTest::newRow("rate limit caps measured")
        << QStringList{"rate", "2/s"} << 0 << 0 << 600 << 0.0 << 2.0 << "rate limit";
    QTest::newRow("rate limit caps stated")
        << QStringList{"rate", "120/m"} << 0 << 0 << 0 << 30.0 << 2.0 << "rate limit";
    QTest::newRow("rate limit alone")
        << QStringList{"rate", "50/s"} << 0 << 0 << 0 << 0.0 << 50.0 << "rate limit";
    // Tasks overdue, no ack in the last minute and no live worker: nobody takes them, so the
    // rate limit does not stand for a capacity (it said "nothing expected late" of a queue
    // with no consumer).
    QTest::newRow("rate limit, overdue, nobody taking")
        << QStringList{"rate", "50/s"} << 40 << 0 << 0 << 0.0 << 0.0 << "none";
    QTest::newRow("rate above measured")
        << QStringList{"rate", "50/s"} << 0 << 0 << 600 << 0.0 << 10.0 << "measured";
    QTest::newRow("paused") << QStringList{"paused", "1"} << 0 << 0 << 600 << 0.0 << 0.0
                            << "paused";
}

void TestForecastRead::capacity()
{
    QFETCH(QStringList, config);
    QFETCH(int, overdue);
    QFETCH(int, ackedThisMinute);
    QFETCH(int, ackedThreeMinutesAgo);
    QFETCH(double, stated);
    QFETCH(double, capacity);
    QFETCH(QString, source);

    std::vector<std::pair<std::string, std::string>> pairs;
    for (int i = 0; i + 1 < config.size(); i += 2)
        pairs.emplace_back(config[i].toStdString(), config[i + 1].toStdString());
    if (!pairs.empty())
        m_queue->setConfig(pairs);
    const long long minute = minuteWithRoom();
    if (overdue > 0)
        pushAt(*m_queue, overdue, m_conn->serverNowMs() - 5000);
    if (ackedThisMinute > 0)
        m_conn->command(
            {"HSET", m_queue->keys().minute(minute), "acked", std::to_string(ackedThisMinute)});
    if (ackedThreeMinutesAgo > 0)
        m_conn->command({"HSET", m_queue->keys().minute(minute - 3), "acked",
                         std::to_string(ackedThreeMinutesAgo)});

    const Forecast f = ForecastReader(*m_queue).read(options(stated));
    QCOMPARE(QString::fromStdString(f.capacitySource), source);
    QVERIFY2(std::abs(f.capacityPerSecond - capacity) < 1e-9,
             qPrintable(QString::number(f.capacityPerSecond)));
    QCOMPARE(f.overdue, int64_t(overdue));
    QCOMPARE(f.curve.empty(), capacity == 0);
    if (capacity > 0) {
        QCOMPARE(f.curve.size(), size_t(61));
        // The overdue, served at the capacity (and the rate's burst), before anything else.
        const double burst = source == "rate limit" ? capacity : 0;
        QCOMPARE(
            f.curve.front().latenessMs,
            static_cast<int64_t>(std::llround(std::max(0.0, overdue - burst) * 1000.0 / capacity)));
    }
}

// 30 tasks due 10.5 s from now at a stated 5/s: they fall in the bucket ending 11 s after
// now, read again in sub-buckets of 50 ms, so the peak is where they fall due, and the last
// of them waits 30/5 = 6 s, less the 50 ms its sub-bucket gives it.
void TestForecastRead::burstLandsInItsBucket()
{
    const long long now = m_conn->serverNowMs();
    pushAt(*m_queue, 30, now + 10'500);
    const Forecast f = ForecastReader(*m_queue).read(options(5));
    QCOMPARE(f.dueInHorizon, int64_t(30));
    QCOMPARE(f.bucketMs, int64_t(1000));
    // 60 buckets, then the one holding tasks again in 20.
    QCOMPARE(f.bucketsRead, int64_t(80));
    QCOMPARE(f.curve.size(), size_t(61));
    QCOMPARE(f.curve[11].due, int64_t(30));
    QVERIFY2(f.peakAtMs - f.fromMs > 10'400 && f.peakAtMs - f.fromMs <= 10'500,
             qPrintable(QString::number(f.peakAtMs - f.fromMs)));
    QCOMPARE(f.peakLatenessMs, int64_t(5950));
    QCOMPARE(f.curve[11].latenessMs, f.peakLatenessMs);
    // (30 - 0.05 s x c) / c <= 1 s: 28.6/s, 5.7x the stated capacity.
    QVERIFY2(std::abs(f.capacityForThresholdPerSecond - 28.57) < 0.3,
             qPrintable(QString::number(f.capacityForThresholdPerSecond)));
    QVERIFY(std::abs(f.capacityFactor - 5.714) < 0.06);
}

// Measured 10/s with 2 live workers: 5/s each. The burst above needs 28.6/s to stay under
// 1 s: 6 workers. With a rate limit (more workers would not start more) no count is given.
void TestForecastRead::workersForThreshold()
{
    const long long minute = minuteWithRoom();
    const long long now = m_conn->serverNowMs();
    m_conn->command({"HSET", m_queue->keys().minute(minute - 3), "acked", "600"});
    m_conn->command({"ZADD", m_queue->keys().workers(), std::to_string(now + 60'000), "w1",
                     std::to_string(now + 60'000), "w2", std::to_string(now - 1'000), "gone"});
    pushAt(*m_queue, 30, now + 10'500);
    const Forecast f = ForecastReader(*m_queue).read(options());
    QCOMPARE(f.capacitySource, std::string("measured"));
    QCOMPARE(f.liveWorkers, int64_t(2));
    QCOMPARE(f.perWorkerPerSecond, 5.0);
    QCOMPARE(f.workersForThreshold, int64_t(6));
    m_queue->setConfig({{"rate", "8/s"}});
    const Forecast limited = ForecastReader(*m_queue).read(options());
    QCOMPARE(limited.capacitySource, std::string("rate limit"));
    QCOMPARE(limited.workersForThreshold, int64_t(0));
}

// An every-10s schedule first firing 5.5 s from now fires 6 times within the minute, one
// task each, due at each fire; a paused one counts for nothing.
void TestForecastRead::scheduleFires()
{
    const long long now = m_conn->serverNowMs();
    Schedules schedules(*m_conn, "orders");
    ScheduleRule rule;
    rule.name = "tick";
    rule.everyMs = 10'000;
    rule.anchorMs = now + 5'500;
    schedules.add(rule);
    ScheduleRule idle = rule;
    idle.name = "idle";
    schedules.add(idle);
    schedules.setPaused("idle", true);

    const Forecast f = ForecastReader(*m_queue).read(options(100));
    QCOMPARE(f.scheduledInHorizon, int64_t(6));
    QCOMPARE(f.dueInHorizon, int64_t(0));
    QVERIFY(!f.schedulesTruncated);
    int64_t due = 0;
    for (size_t i = 1; i < f.curve.size(); ++i)
        due += f.curve[i].due;
    QCOMPARE(due, int64_t(6));
    QCOMPARE(f.curve[6].due, int64_t(1)); // the fire at +5.5 s, in (5 s, 6 s]
}

// A queue of three shards reads as one: the overdue and buckets summed over the shards.
void TestForecastRead::shardsSum()
{
    {
        ShardMover mover(*m_queue);
        mover.start(3);
        QTRY_VERIFY_WITH_TIMEOUT(mover.step(50).finished, 10000);
        m_queue->reloadLayout();
    }
    const long long now = m_conn->serverNowMs();
    pushAt(*m_queue, 9, now - 1000);
    pushAt(*m_queue, 30, now + 10'500);
    const Forecast f = ForecastReader(*m_queue).read(options(5));
    QCOMPARE(f.overdue, int64_t(9));
    QCOMPARE(f.dueInHorizon, int64_t(30));
    QCOMPARE(f.bucketsRead, int64_t(3 * 80));
    QCOMPARE(f.curve[11].due, int64_t(30));
}

void TestForecastRead::refusals_data()
{
    QTest::addColumn<qlonglong>("horizonMs");
    QTest::addColumn<int>("buckets");
    QTest::addColumn<double>("stated");
    QTest::addColumn<qlonglong>("thresholdMs");
    QTest::addColumn<QString>("names");

    QTest::newRow("horizon too short") << 5'000LL << 60 << 0.0 << 1000LL << "horizon";
    QTest::newRow("horizon too long") << 8LL * 86'400'000 << 60 << 0.0 << 1000LL << "horizon";
    QTest::newRow("no buckets") << 60'000LL << 0 << 0.0 << 1000LL << "buckets";
    QTest::newRow("too many buckets") << 60'000LL << 1001 << 0.0 << 1000LL << "buckets";
    QTest::newRow("negative capacity") << 60'000LL << 60 << -1.0 << 1000LL << "capacity";
    QTest::newRow("NaN capacity") << 60'000LL << 60 << std::nan("") << 1000LL << "capacity";
    QTest::newRow("negative threshold") << 60'000LL << 60 << 0.0 << -1LL << "threshold";
}

void TestForecastRead::refusals()
{
    QFETCH(qlonglong, horizonMs);
    QFETCH(int, buckets);
    QFETCH(double, stated);
    QFETCH(qlonglong, thresholdMs);
    QFETCH(QString, names);
    ForecastReader::Options o;
    o.horizonMs = horizonMs;
    o.buckets = buckets;
    o.statedPerSecond = stated;
    o.thresholdMs = thresholdMs;
    ForecastReader reader(*m_queue);
    EXPECT_ERROR(ErrorCode::InvalidArgument, "", reader.read(o));
    QVERIFY2(m_message.find(names.toStdString()) != std::string::npos, m_message.c_str());
}

QTEST_GUILESS_MAIN(TestForecastRead)
#include "tst_forecastread.moc"
