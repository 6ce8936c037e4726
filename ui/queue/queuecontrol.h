#pragma once

#include "client/queuetypes.h"

#include <QObject>
#include <QPointer>

class QAction;
class QWidget;

namespace delayq::ui {

class AdminClient;
class QueueSettingsDialog;
class ThresholdsDialog;

// Pause / resume, the settings dialog and the thresholds of a queue: for the open queue
// (the Queue menu and the toolbar) and for any queue the overview names. Pausing writes
// config paused=1, as `delayq pause` does; the overview's next snapshot shows it everywhere.
class QueueControl : public QObject
{
    Q_OBJECT

public:
    QueueControl(AdminClient* client, QWidget* window);

    QAction* pauseAction() const { return m_pause; }
    QAction* settingsAction() const { return m_settings; }
    QAction* thresholdsAction() const { return m_thresholds; }
    QAction* allThresholdsAction() const { return m_allThresholds; }

    // The open queue (empty: none); plain keys have no config to pause or set.
    void setQueue(const QString& queue, bool plain);
    // What the last snapshot says of the open queue.
    void setQueuePaused(bool paused);
    bool isQueuePaused() const { return m_paused; }
    void setReadOnly(bool readOnly, const QString& reason);

    void setPaused(const QString& queue, bool pause);
    QueueSettingsDialog* openSettings(const QString& queue);
    ThresholdsDialog* openThresholds(const QString& queue);

signals:
    void pausedChanged(const QString& queue, bool paused);
    void thresholdsChanged();
    void settingsSaved(const QString& queue);
    void resultReported(const QString& text);

private:
    void onConfig(const QueueConfigResult& result);
    void updateActions();

    AdminClient* m_client;
    QWidget* m_window;
    QAction* m_pause;
    QAction* m_settings;
    QAction* m_thresholds;
    QAction* m_allThresholds;
    QString m_queue;
    bool m_plain = false;
    bool m_paused = false;
    bool m_readOnly = false;
    QString m_readOnlyReason;
    QList<quint64> m_pauseTags;
};

} // namespace delayq::ui
