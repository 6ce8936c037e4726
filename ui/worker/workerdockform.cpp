// The embedded worker's widgets (WorkerDock's; what they do is in workerdock.cpp and
// workerdockdelivery.cpp): the settings form, the output below it, and the scroll area
// around them.
#include "worker/workerdock.h"

#include "widgets/fielderror.h"
#include "worker/deliverytargetfield.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

namespace delayq::ui {

QFormLayout* WorkerDock::makeForm(QWidget* body)
{
    auto* form = new QFormLayout;
    m_concurrency = new QSpinBox(body);
    m_concurrency->setRange(1, 32);
    m_concurrency->setValue(2);
    form->addRow(tr("Threads"), m_concurrency);
    m_lease = new QLineEdit(QStringLiteral("30s"), body);
    m_leaseError = FieldError::addRow(form, tr("Lease"), m_lease, body);
    m_behaviour = new QComboBox(body);
    m_behaviour->addItem(tr("Ack every task"), Ack);
    m_behaviour->addItem(tr("Fail some (retry / dead)"), FailSome);
    m_behaviour->addItem(tr("Never ack (leases expire)"), Abandon);
    m_behaviour->addItem(tr("Deliver to a target"), Deliver);
    form->addRow(tr("Handler"), m_behaviour);
    m_deliverTo = new DeliveryTargetField(body);
    form->addRow(tr("Deliver to"), m_deliverTo);
    m_failPercent = new QSpinBox(body);
    m_failPercent->setRange(0, 100);
    m_failPercent->setValue(20);
    m_failPercent->setSuffix(QStringLiteral(" %"));
    form->addRow(tr("Fail probability"), m_failPercent);
    m_sleepMs = new QSpinBox(body);
    m_sleepMs->setRange(0, 600000);
    m_sleepMs->setValue(50);
    m_sleepMs->setSuffix(tr(" ms"));
    form->addRow(tr("Work time"), m_sleepMs);
    m_forwardTo = new QLineEdit(body);
    m_forwardTo->setPlaceholderText(tr("optional: a Redis list"));
    m_forwardTo->setToolTip(tr("LPUSH each popped message to this list, in the same script as "
                               "the pop, for a consumer that reads the list"));
    form->addRow(tr("Forward to"), m_forwardTo);
    m_retry = new QLineEdit(body);
    m_retry->setPlaceholderText(tr("optional: e.g. 30s; empty drops failed messages"));
    m_retryError = FieldError::addRow(form, tr("Retry failed in"), m_retry, body);
    return form;
}

void WorkerDock::addOutput(QVBoxLayout* layout, QWidget* body)
{
    m_start = new QPushButton(tr("Start worker"), body);
    layout->addWidget(m_start);
    m_counters = new QLabel(body);
    m_counters->setTextFormat(Qt::PlainText);
    m_counters->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    const QString lateness =
        tr("Lateness: from a task's due time to the moment this worker started it. Tasks that "
           "were already overdue when the worker started count their whole wait.");
    m_counters->setToolTip(lateness);
    layout->addWidget(m_counters);
    auto* latenessNote = new QLabel(lateness, body);
    latenessNote->setTextFormat(Qt::PlainText);
    latenessNote->setWordWrap(true);
    latenessNote->setEnabled(false);
    layout->addWidget(latenessNote);
    m_log = new QPlainTextEdit(body);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(500);
    // Wrapped: a narrow panel must still show a whole id and error.
    m_log->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_log->setPlaceholderText(tr("Outcomes of the tasks this worker runs appear here."));
    layout->addWidget(m_log, 1);
}

QWidget* WorkerDock::scrolled(QWidget* body)
{
    // In a window of 700 px the docks below leave this panel less than its rows need: it
    // scrolls rather than squeezing the fields and their messages over each other.
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(body);
    m_scroll = scroll;
    // Its width follows the body's (the counters' longest line), as the panel did without it.
    body->installEventFilter(this);
    fitWidth();
    return scroll;
}

void WorkerDock::fitWidth()
{
    // At most kWidth, unless a line that does not wrap needs more.
    QWidget* body = m_scroll->widget();
    const int needed = body->minimumSizeHint().width();
    const int width = std::max(kWidth, needed);
    const int bar = m_scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    body->setMaximumWidth(width);
    m_scroll->setMinimumWidth(needed + bar);
    m_scroll->setMaximumWidth(width + bar);
}

bool WorkerDock::eventFilter(QObject* watched, QEvent* event)
{
    if (m_scroll && watched == m_scroll->widget() && event->type() == QEvent::LayoutRequest)
        fitWidth();
    return QDockWidget::eventFilter(watched, event);
}

} // namespace delayq::ui
