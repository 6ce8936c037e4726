#include "charts/chartplot.h"
#include "charts/throughputchart.h"
#include "charts/timelinechart.h"
#include "redisserver.h"
#include "tasks/tasktabs.h"
#include "window/mainwindow.h"
#include "windowsuite.h"

#include <QDateTime>
#include <QLabel>
#include <QLayout>
#include <QPixmap>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <qcustomplot.h>

using namespace delayq::ui;

// The timeline's counts against a real server: overdue means due by the server's now, even
// inside the one bucket that holds now.
class TestTimelineChart : public WindowSuite
{
    Q_OBJECT

public:
    TestTimelineChart() : WindowSuite(QStringLiteral("tst_timelinechart")) {}

private slots:

    // 5 tasks due 30 s ago and 300 due in 30 s, in one 2-minute bucket centred on now: the
    // old chart called all 305 overdue.
    void bucketHoldingNowIsSplitAtNow()
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        m_fixture.pushAt(QStringLiteral("orders"), QList<qint64>(5, now - 30000));
        m_fixture.pushAt(QStringLiteral("orders"), QList<qint64>(300, now + 30000));
        m_fixture.openQueue(QStringLiteral("orders"));
        TimelineChart* chart = m_fixture.window()->timeline();
        QTRY_VERIFY(chart->hasData());
        QVERIFY2(chart->captionText().startsWith(QStringLiteral("305 tasks due in this window, "
                                                                "5 overdue")),
                 qPrintable(chart->captionText()));

        const int bucket = centreOnNow(chart, now);
        QCOMPARE(chart->overdueAt(bucket), qint64(5));
        QCOMPARE(chart->upcomingAt(bucket), qint64(300));
        QVERIFY2(chart->captionText().startsWith(QStringLiteral("305 tasks due in this window, "
                                                                "5 overdue")),
                 qPrintable(chart->captionText()));
        QVERIFY(!chart->captionText().contains(QStringLiteral("outside")));
    }

    // Zoomed to the future: the header still says overdue tasks exist, outside the window.
    void overdueOutsideTheWindowIsStillNamed()
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        m_fixture.pushAt(QStringLiteral("orders"), QList<qint64>(4, now - 60000));
        m_fixture.pushAt(QStringLiteral("orders"), QList<qint64>(10, now + 90 * 60000));
        m_fixture.openQueue(QStringLiteral("orders"));
        TimelineChart* chart = m_fixture.window()->timeline();
        QTRY_VERIFY(chart->hasData());
        QSignalSpy loaded(chart, &TimelineChart::loaded);
        chart->plot()->xAxis->setRange(static_cast<double>(now + 3600000) / 1000.0,
                                       static_cast<double>(now + 7200000) / 1000.0);
        QVERIFY(loaded.wait(5000));
        QVERIFY2(chart->captionText().startsWith(
                     QStringLiteral("10 tasks due in this window, 0 overdue (4 more overdue "
                                    "outside this window)")),
                 qPrintable(chart->captionText()));
    }

    // Without a queue both charts say what they are for instead of drawing 1970's axes.
    void emptyStateWithoutAQueue()
    {
        MainWindow* window = m_fixture.window();
        QVERIFY(window->timeline()->isEmptyStateShown());
        QVERIFY(!window->timeline()->plot()->isVisibleTo(window->timeline()));
        QVERIFY(window->throughput()->isNoteShown());
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QVERIFY(!window->timeline()->isEmptyStateShown());
        QVERIFY(window->timeline()->plot()->isVisibleTo(window->timeline()));
        QVERIFY(!window->throughput()->isNoteShown());
        window->openQueue(QString());
        QVERIFY(window->timeline()->isEmptyStateShown());
        QVERIFY(window->throughput()->isNoteShown());
    }

    // Opening a queue draws its charts from the event loop (ChartPlot, LayoutBatch), not on
    // the spot: they still come, at the size the window laid them out with, and the window
    // is laid out as a full pass would lay it out.
    void openingDrawsTheChartsOnceTheWindowIsLaidOut()
    {
        MainWindow* window = m_fixture.window();
        m_fixture.connectWindow();
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        QCustomPlot* timeline = window->timeline()->plot();
        QCustomPlot* throughput = window->throughput()->plot();
        QSignalSpy timelineDrawn(timeline, &QCustomPlot::afterReplot);
        QSignalSpy throughputDrawn(throughput, &QCustomPlot::afterReplot);
        QSignalSpy loaded(window, &MainWindow::queueLoaded);
        window->openQueue(QStringLiteral("orders"));
        // Nothing drawn yet, and shown: the charts were shown and sized inside the open.
        QCOMPARE(timelineDrawn.count(), 0);
        QCOMPARE(throughputDrawn.count(), 0);
        QVERIFY(timeline->isVisibleTo(window));
        QVERIFY(throughput->isVisibleTo(window));
        QVERIFY(loaded.wait(30000));
        QTRY_VERIFY(timelineDrawn.count() > 0 && throughputDrawn.count() > 0);
        QCOMPARE(timeline->viewport(), timeline->rect());
        QCOMPARE(throughput->viewport(), throughput->rect());
        const QRect timelineAt = timeline->geometry();
        const QRect tableAt = window->tabs()->geometry();
        window->layout()->invalidate();
        window->layout()->activate();
        QCOMPARE(timeline->geometry(), timelineAt);
        QCOMPARE(window->tabs()->geometry(), tableAt);
    }

    // A chart painted before its queued replot (resized, then grabbed at once) draws itself
    // for its new size first, and the replot queued is then no longer pending.
    void aPaintBeforeTheQueuedReplotDrawsTheNewSize()
    {
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QCustomPlot* plot = m_fixture.window()->timeline()->plot();
        QTRY_COMPARE(plot->viewport(), plot->rect());
        QSignalSpy drawn(plot, &QCustomPlot::afterReplot);
        QWidget* dock = plot->parentWidget();
        dock->resize(dock->width() - 40, dock->height());
        QVERIFY(plot->viewport() != QRect() && drawn.isEmpty());
        const QPixmap picture = plot->grab();
        QCOMPARE(drawn.count(), 1);
        QCOMPARE(picture.size(), plot->size());
        QCOMPARE(plot->viewport(), plot->rect());
        QVERIFY(!static_cast<ChartPlot*>(plot)->isReplotPending());
    }

private:
    // Zooms so that `now` sits in the middle of a 2-minute bucket, and returns that bucket.
    int centreOnNow(TimelineChart* chart, qint64 now)
    {
        const int buckets = chart->bucketsShown();
        const qint64 width = 120000;
        const qint64 from = now - (buckets / 2) * width - width / 2;
        QSignalSpy loaded(chart, &TimelineChart::loaded);
        chart->plot()->xAxis->setRange(static_cast<double>(from) / 1000.0,
                                       static_cast<double>(from + buckets * width) / 1000.0);
        if (!loaded.wait(5000))
            return -1;
        for (int i = 0; i + 1 < chart->bucketsShown(); ++i)
            if (chart->bucketStart(i) <= now && now < chart->bucketStart(i + 1))
                return i;
        return -1;
    }
};

QTEST_MAIN(TestTimelineChart)
#include "tst_timelinechart.moc"
