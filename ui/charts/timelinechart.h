#pragma once

#include "client/overviewtypes.h"

#include <QWidget>

class QCPBars;
class QCPItemStraightLine;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTimer;

namespace delayq::ui {

class AdminClient;

// Pending tasks per due-time bucket. The window defaults to the oldest overdue task up to
// the next 24 h; zooming or panning asks Redis again for the visible window (one ZCOUNT per
// bucket, so the cost does not grow with the queue). Overdue buckets are red, a line marks
// now (the bucket holding now is split at it), and clicking a bar asks to scroll the table to
// that bucket's start.
class TimelineChart : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineChart(AdminClient* client, QWidget* parent = nullptr);

    void setQueue(const QString& queue);
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
    QCustomPlot* plot() const { return m_plot; }
    // The bucket start of a bar (for tests and clicks), and how many bars are shown.
    qint64 bucketStart(int index) const;
    int bucketsShown() const { return static_cast<int>(m_bucketStarts.size()); }
    // The bar heights of bucket `index`: its overdue part and the part still to come.
    qint64 overdueAt(int index) const;
    qint64 upcomingAt(int index) const;

signals:
    void loaded(qint64 elapsedUs);
    void timeClicked(qint64 ms);

private:
    void request();
    void onLoaded(const HistogramResult& result);
    void onRangeChanged();
    void showEmptyState(bool empty);
    int bucketCount() const;
    QString caption(qint64 total, qint64 overdueInWindow, qint64 overdue, double bucketMs) const;

    AdminClient* m_client;
    QCustomPlot* m_plot;
    QCPBars* m_overdue;
    QCPBars* m_upcoming;
    QCPItemStraightLine* m_nowLine;
    QLabel* m_caption;
    QLabel* m_empty;
    QPushButton* m_reset;
    QTimer* m_debounce;
    QString m_queue;
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
};

} // namespace delayq::ui
