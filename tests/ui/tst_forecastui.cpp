#include "alerts/alertrules.h"
#include "charts/timelinechart.h"
#include "overview/overviewmodel.h"
#include "overview/overviewpage.h"
#include "queue/thresholds.h"
#include "widgets/duetext.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QDateTime>
#include <QLocale>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <qcustomplot.h>

#include <algorithm>

using namespace delayq::ui;

// The lateness forecast in the app (issue 54) against a real server: the timeline's line and
// sentence, the Overview's peak column, and when the alert rules raise and clear the
// forecast's alert. The capacity is a rate limit (the forecast takes it when no acks were
// measured), so the expected peak is known: N tasks due at once at R/s, the burst served at
// once, run (N - burst) / R late.
class TestForecastUi : public WindowSuite
{
    Q_OBJECT

public:
    TestForecastUi() : WindowSuite(QStringLiteral("tst_forecastui")) {}

private:
    void setRate(const QString& queue, const std::string& rate)
    {
        delayq::Connection c(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
        delayq::Queue(c, queue.toStdString()).setConfig("rate", rate);
    }
    static QString clock(qint64 ms)
    {
        return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm"));
    }
    // The timeline's forecast once it was read and shown.
    TimelineChart* openWithForecast(const QString& queue)
    {
        TimelineChart* chart = m_fixture.window()->timeline();
        QSignalSpy shown(chart, &TimelineChart::forecastShown);
        m_fixture.openQueue(queue);
        if (shown.isEmpty())
            [&] { QVERIFY(shown.wait(30000)); }();
        return chart;
    }
    static OverviewRow row(const QString& name, bool known, qint64 peakMs, qint64 atMs)
    {
        OverviewRow r;
        r.name = name;
        r.consumers = 1;
        r.forecastKnown = known;
        r.forecastPeakMs = peakMs;
        r.forecastPeakAtMs = atMs;
        return r;
    }

private slots:
    // tasks due at once in 2 minutes at `rate`: the line's peak, the sentence under the plot.
    void timelineShowsTheExpectedLateness_data()
    {
        QTest::addColumn<int>("tasks");
        QTest::addColumn<QString>("rate");
        QTest::addColumn<qint64>("peakMs"); // expected; -1: no curve
        QTest::addColumn<QString>("sentence");
        // 600 at 5/s, burst 5: 119 s late, above the default 1m threshold.
        QTest::newRow("above the threshold")
            << 600 << "5/s" << qint64(119000)
            << "^Peak (.+) late at (\\d\\d:\\d\\d); (\\d+\\.\\d)× today's capacity keeps "
               "it under 1m$";
        // 200 at 5/s: 39 s late, under it.
        QTest::newRow("within the threshold")
            << 200 << "5/s" << qint64(39000)
            << "^Peak (.+) late at (\\d\\d:\\d\\d), within its 1m threshold$";
        // 50 at 100/s with a burst of 100: served at once.
        QTest::newRow("on time") << 50 << "100/s" << qint64(0)
                                 << "^No lateness expected in the next 6h$";
        // No rate, no acks: nothing to measure a capacity from.
        QTest::newRow("no capacity") << 50 << "" << qint64(-1)
                                     << "^No lateness forecast: no acks in the last 15 "
                                        "minutes to measure a capacity from$";
    }
    void timelineShowsTheExpectedLateness()
    {
        QFETCH(int, tasks);
        QFETCH(QString, rate);
        QFETCH(qint64, peakMs);
        QFETCH(QString, sentence);
        const qint64 due = QDateTime::currentMSecsSinceEpoch() + 120000;
        m_fixture.pushAt(QStringLiteral("orders"), QList<qint64>(tasks, due));
        if (!rate.isEmpty())
            setRate(QStringLiteral("orders"), rate.toStdString());
        TimelineChart* chart = openWithForecast(QStringLiteral("orders"));
        if (QTest::currentTestFailed())
            return;
        const QRegularExpressionMatch match =
            QRegularExpression(sentence).match(chart->forecastText());
        QVERIFY2(match.hasMatch(), qPrintable(chart->forecastText()));
        const auto line = chart->latenessShown();
        QCOMPARE(chart->plot()->yAxis2->visible(), peakMs >= 0);
        if (peakMs < 0) {
            QVERIFY(line.isEmpty());
            return;
        }
        QVERIFY(!line.isEmpty());
        // The dashed threshold line has its entry in the legend, naming the threshold.
        QStringList legend;
        for (int i = 0; i < chart->plot()->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(chart->plot()->legend->item(i)))
                legend << item->plottable()->name();
        QVERIFY2(legend.contains(QStringLiteral("threshold %1")
                                     .arg(DueText::duration(chart->forecast().thresholdMs))),
                 qPrintable(legend.join(QStringLiteral(", "))));
        const qint64 top =
            std::max_element(line.begin(), line.end(), [](const auto& a, const auto& b) {
                return a.second < b.second;
            })->second;
        // The line is the forecast's, and the sentence says its peak.
        const ForecastResult& f = chart->forecast();
        QCOMPARE(top, f.peakLatenessMs);
        if (peakMs == 0)
            return;
        QCOMPARE(match.captured(1), DueText::duration(f.peakLatenessMs / 1000 * 1000));
        QCOMPARE(match.captured(2), clock(f.peakAtMs));
        if (f.peakLatenessMs > f.thresholdMs)
            QCOMPARE(match.captured(3), QLocale().toString(f.capacityFactor, 'f', 1));
        // The model's accuracy is the core's test (tst_forecastmodel); here, that the app
        // asks for buckets fine enough for a burst: its fluid model spreads a bucket's
        // arrivals over it, so the peak may read up to one bucket's service less.
        const qint64 bucketMs = f.horizonMs / 1000;
        QVERIFY2(top >= peakMs - bucketMs - 1000 && top <= peakMs + peakMs / 10,
                 qPrintable(QStringLiteral("peak %1 ms, expected %2").arg(top).arg(peakMs)));
        // The peak is the burst's: at its due time, to the forecast's bucket.
        QVERIFY2(f.peakAtMs >= due - 1000 && f.peakAtMs <= due + bucketMs + 1000,
                 qPrintable(QString::number(f.peakAtMs - due)));
    }

    // The Overview's column: the peak and its time, "—" for a queue on time, empty where no
    // capacity is known; read with the first refresh, then every kForecastEveryMs.
    void overviewShowsTheForecastPeak()
    {
        const qint64 due = QDateTime::currentMSecsSinceEpoch() + 120000;
        m_fixture.pushAt(QStringLiteral("orders"), QList<qint64>(600, due));
        setRate(QStringLiteral("orders"), "5/s");
        m_fixture.pushAt(QStringLiteral("mail"), QList<qint64>(10, due));
        setRate(QStringLiteral("mail"), "100/s");
        m_fixture.pushAt(QStringLiteral("webhooks"), QList<qint64>(10, due));
        m_fixture.connectWindow();
        OverviewPage* page = m_fixture.window()->overview();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isRefreshing(), 30000); // under a sanitizer beside other suites
        QSignalSpy refreshed(page, &OverviewPage::refreshed);
        page->refresh();
        QVERIFY(refreshed.wait(10000));
        OverviewModel* model = page->model();
        const auto cell = [&](const QString& queue) {
            for (int r = 0; r < model->rowCount(); ++r)
                if (model->rows().at(r).name == queue)
                    return model->index(r, OverviewModel::ForecastPeak).data().toString();
            return QStringLiteral("(no row)");
        };
        const OverviewRow* orders = model->rowNamed(QStringLiteral("orders"));
        QVERIFY(orders && orders->forecastKnown);
        QVERIFY2(QRegularExpression(QStringLiteral("^[12]m at \\d\\d:\\d\\d$"))
                     .match(cell(QStringLiteral("orders")))
                     .hasMatch(),
                 qPrintable(cell(QStringLiteral("orders"))));
        QVERIFY(cell(QStringLiteral("orders")).endsWith(clock(orders->forecastPeakAtMs)));
        // Above its 1m threshold: the cell is marked, as the alert will say.
        const auto colour = [&](const QString& queue) {
            const int r = static_cast<int>(model->rowNamed(queue) - model->rows().data());
            return model->index(r, OverviewModel::ForecastPeak).data(Qt::BackgroundRole);
        };
        // Marks are drawn on live figures only: a page disabled for a moment (slow under the
        // sanitizers) shows its rows as not live, without colours.
        QTRY_VERIFY(!model->isStale());
        QCOMPARE(colour(QStringLiteral("orders")), QVariant(OverviewModel::warningColor()));
        QCOMPARE(colour(QStringLiteral("mail")), QVariant());
        QCOMPARE(cell(QStringLiteral("mail")), QStringLiteral("—"));
        QCOMPARE(cell(QStringLiteral("webhooks")), QString());
        QVERIFY(model->headerData(OverviewModel::ForecastPeak, Qt::Horizontal, Qt::DisplayRole)
                    .toString() == QStringLiteral("Forecast\npeak"));

        // The next refresh within the interval reads no forecast, yet the column keeps it.
        const QString peak = cell(QStringLiteral("orders"));
        m_server.cli({"DEL", "dq:{orders}:pending"});
        page->refresh();
        QVERIFY(refreshed.wait(10000));
        QCOMPARE(cell(QStringLiteral("orders")), peak);
    }

    // The alert rules: raised once when the forecast peak crosses the queue's threshold,
    // kept while readings carry no forecast, cleared when it no longer would.
    void alertRaisedBeforeThePeakOnceThenCleared_data()
    {
        QTest::addColumn<qint64>("threshold");    // the queue's oldest-overdue limit; -1: off
        QTest::addColumn<QList<qint64>>("peaks"); // one reading each; -1: no forecast in it
        QTest::addColumn<QStringList>("changes"); // "+" raised, "-" cleared, per reading
        QTest::newRow("crosses, repeats, clears")
            << qint64(60000) << QList<qint64>{30000, 660000, 700000, -1, 20000}
            << QStringList{"", "+", "", "", "-"};
        QTest::newRow("never above")
            << qint64(60000) << QList<qint64>{0, 60000, -1, 59000} << QStringList{"", "", "", ""};
        QTest::newRow("threshold off")
            << qint64(-1) << QList<qint64>{660000, 900000} << QStringList{"", ""};
        QTest::newRow("unknown keeps it raised")
            << qint64(10000) << QList<qint64>{660000, -1, -1, 0} << QStringList{"+", "", "", "-"};
    }
    void alertRaisedBeforeThePeakOnceThenCleared()
    {
        QFETCH(qint64, threshold);
        QFETCH(QList<qint64>, peaks);
        QFETCH(QStringList, changes);
        Thresholds::Limits limits = Thresholds::defaults();
        limits.overdueMs = threshold;
        Thresholds::setQueueOverride(QStringLiteral("orders"), limits);
        AlertRules rules;
        const qint64 at = QDateTime::currentMSecsSinceEpoch() + 600000;
        for (int i = 0; i < peaks.size(); ++i) {
            const QList<AlertChange> out = rules.read(
                QStringLiteral("local"),
                {row(QStringLiteral("orders"), peaks[i] >= 0, qMax<qint64>(0, peaks[i]), at)},
                QDateTime::currentMSecsSinceEpoch());
            QString got;
            for (const AlertChange& c : out) {
                QCOMPARE(c.condition, QStringLiteral("forecast"));
                got += c.raised ? QStringLiteral("+") : QStringLiteral("-");
                if (c.raised)
                    QCOMPARE(c.body, QStringLiteral("orders will run %1 late at %2")
                                         .arg(peaks[i] == 660000 ? "11m" : "?", clock(at)));
                else
                    QVERIFY2(c.body.startsWith(QStringLiteral(
                                 "no longer: forecast lateness above its limit; now: ")),
                             qPrintable(c.body));
            }
            QVERIFY2(got == changes[i],
                     qPrintable(QStringLiteral("reading %1: %2").arg(i).arg(got)));
        }
        Thresholds::setQueueOverride(QStringLiteral("orders"), std::nullopt);
    }
};

QTEST_MAIN(TestForecastUi)
#include "tst_forecastui.moc"
