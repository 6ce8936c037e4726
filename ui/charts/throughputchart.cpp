#include "charts/throughputchart.h"

#include "charts/chartparts.h"
#include "charts/chartplot.h"
#include "client/adminclient.h"
#include "client/overviewclient.h"

#include <QDateTime>
#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace delayq::ui {

namespace {

constexpr int kMinutes = 60;

} // namespace

ThroughputChart::ThroughputChart(AdminClient* client, QWidget* parent) : QWidget(parent), m_client(client)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_plot = new ChartPlot(this);
    m_plot->setMinimumHeight(100);
    auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
    ticker->setDateTimeFormat(QStringLiteral("HH:mm"));
    // Few labels: in a narrow dock five "HH:mm" labels ran into each other.
    ticker->setTickCount(3);
    m_plot->xAxis->setTicker(ticker);
    m_plot->yAxis->setLabel(tr("per minute"));
    // Counts per minute are whole numbers: no 0.5 ticks on a quiet queue.
    auto counts = QSharedPointer<QCPAxisTickerFixed>::create();
    counts->setTickStep(1);
    counts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->yAxis->setTicker(counts);
    // Stacked bars: a minute's total height is everything that finished in it.
    m_acked = ChartParts::bars(m_plot, tr("acked"), QColor(0x2e, 0x8b, 0x57));
    m_acked->setWidth(60 * 0.8);
    m_failed = ChartParts::bars(m_plot, tr("failed"), QColor(0xd9, 0x53, 0x4f));
    m_failed->setWidth(60 * 0.8);
    m_failed->moveAbove(m_acked);
    ChartParts::showLegend(m_plot, font(), Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(m_plot);
    // The current minute is still filling: a line at now says so, with room after it.
    m_nowLine = ChartParts::nowLine(m_plot, 1);
    m_nowLine->setVisible(false);
    m_plot->axisRect()->setMinimumMargins(QMargins(0, 0, 24, 0));
    m_plainNote = new QLabel(this);
    m_plainNote->setTextFormat(Qt::PlainText);
    m_plainNote->setWordWrap(true);
    m_plainNote->setAlignment(Qt::AlignCenter);
    m_plainNote->setEnabled(false);
    layout->addWidget(m_plainNote, 1);
    updateNote();
    connect(client->overview(), &OverviewClient::throughputLoaded, this, &ThroughputChart::onLoaded);
}

void ThroughputChart::setQueue(const QString& queue)
{
    m_queue = queue;
    m_inFlight = false;
    m_loaded = false;
    m_tag = 0;
    m_acked->data()->clear();
    m_failed->data()->clear();
    m_nowLine->setVisible(false);
    updateNote();
    m_plot->replotLater();
}

void ThroughputChart::setPlain(bool plain)
{
    m_plain = plain;
    updateNote();
}

void ThroughputChart::updateNote()
{
    // Without a queue the axes would only show the epoch: a sentence says what goes here.
    const bool note = m_plain || m_queue.isEmpty();
    m_plainNote->setText(m_plain ? tr("A plain sorted set keeps no per-minute counts of acked "
                                      "and failed messages: only delayq queues do.")
                                 : tr("Open a queue to see its acked and failed tasks per "
                                      "minute."));
    m_plot->setVisible(!note);
    m_plainNote->setVisible(note);
}

QCustomPlot* ThroughputChart::plot() const
{
    return m_plot;
}

bool ThroughputChart::isNoteShown() const
{
    return !m_plainNote->isHidden();
}

void ThroughputChart::setUtc(bool utc)
{
    ChartParts::setUtc(m_plot, utc);
    m_plot->replotLater();
}

void ThroughputChart::refresh()
{
    if (m_queue.isEmpty() || m_inFlight || m_plain)
        return;
    const qint64 minute = QDateTime::currentMSecsSinceEpoch() / 60000;
    m_inFlight = true;
    m_tag = AdminClient::newTag();
    m_client->overview()->loadThroughput(m_tag, m_queue, minute - kMinutes + 1, minute);
}

void ThroughputChart::onLoaded(const ThroughputResult& result)
{
    if (result.tag != m_tag)
        return;
    m_inFlight = false;
    if (!result.error.isEmpty())
        return;
    QVector<double> keys, acked, failed;
    double top = 4;
    for (qsizetype i = 0; i < result.acked.size(); ++i) {
        keys.append(static_cast<double>((result.fromMinute + i) * 60 + 30));
        acked.append(static_cast<double>(result.acked.at(i)));
        failed.append(static_cast<double>(result.failed.at(i)));
        top = qMax(top, acked.last() + failed.last());
    }
    m_acked->setData(keys, acked, true);
    m_failed->setData(keys, failed, true);
    if (!keys.isEmpty()) {
        const double now = static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
        ChartParts::placeLine(m_nowLine, now);
        m_nowLine->setVisible(true);
        m_plot->xAxis->setRange(keys.first() - 30, qMax(keys.last() + 30, now) + 90);
    }
    m_plot->yAxis->setRange(0, top * 1.15);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    m_loaded = true;
    emit loaded();
}

} // namespace delayq::ui
