#include "widgets/layoutbatch.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLayout>
#include <QWidget>

namespace delayq::ui {

LayoutBatch::LayoutBatch(QWidget* window) : m_window(window), m_layout(window->layout())
{
    if (!m_layout)
        return;
    m_wasEnabled = m_layout->isEnabled();
    m_layout->setEnabled(false);
}

LayoutBatch::~LayoutBatch()
{
    if (!m_layout)
        return;
    m_layout->setEnabled(m_wasEnabled);
    // A change while it was held posted the window a LayoutRequest, but one delivered meanwhile
    // found the layout held and did nothing: ask again (Qt merges the two; a layout that is
    // up to date ignores it).
    if (m_wasEnabled && m_window)
        QCoreApplication::postEvent(m_window, new QEvent(QEvent::LayoutRequest));
}

} // namespace delayq::ui
