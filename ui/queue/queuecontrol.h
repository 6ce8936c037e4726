#pragma once

#include "client/queuetypes.h"

#include "widgets/confirmation.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QAction;
class QWidget;

namespace delayq::ui {

class AdminClient;
class QueueSettingsDialog;
class ThresholdsDialog;

// Pause / resume, the settings dialog and the thresholds of a queue: for the target queue
// (the Queue menu and the toolbar: the open queue, or on the Overview the row selected there)
// and for any queue the overview's context menu names. The actions' texts name the target.
// Pausing asks first, naming the queue and the server, then writes config paused=1, as
// `delayq pause` does; the overview's next snapshot shows it everywhere.
class QueueControl : public QObject
{
    Q_OBJECT

public:
    using ConfirmHandler = std::function<bool(const Confirmation& confirmation)>;

    QueueControl(AdminClient* client, QWidget* window);

    QAction* pauseAction() const { return m_pause; }
    QAction* settingsAction() const { return m_settings; }
    QAction* thresholdsAction() const { return m_thresholds; }
    QAction* allThresholdsAction() const { return m_allThresholds; }

    // The queue the actions aim at (empty: none, they are off); plain keys have no config
    // to pause or set.
    void setQueue(const QString& queue, bool plain);
    QString queue() const { return m_queue; }
    // The server named in the pause confirmation (its address, password masked).
    void setServer(const QString& server) { m_server = server; }
    // Tests answer the confirmations themselves; the default asks with a message box.
    void setConfirmHandler(ConfirmHandler handler) { m_confirm = std::move(handler); }
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
    QString m_server;
    ConfirmHandler m_confirm;
    QList<quint64> m_pauseTags;
};

} // namespace delayq::ui
