#pragma once

#include <qcustomplot.h>

namespace delayq::ui {

// The charts' plot: a QCustomPlot that draws from the event loop, once however often it is
// asked in one turn, and never repaints the window on the spot.
//
// QCustomPlot redraws every layer when it is resized, there and then, into buffers allocated
// anew for the new size, and its queued replot ends in a repaint(), which paints every dirty
// part of the window at once. Opening a queue did both for each chart: shown at the size its
// dock had, replotted, laid out to another size, replotted again, and the whole window painted
// in the middle of it. Here a resize and replotLater() draw the buffers in a later turn with
// the size the plot has by then, and ask for an ordinary update. A paint that comes before
// that draw (the window resized under the pointer) draws first, so it never shows a buffer of
// another size.
class ChartPlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit ChartPlot(QWidget* parent = nullptr);

    void replotLater();
    bool isReplotPending() const { return m_replotPending; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void replotNow();

    bool m_replotPending = false;
};

} // namespace delayq::ui
