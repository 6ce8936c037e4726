// Cron expressions, time zones, daylight saving and the fire plan, without Redis: the part of
// a schedule every worker computes the same way (docs/schedules.md).
#include <delayq/cron.h>
#include <delayq/error.h>
#include <delayq/schedule.h>

#include <QDateTime>
#include <QTest>

using namespace delayq;

namespace {

qint64 utc(int y, int mo, int d, int h = 0, int mi = 0)
{
    return QDateTime(QDate(y, mo, d), QTime(h, mi), Qt::UTC).toMSecsSinceEpoch();
}

QString iso(long long ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
}

// The fires of `cron` in `zone` strictly after `from`, up to `until`, as UTC ISO times.
QStringList firesBetween(const Cron& cron, const std::string& zone, qint64 from, qint64 until)
{
    QStringList out;
    for (auto at = cron.next(from, zone); at && *at <= until; at = cron.next(*at, zone))
        out << iso(*at);
    return out;
}

ScheduleRule everyRule(long long everyMs, long long anchorMs, long long catchUpMs)
{
    ScheduleRule r;
    r.name = "beat";
    r.everyMs = everyMs;
    r.anchorMs = anchorMs;
    r.catchUpMs = catchUpMs;
    return r;
}

} // namespace

class TestCron : public QObject
{
    Q_OBJECT

private slots:
    void next_data()
    {
        QTest::addColumn<QString>("cron");
        QTest::addColumn<QString>("zone");
        QTest::addColumn<qint64>("after");
        QTest::addColumn<QString>("expected");
        const qint64 mon = utc(2026, 12, 7, 10, 17); // a Monday, 10:17 UTC
        QTest::newRow("every minute") << "* * * * *"
                                      << "UTC" << mon << "2026-12-07T10:18:00Z";
        QTest::newRow("strictly after") << "17 10 * * *"
                                        << "UTC" << mon << "2026-12-08T10:17:00Z";
        QTest::newRow("step") << "*/15 * * * *"
                              << "UTC" << mon << "2026-12-07T10:30:00Z";
        QTest::newRow("range step") << "10-50/20 * * * *"
                                    << "UTC" << mon << "2026-12-07T10:30:00Z";
        QTest::newRow("list") << "5,40 9,11 * * *"
                              << "UTC" << mon << "2026-12-07T11:05:00Z";
        QTest::newRow("weekdays by name") << "0 9 * * sat,SUN"
                                          << "UTC" << mon << "2026-12-12T09:00:00Z";
        QTest::newRow("7 is Sunday") << "0 9 * * 7"
                                     << "UTC" << mon << "2026-12-13T09:00:00Z";
        QTest::newRow("month name") << "0 0 1 feb *"
                                    << "UTC" << mon << "2027-02-01T00:00:00Z";
        // Both day fields restricted: either matches (the 15th, or a Friday).
        QTest::newRow("day or weekday") << "0 0 15 * 5"
                                        << "UTC" << mon << "2026-12-11T00:00:00Z";
        // A day field starting with '*' leaves the day to the other one: odd days AND Mondays.
        QTest::newRow("star day and weekday") << "0 0 */2 * 1"
                                              << "UTC" << mon << "2026-12-21T00:00:00Z";
        QTest::newRow("leap day") << "0 12 29 2 *"
                                  << "UTC" << mon << "2028-02-29T12:00:00Z";
        QTest::newRow("@daily") << "@daily"
                                << "UTC" << mon << "2026-12-08T00:00:00Z";
        QTest::newRow("@hourly") << "@hourly"
                                 << "UTC" << mon << "2026-12-07T11:00:00Z";
        // 09:00 in Berlin in December is 08:00 UTC (CET, +1).
        QTest::newRow("zone east") << "0 9 * * *"
                                   << "Europe/Berlin" << mon << "2026-12-08T08:00:00Z";
        // 09:00 in New York in December is 14:00 UTC (EST, -5): still ahead on Monday.
        QTest::newRow("zone west") << "0 9 * * *"
                                   << "America/New_York" << mon << "2026-12-07T14:00:00Z";
        // Monday in Tokyo (+9) is already over at 10:17 UTC (19:17 there).
        QTest::newRow("weekday in zone") << "0 8 * * 1"
                                         << "Asia/Tokyo" << mon << "2026-12-13T23:00:00Z";
    }

    void next()
    {
        QFETCH(QString, cron);
        QFETCH(QString, zone);
        QFETCH(qint64, after);
        QFETCH(QString, expected);
        const auto at = Cron::parse(cron.toStdString()).next(after, zone.toStdString());
        QVERIFY(at);
        QCOMPARE(iso(*at), expected);
    }

    void daylightSaving_data()
    {
        QTest::addColumn<QString>("cron");
        QTest::addColumn<QString>("zone");
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("until");
        QTest::addColumn<QStringList>("fires");
        // New York springs forward on 2026-03-08 at 02:00 EST (07:00 UTC) to 03:00 EDT:
        // 02:30 does not exist that day and fires once, at the jump.
        QTest::newRow("spring, a skipped time")
            << "30 2 * * *"
            << "America/New_York" << utc(2026, 3, 7) << utc(2026, 3, 10)
            << QStringList{"2026-03-07T07:30:00Z", "2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z"};
        // Every quarter hour of the skipped hour lands on the jump: it fires once there, then
        // 03:00 EDT (the same instant) is not a second fire.
        QTest::newRow("spring, a skipped hour")
            << "*/15 2,3 8 3 *"
            << "America/New_York" << utc(2026, 3, 8) << utc(2026, 3, 9)
            << QStringList{"2026-03-08T07:00:00Z", "2026-03-08T07:15:00Z", "2026-03-08T07:30:00Z",
                           "2026-03-08T07:45:00Z"};
        // It falls back on 2026-11-01 at 02:00 EDT (06:00 UTC) to 01:00 EST: 01:30 happens
        // twice and fires once, at the first (05:30 UTC).
        QTest::newRow("autumn, a repeated time")
            << "30 1 * * *"
            << "America/New_York" << utc(2026, 10, 31) << utc(2026, 11, 3)
            << QStringList{"2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"};
        // Berlin: CET to CEST on 2026-03-29 at 01:00 UTC (02:00 local skipped), back on
        // 2026-10-25 at 01:00 UTC (02:00-03:00 local twice).
        QTest::newRow("Berlin spring")
            << "0 2 * * *"
            << "Europe/Berlin" << utc(2026, 3, 28) << utc(2026, 3, 30, 12)
            << QStringList{"2026-03-28T01:00:00Z", "2026-03-29T01:00:00Z", "2026-03-30T00:00:00Z"};
        QTest::newRow("Berlin autumn")
            << "30 2 * * *"
            << "Europe/Berlin" << utc(2026, 10, 24) << utc(2026, 10, 27)
            << QStringList{"2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"};
    }

    void daylightSaving()
    {
        QFETCH(QString, cron);
        QFETCH(QString, zone);
        QFETCH(qint64, from);
        QFETCH(qint64, until);
        QFETCH(QStringList, fires);
        QCOMPARE(firesBetween(Cron::parse(cron.toStdString()), zone.toStdString(), from, until),
                 fires);
    }

    void refused_data()
    {
        QTest::addColumn<QString>("cron");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("four fields") << "* * * *"
                                     << "expected 5 fields";
        QTest::newRow("six fields") << "0 * * * * *"
                                    << "found 6";
        QTest::newRow("empty") << ""
                               << "found 0";
        QTest::newRow("minute range") << "60 * * * *"
                                      << "minute: '60' is out of range 0-59";
        QTest::newRow("hour range") << "0 24 * * *"
                                    << "hour: '24' is out of range 0-23";
        QTest::newRow("day zero") << "0 0 0 * *"
                                  << "day-of-month: '0' is out of range 1-31";
        QTest::newRow("month name") << "0 0 1 foo *"
                                    << "month: 'foo' is not a number or a month";
        QTest::newRow("weekday 8") << "0 0 * * 8"
                                   << "day-of-week: '8' is out of range 0-7";
        QTest::newRow("backwards") << "0 17-9 * * *"
                                   << "runs backwards";
        QTest::newRow("step zero") << "*/0 * * * *"
                                   << "step in '*/0'";
        QTest::newRow("empty list element") << "1,,2 * * * *"
                                            << "empty list element";
        QTest::newRow("letters") << "a * * * *"
                                 << "minute: 'a' is not a number";
        QTest::newRow("never") << "0 0 30 2 *"
                               << "never fires";
        QTest::newRow("unknown macro") << "@reboot"
                                       << "unknown shortcut";
    }

    void refused()
    {
        QFETCH(QString, cron);
        QFETCH(QString, mentions);
        try {
            Cron::parse(cron.toStdString());
            QFAIL("accepted");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            QVERIFY2(QString::fromStdString(e.what()).contains(mentions), e.what());
        }
    }

    void zones()
    {
        Cron::validateZone("UTC");
        Cron::validateZone("Europe/Berlin");
        for (const char* bad : {"Mars/Olympus", "", "../../etc/passwd", "utc+1"}) {
            try {
                Cron::validateZone(bad);
                QFAIL(bad);
            } catch (const Error& e) {
                QCOMPARE(e.code(), ErrorCode::InvalidArgument);
                QVERIFY2(QString::fromStdString(e.what()).contains("time zone"), e.what());
            }
        }
    }

    void ruleRefused_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("cron");
        QTest::addColumn<qint64>("every");
        QTest::addColumn<QString>("zone");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("every 0") << "a"
                                 << "" << 0LL << "UTC"
                                 << "exactly one of";
        QTest::newRow("every 500 ms") << "a"
                                      << "" << 500LL << "UTC"
                                      << "every must be 1s";
        QTest::newRow("both") << "a"
                              << "* * * * *" << 60000LL << "UTC"
                              << "exactly one of";
        QTest::newRow("bad name") << "a b"
                                  << "* * * * *" << 0LL << "UTC"
                                  << "schedule name";
        QTest::newRow("empty name") << ""
                                    << "* * * * *" << 0LL << "UTC"
                                    << "schedule name";
        QTest::newRow("unknown zone") << "a"
                                      << "* * * * *" << 0LL << "Nowhere/City"
                                      << "unknown time zone 'Nowhere/City'";
        QTest::newRow("bad cron") << "a"
                                  << "* * *" << 0LL << "UTC"
                                  << "expected 5 fields";
    }

    void ruleRefused()
    {
        QFETCH(QString, name);
        QFETCH(QString, cron);
        QFETCH(qint64, every);
        QFETCH(QString, zone);
        QFETCH(QString, mentions);
        ScheduleRule r;
        r.name = name.toStdString();
        r.cron = cron.toStdString();
        r.everyMs = every;
        r.zone = zone.toStdString();
        try {
            r.validate();
            QFAIL("accepted");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            QVERIFY2(QString::fromStdString(e.what()).contains(mentions), e.what());
        }
    }

    void everyGrid()
    {
        const ScheduleRule r = everyRule(60'000, utc(2026, 12, 7, 10, 0), 3'600'000);
        QCOMPARE(*r.nextFire(utc(2026, 12, 7, 9, 0)), utc(2026, 12, 7, 10, 0));
        QCOMPARE(*r.nextFire(utc(2026, 12, 7, 10, 0)), utc(2026, 12, 7, 10, 1));
        QCOMPARE(*r.nextFire(utc(2026, 12, 7, 10, 0) + 59'999), utc(2026, 12, 7, 10, 1));
        QCOMPARE(*r.nextFire(utc(2026, 12, 8, 0, 0)), utc(2026, 12, 8, 0, 1));
    }

    // All workers down for 10 minutes, a catch-up of 5 minutes, a fire every minute: the 5
    // fires within 5 minutes of now fire once each, the 5 before them are skipped and
    // counted, and the next fire is the first one after now.
    void catchUp_data()
    {
        QTest::addColumn<bool>("cron");
        QTest::newRow("every") << false;
        QTest::newRow("cron") << true;
    }

    void catchUp()
    {
        QFETCH(bool, cron);
        const qint64 t = utc(2026, 12, 7, 10, 0);
        ScheduleRule r = everyRule(60'000, t, 5 * 60'000);
        if (cron) {
            r.everyMs = 0;
            r.cron = "* * * * *";
        }
        const qint64 now = t + 10 * 60'000 + 20'000; // 10:10:20; the next fire stored: 10:01
        const FirePlan plan = planFires(r, t + 60'000, now);
        QCOMPARE(plan.skipped, 5LL);
        QStringList fires;
        for (long long f : plan.fires)
            fires << iso(f);
        QCOMPARE(fires, (QStringList{"2026-12-07T10:06:00Z", "2026-12-07T10:07:00Z",
                                     "2026-12-07T10:08:00Z", "2026-12-07T10:09:00Z",
                                     "2026-12-07T10:10:00Z"}));
        QCOMPARE(iso(*plan.next), QString("2026-12-07T10:11:00Z"));
    }

    // A tick a little late still makes the fire, however small the catch-up window.
    void lateTickFires()
    {
        const qint64 t = utc(2026, 12, 7, 10, 0);
        const FirePlan plan = planFires(everyRule(1000, t, 0), t, t + 400);
        QCOMPARE(plan.skipped, 0LL);
        QCOMPARE(plan.fires.size(), size_t(1));
    }

    // Fires due beyond maxFires wait for the next call, which starts where this one stopped.
    void planIsBounded()
    {
        const qint64 t = utc(2026, 12, 7, 10, 0);
        const FirePlan plan = planFires(everyRule(1000, t, 3'600'000), t, t + 999'000, 100);
        QCOMPARE(plan.fires.size(), size_t(100));
        QCOMPARE(*plan.next, t + 100'000);
    }

    // Downtime across a spring-forward night: each wall-clock fire once, the skipped 02:30 at
    // the jump.
    void catchUpAcrossDaylightSaving()
    {
        ScheduleRule r;
        r.name = "nightly";
        r.cron = "30 2 * * *";
        r.zone = "America/New_York";
        r.catchUpMs = ScheduleRule::kMaxCatchUpMs;
        const FirePlan plan = planFires(r, utc(2026, 3, 7, 7, 30), utc(2026, 3, 9, 12, 0));
        QStringList fires;
        for (long long f : plan.fires)
            fires << iso(f);
        QCOMPARE(fires, (QStringList{"2026-03-07T07:30:00Z", "2026-03-08T07:00:00Z",
                                     "2026-03-09T06:30:00Z"}));
        QCOMPARE(iso(*plan.next), QString("2026-03-10T06:30:00Z"));
    }
};

QTEST_APPLESS_MAIN(TestCron)
#include "tst_cron.moc"
