#pragma once

#include <QPointer>

class QLayout;
class QWidget;

namespace delayq::ui {

// Holds a window's own layout while many of its widgets are shown and hidden at once, and lets
// it lay the window out once afterwards, from the event loop. Qt lays a whole window out on
// the spot each time a widget is shown in it (it activates the layout of every visible
// ancestor); opening a queue shows and hides about twenty widgets, in the docks and the pages.
// Widgets keep their own layouts meanwhile: a page shown gets the size its parent has.
class LayoutBatch
{
public:
    explicit LayoutBatch(QWidget* window);
    ~LayoutBatch();
    LayoutBatch(const LayoutBatch&) = delete;
    LayoutBatch& operator=(const LayoutBatch&) = delete;

private:
    QPointer<QWidget> m_window;
    QPointer<QLayout> m_layout;
    bool m_wasEnabled = false;
};

} // namespace delayq::ui
