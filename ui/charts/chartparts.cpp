#include "charts/chartparts.h"

#include <QPen>

#include <qcustomplot.h>

namespace delayq::ui {

QCPBars* ChartParts::bars(QCustomPlot* plot, const QString& name, const QColor& colour)
{
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    bars->setPen(Qt::NoPen);
    bars->setBrush(colour);
    return bars;
}

void ChartParts::showLegend(QCustomPlot* plot, const QFont& font, Qt::Alignment corner)
{
    plot->legend->setVisible(true);
    plot->legend->setFont(font);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, corner);
}

QCPItemStraightLine* ChartParts::nowLine(QCustomPlot* plot, double width)
{
    auto* line = new QCPItemStraightLine(plot);
    line->setPen(QPen(QColor(0x33, 0x33, 0x33), width, Qt::DashLine));
    return line;
}

void ChartParts::placeLine(QCPItemStraightLine* line, double key)
{
    line->point1->setCoords(key, 0);
    line->point2->setCoords(key, 1);
}

void ChartParts::setUtc(QCustomPlot* plot, bool utc)
{
    auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerDateTime>();
    if (ticker)
        ticker->setDateTimeSpec(utc ? Qt::UTC : Qt::LocalTime);
}

} // namespace delayq::ui
