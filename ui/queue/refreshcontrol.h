#pragma once

#include <QObject>

class QAction;
class QLabel;
class QSpinBox;
class QWidget;
class QTimer;
class QToolBar;

namespace delayq::ui {

// The live refresh: its timer, the Freeze figures action and the interval box of the toolbar,
// kept in step whichever of them the user (or a measurement) changes, and the banner that
// says, for as long as it is true, that the figures are frozen.
class RefreshControl : public QObject
{
    Q_OBJECT

public:
    explicit RefreshControl(QObject* parent = nullptr);

    // Puts "Refresh every N s" and Freeze figures on the toolbar.
    void addTo(QToolBar* bar);
    // The banner shown while frozen (once, for the window to place).
    QLabel* makeNotice(QWidget* parent);
    QAction* pauseAction() const { return m_pause; }
    void setInterval(int ms);
    void setPaused(bool paused);
    bool isPaused() const;

signals:
    void refreshDue();

private:
    QTimer* m_timer;
    QAction* m_pause;
    QSpinBox* m_interval = nullptr;
    QLabel* m_notice = nullptr;
};

} // namespace delayq::ui
