#include "refreshcontrol.h"

#include <QAction>
#include <QLabel>
#include <QSpinBox>
#include <QTimer>
#include <QToolBar>

namespace delayq::ui {

RefreshControl::RefreshControl(QObject* parent)
    : QObject(parent), m_timer(new QTimer(this)), m_pause(new QAction(tr("Pause"), this))
{
    m_timer->setInterval(2000);
    connect(m_timer, &QTimer::timeout, this, &RefreshControl::refreshDue);
    m_timer->start();
    m_pause->setCheckable(true);
    m_pause->setToolTip(tr("Pause the live refresh"));
    connect(m_pause, &QAction::toggled, this, &RefreshControl::setPaused);
}

void RefreshControl::addTo(QToolBar* bar)
{
    bar->addAction(m_pause);
    bar->addWidget(new QLabel(tr(" every "), bar));
    m_interval = new QSpinBox(bar);
    m_interval->setRange(1, 300);
    m_interval->setValue(m_timer->interval() / 1000);
    m_interval->setSuffix(tr(" s"));
    m_interval->setToolTip(tr("Live refresh interval"));
    bar->addWidget(m_interval);
    connect(m_interval, &QSpinBox::valueChanged, this, [this](int s) { setInterval(s * 1000); });
}

void RefreshControl::setInterval(int ms)
{
    m_timer->setInterval(ms);
    if (m_interval && m_interval->value() != ms / 1000)
        m_interval->setValue(ms / 1000);
}

void RefreshControl::setPaused(bool paused)
{
    if (paused)
        m_timer->stop();
    else
        m_timer->start();
    if (m_pause->isChecked() != paused)
        m_pause->setChecked(paused);
}

} // namespace delayq::ui
