#pragma once

#include <QObject>

class QAction;
class QSpinBox;
class QTimer;
class QToolBar;

namespace delayq::ui {

// The live refresh: its timer, the Pause action and the interval box of the toolbar, kept in
// step whichever of them the user (or a measurement) changes.
class RefreshControl : public QObject
{
    Q_OBJECT

public:
    explicit RefreshControl(QObject* parent = nullptr);

    // Puts Pause and "every N s" on the toolbar.
    void addTo(QToolBar* bar);
    QAction* pauseAction() const { return m_pause; }
    void setInterval(int ms);
    void setPaused(bool paused);

signals:
    void refreshDue();

private:
    QTimer* m_timer;
    QAction* m_pause;
    QSpinBox* m_interval = nullptr;
};

} // namespace delayq::ui
