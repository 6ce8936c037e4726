#include <delayq/error.h>
#include <delayq/timeparse.h>

#include <QDateTime>
#include <QTest>

#include <ctime>
#include <functional>
#include <random>

using namespace delayq;

namespace {

qint64 utc(int y, int mo, int d, int h = 0, int mi = 0, int s = 0, int ms = 0)
{
    return QDateTime(QDate(y, mo, d), QTime(h, mi, s, ms), Qt::UTC).toMSecsSinceEpoch();
}

constexpr qint64 kHour = 3'600'000;

// parse refuses its text as InvalidArgument with a message that holds mentions; what names
// the kind of text for the failure message.
void expectInvalid(const std::function<void()>& parse, const QString& mentions, const char* what)
{
    try {
        parse();
        QFAIL(qPrintable(QStringLiteral("the %1 was accepted").arg(QLatin1String(what))));
    } catch (const Error& e) {
        QCOMPARE(e.code(), ErrorCode::InvalidArgument);
        const QString message = QString::fromStdString(e.what());
        QVERIFY2(message.contains(mentions), qPrintable(message));
    }
}

} // namespace

// Durations and ISO 8601 times as users type them (CLI flags, dialogs, config values).
class TestTimeParse : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // A fixed zone east of UTC (POSIX form, no tzdata needed), so "local" differs from
        // UTC and a missing offset is caught.
        qputenv("TZ", "XYZ-8");
        tzset();
    }

    void durations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ms");
        QTest::newRow("ms") << "250ms" << qint64(250);
        QTest::newRow("seconds") << "30s" << qint64(30'000);
        QTest::newRow("minutes") << "5m" << qint64(300'000);
        QTest::newRow("hours") << "2h" << qint64(7'200'000);
        QTest::newRow("days") << "1d" << qint64(86'400'000);
        QTest::newRow("compound") << "1h30m" << qint64(5'400'000);
        QTest::newRow("compound all") << "1d2h3m4s5ms" << qint64(93'784'005);
        QTest::newRow("zero") << "0s" << qint64(0);
        QTest::newRow("zero ms") << "0ms" << qint64(0);
        QTest::newRow("leading zeros") << "007s" << qint64(7'000);
        QTest::newRow("ten years") << "3650d" << qint64(3650) * 86'400'000;
    }
    void durations()
    {
        QFETCH(QString, text);
        QTEST(static_cast<qint64>(parseDuration(text.toStdString())), "ms");
    }

    void badDurations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("empty") << ""
                               << "empty";
        QTest::newRow("negative") << "-5s"
                                  << "negative";
        QTest::newRow("no unit") << "5"
                                 << "unit";
        QTest::newRow("no unit after a part") << "1h30"
                                              << "unit";
        QTest::newRow("unknown unit") << "5w"
                                      << "unknown unit";
        QTest::newRow("unknown long unit") << "5sec"
                                           << "unknown unit";
        QTest::newRow("upper case") << "5S"
                                    << "unknown unit";
        QTest::newRow("unit only") << "ms"
                                   << "number";
        QTest::newRow("space") << "5 s"
                               << "unit";
        QTest::newRow("fraction") << "1.5s"
                                  << "unit";
        QTest::newRow("overflow digits") << "99999999999999999999999s"
                                         << "too large";
        QTest::newRow("overflow product") << "9223372036854775d"
                                          << "3650 days";
        QTest::newRow("over ten years") << "3651d"
                                        << "3650 days";
        QTest::newRow("sum over ten years") << "3650d1ms"
                                            << "3650 days";
        QTest::newRow("too long") << QString(70, QLatin1Char('1')) + "s"
                                  << "too long";
    }
    void badDurations()
    {
        QFETCH(QString, text);
        QFETCH(QString, mentions);
        expectInvalid([&] { parseDuration(text.toStdString()); }, mentions, "duration");
    }

    void times_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ms");
        QTest::newRow("Z") << "2026-12-01T09:30:00Z" << utc(2026, 12, 1, 9, 30);
        QTest::newRow("lower z") << "2026-12-01t09:30:00z" << utc(2026, 12, 1, 9, 30);
        QTest::newRow("+08:00") << "2026-12-01T09:30:00+08:00" << utc(2026, 12, 1, 1, 30);
        QTest::newRow("-0500") << "2026-12-01T09:30:00-0500" << utc(2026, 12, 1, 14, 30);
        QTest::newRow("+05:45") << "2026-12-01T09:30:00+05:45" << utc(2026, 12, 1, 3, 45);
        QTest::newRow("fraction") << "2026-12-01T09:30:00.123Z" << utc(2026, 12, 1, 9, 30, 0, 123);
        QTest::newRow("short fraction")
            << "2026-12-01T09:30:00.5Z" << utc(2026, 12, 1, 9, 30, 0, 500);
        QTest::newRow("long fraction")
            << "2026-12-01T09:30:00.987654321Z" << utc(2026, 12, 1, 9, 30, 0, 987);
        QTest::newRow("no seconds") << "2026-12-01T09:30Z" << utc(2026, 12, 1, 9, 30);
        QTest::newRow("space separator") << "2026-12-01 09:30:00Z" << utc(2026, 12, 1, 9, 30);
        QTest::newRow("local") << "2026-12-01T09:30:00" << utc(2026, 12, 1, 9, 30) - 8 * kHour;
        QTest::newRow("local fraction")
            << "2026-12-01 09:30:00.250" << utc(2026, 12, 1, 9, 30, 0, 250) - 8 * kHour;
        QTest::newRow("date only is local midnight")
            << "2026-12-01" << utc(2026, 12, 1) - 8 * kHour;
        QTest::newRow("leap day") << "2028-02-29T00:00:00Z" << utc(2028, 2, 29);
        QTest::newRow("epoch") << "1970-01-01T00:00:00Z" << qint64(0);
        QTest::newRow("last ms of 9999")
            << "9999-12-31T23:59:59.999Z" << qint64(253'402'300'799'999);
        QTest::newRow("offset to the day before")
            << "2026-01-01T02:00:00+03:00" << utc(2025, 12, 31, 23, 0);
    }
    void times()
    {
        QFETCH(QString, text);
        QTEST(static_cast<qint64>(parseTime(text.toStdString())), "ms");
    }

    void badTimes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("empty") << ""
                               << "empty";
        QTest::newRow("garbage") << "tomorrow"
                                 << "YYYY-MM-DD";
        QTest::newRow("numbers only") << "1733045400"
                                      << "YYYY-MM-DD";
        QTest::newRow("year 1969") << "1969-12-31T23:59:59Z"
                                   << "1970";
        QTest::newRow("before 1970 by offset") << "1970-01-01T00:30:00+01:00"
                                               << "1970";
        QTest::newRow("before 1970 local") << "1970-01-01T07:00:00"
                                           << "1970";
        QTest::newRow("year 10000") << "10000-01-01T00:00:00Z"
                                    << "YYYY-MM-DD";
        QTest::newRow("after 9999 by offset") << "9999-12-31T23:00:00-05:00"
                                              << "9999";
        QTest::newRow("Feb 30") << "2026-02-30"
                                << "does not exist";
        QTest::newRow("Feb 29 not leap") << "2027-02-29T00:00:00Z"
                                         << "does not exist";
        QTest::newRow("Apr 31") << "2026-04-31"
                                << "does not exist";
        QTest::newRow("month 13") << "2026-13-01"
                                  << "month";
        QTest::newRow("month 0") << "2026-00-01"
                                 << "month";
        QTest::newRow("day 0") << "2026-01-00"
                               << "does not exist";
        QTest::newRow("hour 24") << "2026-01-01T24:00:00Z"
                                 << "hours";
        QTest::newRow("minute 60") << "2026-01-01T10:60:00Z"
                                   << "minutes";
        QTest::newRow("no minutes") << "2026-01-01T10Z"
                                    << "HH:MM";
        QTest::newRow("bad separator") << "2026-01-01X10:00"
                                       << "'T'";
        QTest::newRow("empty fraction") << "2026-01-01T10:00:00.Z"
                                        << "fraction";
        QTest::newRow("bad offset") << "2026-01-01T10:00:00+8"
                                    << "offset";
        QTest::newRow("offset hour 24") << "2026-01-01T10:00:00+24:00"
                                        << "offset";
        QTest::newRow("trailing text") << "2026-01-01T10:00:00Z now"
                                       << "end";
        QTest::newRow("date with zone") << "2026-01-01Z"
                                        << "'T'";
        QTest::newRow("too long") << "2026-01-01T10:00:00.000000000000000000000000000Z"
                                  << "long";
    }
    void badTimes()
    {
        QFETCH(QString, text);
        QFETCH(QString, mentions);
        expectInvalid([&] { parseTime(text.toStdString()); }, mentions, "time");
    }

    // Random text made of the characters times and durations use: a value or
    // InvalidArgument, never another exception, a crash, or an out-of-range instant.
    void garbageNeverCrashes()
    {
        const std::string alphabet = "0123456789-:+.TZ zmshd,";
        std::mt19937 gen(5);
        for (int i = 0; i < 20'000; ++i) {
            std::string text = i % 2 ? "2026-" : "";
            const size_t length = gen() % 30;
            for (size_t k = 0; k < length; ++k)
                text += alphabet[gen() % alphabet.size()];
            try {
                const long long ms = parseTime(text);
                QVERIFY2(ms >= 0 && ms <= 253'402'300'799'999LL, text.c_str());
            } catch (const Error& e) {
                QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            }
            try {
                QVERIFY2(parseDuration(text) >= 0, text.c_str());
            } catch (const Error& e) {
                QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            }
        }
    }

    void formatsDurations_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << "0ms";
        QTest::newRow("ms") << qint64(250) << "250ms";
        QTest::newRow("second") << qint64(1000) << "1s";
        QTest::newRow("minute and seconds") << qint64(200'000) << "3m 20s";
        QTest::newRow("two largest units") << qint64(90'061'000) << "1d 1h";
        QTest::newRow("no gap") << qint64(3'601'000) << "1h";
        QTest::newRow("negative") << qint64(-5000) << "-5s";
    }
    void formatsDurations()
    {
        QFETCH(qint64, ms);
        QTEST(QString::fromStdString(formatDuration(ms)), "text");
    }

    void formatsTimes()
    {
        const qint64 ms = utc(2026, 12, 1, 9, 30, 0, 123);
        QCOMPARE(formatTime(ms, true), std::string("2026-12-01 09:30:00.123Z"));
        QCOMPARE(formatTime(ms, false), std::string("2026-12-01 17:30:00.123"));
        // What is shown parses back to the same instant.
        QCOMPARE(parseTime(formatTime(ms, true)), ms);
        QCOMPARE(parseTime(formatTime(ms, false)), ms);
    }

    void formatsRelative_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("now") << qint64(1'000'500) << "now";
        QTest::newRow("future") << qint64(1'000'000 + 200'000) << "in 3m 20s";
        QTest::newRow("past") << qint64(1'000'000 - 120'000) << "2m overdue";
    }
    void formatsRelative()
    {
        QFETCH(qint64, ms);
        QTEST(QString::fromStdString(formatRelative(ms, 1'000'000)), "text");
    }
};

QTEST_GUILESS_MAIN(TestTimeParse)
#include "tst_timeparse.moc"
