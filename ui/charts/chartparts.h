#pragma once

#include <Qt>

class QColor;
class QCPBars;
class QCPItemStraightLine;
class QCustomPlot;
class QFont;
class QString;

namespace delayq::ui {

// What the app's bar charts over time (the timeline, the throughput chart) draw alike: flat bars, the
// legend in a corner, the dashed line at now, and the zone of the time axis.
namespace ChartParts {

// A bar series of one colour, with no outline.
QCPBars* bars(QCustomPlot* plot, const QString& name, const QColor& colour);
// The legend inside the axis rect, in `corner`, in the widget's font.
void showLegend(QCustomPlot* plot, const QFont& font, Qt::Alignment corner);
QCPItemStraightLine* nowLine(QCustomPlot* plot, double width);
// The vertical line at `key` on the time axis.
void placeLine(QCPItemStraightLine* line, double key);
// Labels the time axis (a date-time ticker) in UTC or in local time.
void setUtc(QCustomPlot* plot, bool utc);

} // namespace ChartParts

} // namespace delayq::ui
