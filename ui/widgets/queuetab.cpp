#include "widgets/queuetab.h"

#include <QLabel>

namespace delayq::ui {

QueueTab::QueueTab(QWidget* parent) : QWidget(parent) {}

void QueueTab::setQueue(const QString& queue)
{
    m_queue = queue;
    m_inFlight = false;
    m_tag = 0;
    forget();
    updateNote();
}

void QueueTab::setPlain(bool plain)
{
    m_plain = plain;
    updateNote();
}

bool QueueTab::isNoteShown() const
{
    return m_note && !m_note->isHidden();
}

void QueueTab::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refresh();
}

void QueueTab::refresh()
{
    if (m_queue.isEmpty() || m_plain || m_inFlight || !isVisible())
        return;
    m_inFlight = true;
    m_tag = request();
}

bool QueueTab::isAwaited(quint64 tag)
{
    if (tag != m_tag)
        return false;
    m_inFlight = false;
    return true;
}

QLabel* QueueTab::makeNote()
{
    m_note = new QLabel(this);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setWordWrap(true);
    m_note->setAlignment(Qt::AlignCenter);
    m_note->setEnabled(false);
    return m_note;
}

} // namespace delayq::ui
