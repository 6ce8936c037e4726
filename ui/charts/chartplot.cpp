#include "charts/chartplot.h"

#include <QMetaObject>

namespace delayq::ui {

ChartPlot::ChartPlot(QWidget* parent) : QCustomPlot(parent) {}

void ChartPlot::replotLater()
{
    if (m_replotPending)
        return;
    m_replotPending = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (m_replotPending)
                replotNow();
        },
        Qt::QueuedConnection);
}

void ChartPlot::replotNow()
{
    m_replotPending = false;
    replot(rpQueuedRefresh); // the buffers now, the widget at the next paint
}

void ChartPlot::resizeEvent(QResizeEvent* event)
{
    Q_UNUSED(event)
    setViewport(rect());
    replotLater();
}

void ChartPlot::paintEvent(QPaintEvent* event)
{
    if (m_replotPending)
        replotNow();
    QCustomPlot::paintEvent(event);
}

} // namespace delayq::ui
