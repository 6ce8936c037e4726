#include "charts/timelinechart.h"

#include "charts/chartparts.h"
#include "charts/chartplot.h"
#include "client/adminclient.h"
#include "client/overviewclient.h"
#include "client/scheduleclient.h"
#include "widgets/duetext.h"
#include <delayq/cron.h>
#include <delayq/error.h>
#include <delayq/timeparse.h>

#include <QDateTime>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <optional>

namespace delayq::ui {

namespace {

constexpr qint64 kDefaultAhead = 24LL * 3600 * 1000;
constexpr qint64 kMinWindow = 60 * 1000;

double toKey(qint64 ms)
{
    return static_cast<double>(ms) / 1000.0;
}

} // namespace

TimelineChart::TimelineChart(AdminClient* client, QWidget* parent)
    : QWidget(parent), m_client(client)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* header = new QHBoxLayout;
    m_caption = new QLabel(this);
    m_caption->setTextFormat(Qt::PlainText);
    // A long caption must not widen the dock and squeeze the per-minute chart beside it.
    m_caption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    header->addWidget(m_caption, 1);
    m_reset = new QPushButton(tr("Reset zoom"), this);
    auto* reset = m_reset;
    reset->setToolTip(tr("Back to the oldest overdue task through the next 24 hours"));
    header->addWidget(reset);
    layout->addLayout(header);

    m_plot = new ChartPlot(this);
    // 134 px with the header, less the forecast's sentence under it: at 1024 x 700 the dock
    // leaves the Overview 8 rows (at 140 px it left 7 once the task details pane could scroll
    // and no longer held the window's height up).
    m_plot->setMinimumHeight(134 - fontMetrics().height());
    m_plot->setToolTip(tr("Drag to pan, wheel to zoom, click a bar to scroll the table there"));
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom | QCP::iSelectPlottables);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
    // The plot's locale is English whatever the app's: the translation gives the whole format.
    ticker->setDateTimeFormat(tr("HH:mm\nMMM d", "QDateTime format of the time axis"));
    ticker->setDateTimeSpec(Qt::LocalTime);
    ticker->setTickCount(8);
    m_plot->xAxis->setTicker(ticker);
    m_plot->yAxis->setLabel(tr("tasks"));
    m_plot->yAxis->setNumberFormat(QStringLiteral("gb"));
    m_plot->yAxis->ticker()->setTickCount(4);

    m_overdue = ChartParts::bars(m_plot, tr("overdue"), QColor(0xd9, 0x53, 0x4f));
    m_upcoming = ChartParts::bars(m_plot, tr("due"), QColor(0x42, 0x8b, 0xca));
    for (auto* bars : {m_overdue, m_upcoming})
        bars->setSelectable(QCP::stSingleData);
    // The bucket that holds now shows its overdue part under the part still to come.
    m_upcoming->moveAbove(m_overdue);

    // Over the bars (made after them): the coming fires of the queue's schedules.
    // On a value axis of its own, never shown: a fire is an impulse from 0 to 1 on it, so
    // its range alone decides whether a fire crosses the plot or is a tick at its top.
    m_fireAxis = m_plot->axisRect()->addAxis(QCPAxis::atRight);
    m_fireAxis->setVisible(false);
    m_fireAxis->setRange(0, 1);
    m_fires = m_plot->addGraph(m_plot->xAxis, m_fireAxis);
    m_fires->setName(tr("schedule fires"));
    m_fires->setLineStyle(QCPGraph::lsImpulse);
    m_fires->setPen(QPen(QColor(0x8e, 0x44, 0xad), 1));
    m_fires->setAntialiased(false);
    m_fires->setSelectable(QCP::stNone);
    m_fires->removeFromLegend(); // until there are fires to draw

    // The forecast: how late the tasks due at each time are expected to run, on the right
    // axis (shown only while there is a curve), its threshold dashed.
    const QColor late(0xe6, 0x7e, 0x22);
    m_lateness = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    m_lateness->setName(tr("expected lateness"));
    m_lateness->setPen(QPen(late, 2));
    // A light fill under it, so the line reads apart from the bars it crosses.
    m_lateness->setBrush(QColor(late.red(), late.green(), late.blue(), 40));
    m_lateness->setSelectable(QCP::stNone);
    m_lateness->removeFromLegend(); // until there is a curve
    m_plot->yAxis2->setTickLabelColor(late.darker(130));
    m_plot->yAxis2->setLabelColor(late.darker(130));
    m_plot->yAxis2->ticker()->setTickCount(4);
    m_plot->yAxis2->setVisible(false);
    m_thresholdLine = new QCPItemLine(m_plot);
    m_thresholdLine->start->setAxes(m_plot->xAxis, m_plot->yAxis2);
    m_thresholdLine->end->setAxes(m_plot->xAxis, m_plot->yAxis2);
    m_thresholdLine->setPen(QPen(late, 1, Qt::DashLine));
    m_thresholdLine->setSelectable(false);
    m_thresholdLine->setVisible(false);
    // The dashed line's legend entry (an item line has none): a graph with no data.
    m_thresholdKey = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    m_thresholdKey->setPen(m_thresholdLine->pen());
    m_thresholdKey->setSelectable(QCP::stNone);
    m_thresholdKey->removeFromLegend();

    m_nowLine = ChartParts::nowLine(m_plot, 1.5);
    ChartParts::showLegend(m_plot, font(), Qt::AlignTop | Qt::AlignRight);
    layout->addWidget(m_plot, 1);
    m_forecastLabel = new QLabel(this);
    m_forecastLabel->setObjectName(QStringLiteral("forecastSentence"));
    m_forecastLabel->setTextFormat(Qt::PlainText);
    m_forecastLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_forecastLabel);
    // A right margin so the last time label is not clipped at the edge.
    m_plot->axisRect()->setMinimumMargins(QMargins(0, 0, 24, 0));
    m_empty = new QLabel(tr("Open a queue to see when its tasks are due."), this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setEnabled(false);
    layout->addWidget(m_empty, 1);
    showEmptyState(true);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(200);
    connect(m_debounce, &QTimer::timeout, this, &TimelineChart::request);
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            &TimelineChart::onRangeChanged);
    connect(m_plot, &QCustomPlot::plottableClick, this,
            [this](QCPAbstractPlottable* plottable, int dataIndex, QMouseEvent*) {
                // A fire line: its time. Both bar series hold one point per bucket: a data
                // index is a bucket.
                if (dataIndex < 0)
                    return;
                if (plottable == m_fires)
                    emit timeClicked(m_fireTimes.value(dataIndex, m_from));
                else
                    emit timeClicked(bucketStart(dataIndex));
            });
    connect(reset, &QPushButton::clicked, this, &TimelineChart::resetWindow);
    connect(client->overview(), &OverviewClient::histogramLoaded, this, &TimelineChart::onLoaded);
    connect(client->schedules(), &ScheduleClient::schedulesListed, this,
            &TimelineChart::onSchedules);
    connect(client->overview(), &OverviewClient::forecastLoaded, this, &TimelineChart::onForecast);
}

void TimelineChart::setQueue(const QString& queue)
{
    m_queue = queue;
    m_userWindow = false;
    m_loaded = false;
    m_inFlight = false;
    m_tag = 0;
    m_earliest = -1;
    m_overdue->data()->clear();
    m_upcoming->data()->clear();
    m_bucketStarts.clear();
    m_schedules.clear();
    m_schedulesInFlight = false;
    m_schedulesTag = 0;
    placeFires();
    m_forecast = {};
    m_forecastTag = 0;
    m_forecastInFlight = false;
    m_forecastAge.invalidate();
    m_forecastLabel->clear();
    placeLateness();
    m_caption->clear();
    showEmptyState(queue.isEmpty());
    m_plot->replotLater();
}

void TimelineChart::setPlain(bool plain)
{
    m_plain = plain;
    m_schedules.clear();
    placeFires();
    // A plain sorted set has no counters to measure a capacity from: no forecast.
    m_forecast = {};
    m_forecastLabel->clear();
    m_forecastLabel->setVisible(!plain && !isEmptyStateShown());
    placeLateness();
    m_plot->replotLater();
}

void TimelineChart::showEmptyState(bool empty)
{
    // Without a queue the axes would show the epoch ("00:00 Jan 1") and a stray now line.
    m_plot->setVisible(!empty);
    m_caption->setVisible(!empty);
    m_forecastLabel->setVisible(!empty && !m_plain);
    m_reset->setVisible(!empty);
    m_empty->setVisible(empty);
}

QString TimelineChart::captionText() const
{
    return m_caption->text();
}

QCustomPlot* TimelineChart::plot() const
{
    return m_plot;
}

bool TimelineChart::isEmptyStateShown() const
{
    return !m_empty->isHidden();
}

void TimelineChart::setEarliest(qint64 earliestMs, qint64 serverNowMs)
{
    m_earliest = earliestMs;
    m_now = serverNowMs;
}

void TimelineChart::setUtc(bool utc)
{
    ChartParts::setUtc(m_plot, utc);
    m_utc = utc;
    if (m_forecast.tag != 0)
        m_forecastLabel->setText(forecastSentence(m_forecast));
    m_plot->xAxis->setLabel(utc ? tr("due time (UTC)") : QString());
    m_plot->replotLater();
}

void TimelineChart::resetWindow()
{
    m_userWindow = false;
    refresh();
}

int TimelineChart::bucketCount() const
{
    // About one bar per 6 pixels: fine enough to read, few enough ZCOUNTs.
    return qBound(24, m_plot->axisRect()->width() / 6, 240);
}

qint64 TimelineChart::bucketStart(int index) const
{
    return m_bucketStarts.value(index, m_from);
}

qint64 TimelineChart::overdueAt(int index) const
{
    return index >= 0 && index < m_overdue->data()->size()
               ? static_cast<qint64>(m_overdue->data()->at(index)->value)
               : 0;
}

qint64 TimelineChart::upcomingAt(int index) const
{
    return index >= 0 && index < m_upcoming->data()->size()
               ? static_cast<qint64>(m_upcoming->data()->at(index)->value)
               : 0;
}

void TimelineChart::refresh()
{
    request(); // it coalesces with a request in flight
}

void TimelineChart::request()
{
    if (m_queue.isEmpty())
        return;
    requestSchedules();
    requestForecast();
    if (m_inFlight) {
        m_dirty = true;
        return;
    }
    const qint64 now = m_now > 0 ? m_now : QDateTime::currentMSecsSinceEpoch();
    if (!m_userWindow) {
        // From the oldest overdue task (a little margin so its bar is not on the edge).
        const qint64 oldest = m_earliest >= 0 && m_earliest < now ? m_earliest : now;
        const qint64 span = now + kDefaultAhead - oldest;
        m_from = oldest - span / 100 - 60 * 1000;
        m_to = now + kDefaultAhead;
    } else {
        const QCPRange range = m_plot->xAxis->range();
        m_from = static_cast<qint64>(range.lower * 1000.0);
        m_to = static_cast<qint64>(range.upper * 1000.0);
    }
    if (m_to - m_from < kMinWindow)
        m_to = m_from + kMinWindow;
    m_dirty = false;
    m_inFlight = true;
    m_tag = AdminClient::newTag();
    m_client->overview()->loadHistogram(m_tag, m_queue, m_from, m_to, bucketCount());
}

void TimelineChart::onLoaded(const HistogramResult& result)
{
    if (result.tag != m_tag)
        return;
    m_inFlight = false;
    if (!result.error.isEmpty()) {
        m_caption->setText(tr("Timeline unavailable: %1").arg(result.error.message));
    } else {
        const int n = static_cast<int>(result.counts.size());
        const double width = static_cast<double>(result.toMs - result.fromMs) / qMax(1, n);
        const qint64 now = result.serverNow;
        QVector<double> keys, overdueValues, upcomingValues;
        m_bucketStarts.clear();
        qint64 total = 0, overdueInWindow = 0;
        for (int i = 0; i < n; ++i) {
            const qint64 start = result.fromMs + static_cast<qint64>(width * i);
            const qint64 end =
                i + 1 == n ? result.toMs : result.fromMs + static_cast<qint64>(width * (i + 1));
            const qint64 count = result.counts.at(i);
            m_bucketStarts.append(start);
            keys.append(toKey(start) + width / 2000.0);
            total += count;
            // Only the part of the bucket holding now that is due by now is overdue; the
            // series are stacked, so that bucket shows both parts.
            const qint64 overdue = i == result.nowBucket ? result.nowBucketOverdue
                                   : end <= now          ? count
                                                         : 0;
            overdueInWindow += overdue;
            overdueValues.append(static_cast<double>(overdue));
            upcomingValues.append(static_cast<double>(count - overdue));
        }
        m_overdue->setWidth(width / 1000.0 * 0.9);
        m_upcoming->setWidth(width / 1000.0 * 0.9);
        m_overdue->setData(keys, overdueValues, true);
        m_upcoming->setData(keys, upcomingValues, true);
        ChartParts::placeLine(m_nowLine, toKey(now));
        m_settingRange = true;
        m_plot->xAxis->setRange(toKey(result.fromMs), toKey(result.toMs));
        m_settingRange = false;
        double top = 1;
        for (int i = 0; i < n; ++i)
            top = qMax(top, overdueValues.at(i) + upcomingValues.at(i));
        m_plot->yAxis->setRange(0, top * 1.15);
        m_caption->setText(caption(total, overdueInWindow, result.overdue, width));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        m_loaded = true;
        placeFires();
        placeLateness();
        emit loaded(result.elapsedUs);
    }
    if (m_dirty)
        request();
}

void TimelineChart::requestSchedules()
{
    // Only the schedules' rules travel: their fires are computed here for whatever window.
    if (m_plain || m_schedulesInFlight)
        return;
    m_schedulesInFlight = true;
    m_schedulesTag = AdminClient::newTag();
    m_client->schedules()->listSchedules(m_schedulesTag, m_queue);
}

void TimelineChart::onSchedules(const ScheduleListResult& result)
{
    if (result.tag != m_schedulesTag)
        return;
    m_schedulesInFlight = false;
    // An error (no right to read them, the server away) draws no fires; the bars say the rest.
    m_schedules = result.error.isEmpty() ? result.schedules : QList<delayq::ScheduleInfo>();
    placeFires();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineChart::placeFires()
{
    m_fireTimes.clear();
    m_firesCapped = false;
    if (m_loaded && !m_plain) {
        const QCPRange range = m_plot->xAxis->range();
        const qint64 from = static_cast<qint64>(range.lower * 1000.0);
        const qint64 to = static_cast<qint64>(range.upper * 1000.0);
        // The earliest kMaxFireMarkers fires of all the schedules: each schedule stops at the
        // last one kept so far, so the work stays bounded by the cap, not by the window.
        std::optional<qint64> cutoff;
        for (const delayq::ScheduleInfo& info : m_schedules) {
            if (!info.nextFire || *info.nextFire > to)
                continue; // paused, done, or beyond the window
            try {
                const delayq::ScheduleRule& rule = info.rule;
                const std::optional<delayq::Cron> cron =
                    rule.cron.empty() ? std::nullopt
                                      : std::optional<delayq::Cron>(delayq::Cron::parse(rule.cron));
                const auto after = [&](qint64 t) {
                    return cron ? cron->next(t, rule.zone) : rule.nextFire(t);
                };
                // From the stored next fire, or straight from the window's start when that
                // is later (an interval gets there in one step, whatever its length).
                std::optional<long long> at =
                    *info.nextFire >= from ? info.nextFire : after(from - 1);
                int made = 0;
                while (at && *at <= to) {
                    if (made == kMaxFireMarkers || (cutoff && *at >= *cutoff)) {
                        m_firesCapped = true;
                        break;
                    }
                    m_fireTimes.append(*at);
                    ++made;
                    at = after(*at);
                }
            } catch (const delayq::Error&) {
                // A rule this build cannot read (a newer delayq's): nothing to draw for it.
            }
            std::sort(m_fireTimes.begin(), m_fireTimes.end());
            if (m_fireTimes.size() > kMaxFireMarkers) {
                m_fireTimes.resize(kMaxFireMarkers);
                m_firesCapped = true;
            }
            if (m_fireTimes.size() == kMaxFireMarkers)
                cutoff = m_fireTimes.last();
        }
    }
    QVector<double> keys, values;
    for (qint64 t : m_fireTimes) {
        keys.append(toKey(t));
        values.append(1);
    }
    m_fires->setData(keys, values, true);
    // Far apart (a nightly cron), a fire is a line across the plot. Closer than 4 px (every
    // 20 s over a day: 4,320 of them) full lines would paint a solid block over the bars:
    // each fire is then a tick over the top tenth of the plot, and the bars stay visible.
    const bool dense = m_fireTimes.size() * 4 > m_plot->axisRect()->width();
    m_fireAxis->setRange(dense ? -9 : 0, 1);
    m_fires->setName(m_firesCapped ? tr("schedule fires (the first %1)").arg(kMaxFireMarkers)
                                   : tr("schedule fires"));
    if (m_fireTimes.isEmpty())
        m_fires->removeFromLegend();
    else
        m_fires->addToLegend();
}

QString TimelineChart::caption(qint64 total, qint64 overdueInWindow, qint64 overdue,
                               double bucketMs) const
{
    QLocale locale;
    QString text = total == 1
                       ? tr("1 task due in this window, %1 overdue")
                       : tr("%1 tasks due in this window, %2 overdue").arg(locale.toString(total));
    text = text.arg(locale.toString(overdueInWindow));
    // Zoomed or panned away from now: the overdue tasks must not vanish from the header.
    if (overdue > overdueInWindow)
        text += QStringLiteral(" ") + tr("(%1 more overdue outside this window)")
                                          .arg(locale.toString(overdue - overdueInWindow));
    // How to pan and zoom is in the plot's tooltip: the header keeps to the figures.
    text += QStringLiteral(" · ") +
            tr("bucket %1").arg(DueText::duration(static_cast<qint64>(bucketMs)));
    return text;
}

void TimelineChart::forecastNow()
{
    m_forecastAge.invalidate();
}

QString TimelineChart::forecastText() const
{
    return m_forecastLabel->text();
}

QList<QPair<qint64, qint64>> TimelineChart::latenessShown() const
{
    QList<QPair<qint64, qint64>> out;
    for (const ForecastPoint& p : m_forecast.curve)
        out.append({p.atMs, p.latenessMs});
    return out;
}

void TimelineChart::setThresholdOf(std::function<qint64(const QString&)> thresholdOf)
{
    m_thresholdOf = std::move(thresholdOf);
}

void TimelineChart::requestForecast()
{
    // A bounded read (ZCOUNTs over the horizon), yet more than the bars: not at every refresh.
    if (m_plain || m_forecastInFlight ||
        (m_forecastAge.isValid() && m_forecastAge.elapsed() < kForecastEveryMs))
        return;
    m_forecastAge.start();
    m_forecastInFlight = true;
    m_forecastTag = AdminClient::newTag();
    m_client->overview()->loadForecast(m_forecastTag, m_queue,
                                       m_thresholdOf ? m_thresholdOf(m_queue) : 0);
}

void TimelineChart::onForecast(const ForecastResult& result)
{
    if (result.tag != m_forecastTag)
        return;
    m_forecastInFlight = false;
    m_forecast = result.error.isEmpty() ? result : ForecastResult{};
    m_forecastLabel->setText(result.error.isEmpty()
                                 ? forecastSentence(result)
                                 : tr("Forecast unavailable: %1").arg(result.error.message));
    m_forecastLabel->setToolTip(
        result.capacityPerSecond > 0
            ? tr("Expected lateness of the tasks due at each time, served first due first at "
                 "%1 tasks/s (%2), with the schedules' coming fires")
                  .arg(QLocale().toString(result.capacityPerSecond, 'f', 1),
                       result.capacitySource == QLatin1String("stated")       ? tr("stated")
                       : result.capacitySource == QLatin1String("rate limit") ? tr("its rate limit")
                       : result.capacitySource == QLatin1String("cap")
                           ? tr("its cap")
                           : tr("measured from recent acks"))
            : QString());
    placeLateness();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    emit forecastShown();
}

QString TimelineChart::forecastSentence(const ForecastResult& f) const
{
    const QLocale locale;
    if (f.capacityPerSecond <= 0)
        return tr("No lateness forecast: no acks in the last 15 minutes to measure a capacity "
                  "from");
    if (f.peakLatenessMs <= 0)
        return tr("No lateness expected in the next %1").arg(DueText::duration(f.horizonMs));
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(f.peakAtMs);
    const QString peak =
        tr("Peak %1 late at %2")
            .arg(DueText::duration(f.peakLatenessMs / 1000 * 1000),
                 m_utc ? at.toUTC().toString(QStringLiteral("HH:mm")) + QStringLiteral(" UTC")
                       : at.toString(QStringLiteral("HH:mm")));
    if (f.thresholdMs < 0)
        return peak;
    if (f.peakLatenessMs <= f.thresholdMs)
        return tr("%1, within its %2 threshold").arg(peak, DueText::duration(f.thresholdMs));
    if (f.capacityFactor <= 0)
        return peak;
    return tr("%1; %2× today's capacity keeps it under %3")
        .arg(peak, locale.toString(f.capacityFactor, 'f', 1), DueText::duration(f.thresholdMs));
}

void TimelineChart::placeLateness()
{
    const QList<ForecastPoint>& curve = m_forecast.curve;
    const bool shown = m_loaded && !curve.isEmpty();
    // The unit the peak reads best in: seconds under 2 minutes, minutes under 2 hours.
    qint64 top = qMax<qint64>(m_forecast.peakLatenessMs, 1000);
    if (m_forecast.thresholdMs > 0)
        top = qMax(top, m_forecast.thresholdMs);
    const qint64 unit = top < 120000 ? 1000 : top < 2 * 3600000 ? 60000 : 3600000;
    const QString label = unit == 1000    ? tr("late (s)")
                          : unit == 60000 ? tr("late (min)")
                                          : tr("late (h)");
    QVector<double> keys, values;
    if (shown)
        for (const ForecastPoint& p : curve) {
            keys.append(toKey(p.atMs));
            values.append(static_cast<double>(p.latenessMs) / unit);
        }
    m_lateness->setData(keys, values, true);
    if (shown)
        m_lateness->addToLegend();
    else
        m_lateness->removeFromLegend();
    m_plot->yAxis2->setVisible(shown);
    m_plot->yAxis2->setLabel(label);
    m_plot->yAxis2->setRange(0, static_cast<double>(top) / unit * 1.15);
    const bool threshold = shown && m_forecast.thresholdMs > 0;
    m_thresholdLine->setVisible(threshold);
    if (threshold) {
        m_thresholdKey->setName(
            tr("threshold %1").arg(DueText::duration(m_forecast.thresholdMs)));
        m_thresholdKey->addToLegend();
    } else {
        m_thresholdKey->removeFromLegend();
    }
    if (threshold) {
        const double y = static_cast<double>(m_forecast.thresholdMs) / unit;
        m_thresholdLine->start->setCoords(toKey(curve.first().atMs), y);
        m_thresholdLine->end->setCoords(toKey(curve.last().atMs), y);
    }
}

void TimelineChart::onRangeChanged()
{
    if (m_settingRange)
        return;
    m_userWindow = true;
    m_debounce->start();
}

} // namespace delayq::ui
