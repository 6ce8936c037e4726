#include "queue/refreshcontrol.h"

#include <QAction>
#include <QDateTime>
#include <QLabel>
#include <QSpinBox>
#include <QTimer>
#include <QToolBar>

namespace delayq::ui {

RefreshControl::RefreshControl(QObject* parent)
    : QObject(parent), m_timer(new QTimer(this)), m_pause(new QAction(tr("Freeze figures"), this))
{
    m_timer->setInterval(2000);
    connect(m_timer, &QTimer::timeout, this, &RefreshControl::refreshDue);
    m_timer->start();
    // Not "Pause": beside Pause queue it read as stopping the queue, while it only stops
    // this window from reading the server.
    m_pause->setCheckable(true);
    m_pause->setToolTip(tr("Stop the live refresh of this window: every figure stays as it "
                           "is. The queue and its workers go on (Pause queue stops those)."));
    connect(m_pause, &QAction::toggled, this, &RefreshControl::setPaused);
}

void RefreshControl::addTo(QToolBar* bar)
{
    bar->addWidget(new QLabel(tr(" Refresh every "), bar));
    m_interval = new QSpinBox(bar);
    m_interval->setRange(1, 300);
    m_interval->setValue(m_timer->interval() / 1000);
    m_interval->setSuffix(tr(" s"));
    m_interval->setToolTip(tr("Live refresh interval"));
    bar->addWidget(m_interval);
    connect(m_interval, &QSpinBox::valueChanged, this, [this](int s) { setInterval(s * 1000); });
    bar->addAction(m_pause);
}

QLabel* RefreshControl::makeNotice(QWidget* parent)
{
    m_notice = new QLabel(parent);
    m_notice->setObjectName(QStringLiteral("frozennotice"));
    m_notice->setWordWrap(true);
    m_notice->setMargin(6);
    m_notice->setStyleSheet(QStringLiteral("background: #d6eaf8; color: #1b4f72;"));
    m_notice->setVisible(isPaused());
    return m_notice;
}

bool RefreshControl::isPaused() const
{
    return !m_timer->isActive();
}

void RefreshControl::setInterval(int ms)
{
    m_timer->setInterval(ms);
    if (m_interval && m_interval->value() != ms / 1000)
        m_interval->setValue(ms / 1000);
}

void RefreshControl::setPaused(bool paused)
{
    if (paused == isPaused())
        return;
    if (paused)
        m_timer->stop();
    else
        m_timer->start();
    if (m_pause->isChecked() != paused)
        m_pause->setChecked(paused);
    if (!m_notice)
        return;
    // F5 and the operator's own actions still reload what they touch: say so, not "frozen at".
    m_notice->setText(tr("Live updates off since %1: the figures shown change only on F5 or "
                         "after an action of yours. Freeze figures again turns them back on.")
                          .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
    m_notice->setVisible(paused);
}

} // namespace delayq::ui
