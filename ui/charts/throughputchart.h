#pragma once

#include "client/overviewtypes.h"

#include <QWidget>

class QCPBars;
class QCPItemStraightLine;
class QCustomPlot;
class QLabel;

namespace delayq::ui {

class AdminClient;
class ChartPlot;

// The throughput chart: acked and failed (retried or died) tasks per minute over the last
// hour, from the queue's per-minute counters. Not "history", which is a task's events.
class ThroughputChart : public QWidget
{
    Q_OBJECT

public:
    explicit ThroughputChart(AdminClient* client, QWidget* parent = nullptr);

    void setQueue(const QString& queue);
    // A plain sorted set keeps no counters: the chart gives way to a note saying so.
    void setPlain(bool plain);
    void refresh();
    void setUtc(bool utc);
    bool hasData() const { return m_loaded; }
    // The sentence shown instead of the chart (no queue open, or a plain sorted set).
    bool isNoteShown() const;
    QCustomPlot* plot() const;

signals:
    void loaded();

private:
    void onLoaded(const ThroughputResult& result);
    void updateNote();

    AdminClient* m_client;
    ChartPlot* m_plot;
    QLabel* m_plainNote;
    bool m_plain = false;
    QCPBars* m_acked;
    QCPBars* m_failed;
    QCPItemStraightLine* m_nowLine;
    QString m_queue;
    bool m_inFlight = false;
    bool m_loaded = false;
    quint64 m_tag = 0;
};

} // namespace delayq::ui
