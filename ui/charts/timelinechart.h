#pragma once

#include "client/overviewtypes.h"
#include "client/scheduletypes.h"

#include <QElapsedTimer>
#include <QWidget>

#include <functional>

class QCPAxis;
class QCPBars;
class QCPGraph;
class QCPItemLine;
class QCPItemStraightLine;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTimer;

namespace delayq::ui {

class AdminClient;
class ChartPlot;

// Pending tasks per due-time bucket. The window defaults to the oldest overdue task up to
// the next 24 h; zooming or panning asks Redis again for the visible window (one ZCOUNT per
// bucket, so the cost does not grow with the queue). Overdue buckets are red, a line marks
// now (the bucket holding now is split at it), and clicking a bar asks to scroll the table to
// that bucket's start. The coming fires of the queue's schedules within the window are thin
// lines of their own colour over the bars, computed here from the listed rules (at most
// kMaxFireMarkers, so a 1-second schedule over a week costs no more than a daily one).
// Over them, on an axis of its own at the right, the expected lateness of the tasks due at
// each time (the forecast, issue 54, read on the I/O thread at most every kForecastEveryMs),
// with the queue's threshold dashed, and a sentence under the plot: "peak 11m late at 09:04;
// 3.2× today's capacity keeps it under 1m".
class TimelineChart : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kMaxFireMarkers = 500;
    static constexpr int kForecastEveryMs = 15000;

    explicit TimelineChart(AdminClient* client, QWidget* parent = nullptr);

    void setQueue(const QString& queue);
    // The queue's oldest-overdue threshold (ms, 0 = none) the forecast is held against: given
    // by the window, since the thresholds live in a room after this one.
    void setThresholdOf(std::function<qint64(const QString&)> thresholdOf);
    // A plain sorted set has no schedules: no fires are drawn or asked for.
    void setPlain(bool plain);
    // The earliest pending due time (or -1) and the server's now, from the last counts.
    void setEarliest(qint64 earliestMs, qint64 serverNowMs);
    void refresh();
    void setUtc(bool utc);
    // Back to the default window after a zoom or pan.
    void resetWindow();
    bool hasData() const { return m_loaded; }
    QString captionText() const;
    // Shown instead of the axes while no queue is open.
    bool isEmptyStateShown() const;
    QCustomPlot* plot() const;
    // The bucket start of a bar (for tests and clicks), and how many bars are shown.
    qint64 bucketStart(int index) const;
    int bucketsShown() const { return static_cast<int>(m_bucketStarts.size()); }
    // The bar heights of bucket `index`: its overdue part and the part still to come.
    qint64 overdueAt(int index) const;
    qint64 upcomingAt(int index) const;
    // The schedule fires drawn (ms, in order), and whether more fell in the window.
    const QList<qint64>& firesShown() const { return m_fireTimes; }
    bool firesCapped() const { return m_firesCapped; }
    // The forecast's sentence under the plot, and the lateness line's points (ms, ms late).
    QString forecastText() const;
    QList<QPair<qint64, qint64>> latenessShown() const;
    const ForecastResult& forecast() const { return m_forecast; }
    // Reads the forecast again at the next refresh, however recent the last one.
    void forecastNow();

signals:
    void loaded(qint64 elapsedUs);
    void forecastShown();
    void timeClicked(qint64 ms);

private:
    void request();
    void onLoaded(const HistogramResult& result);
    void requestForecast();
    void onForecast(const ForecastResult& result);
    // The lateness line and the threshold line in the unit the peak reads best in.
    void placeLateness();
    QString forecastSentence(const ForecastResult& f) const;
    void requestSchedules();
    void onSchedules(const ScheduleListResult& result);
    // The fires of m_schedules within the visible window, as lines up to the top of the axis.
    void placeFires();
    void onRangeChanged();
    void showEmptyState(bool empty);
    int bucketCount() const;
    QString caption(qint64 total, qint64 overdueInWindow, qint64 overdue, double bucketMs) const;

    AdminClient* m_client;
    ChartPlot* m_plot;
    QCPBars* m_overdue;
    QCPBars* m_upcoming;
    QCPGraph* m_fires;
    QCPAxis* m_fireAxis; // never shown: a fire is an impulse from 0 to 1 on it
    QCPGraph* m_lateness;
    QCPItemLine* m_thresholdLine;
    QCPGraph* m_thresholdKey; // the threshold's entry in the legend
    QCPItemStraightLine* m_nowLine;
    QLabel* m_caption;
    QLabel* m_forecastLabel;
    QLabel* m_empty;
    QPushButton* m_reset;
    QTimer* m_debounce;
    QString m_queue;
    std::function<qint64(const QString&)> m_thresholdOf;
    qint64 m_earliest = -1;
    qint64 m_now = 0;
    qint64 m_from = 0;
    qint64 m_to = 0;
    bool m_userWindow = false; // zoomed or panned: keep the window on refresh
    bool m_settingRange = false;
    bool m_inFlight = false;
    bool m_dirty = false;
    bool m_loaded = false;
    quint64 m_tag = 0;
    QList<qint64> m_bucketStarts;
    bool m_plain = false;
    bool m_schedulesInFlight = false;
    quint64 m_schedulesTag = 0;
    QList<delayq::ScheduleInfo> m_schedules;
    QList<qint64> m_fireTimes;
    bool m_firesCapped = false;
    ForecastResult m_forecast; // the last one shown (tag 0: none)
    quint64 m_forecastTag = 0;
    QElapsedTimer m_forecastAge; // since the last forecast asked; invalid: ask at the next refresh
    bool m_forecastInFlight = false;
    bool m_utc = false;
};

} // namespace delayq::ui
