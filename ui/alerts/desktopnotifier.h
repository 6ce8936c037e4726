#pragma once

#include <QHash>
#include <QObject>
#include <QString>

namespace delayq::ui {

// Desktop notifications through the desktop's notification service
// (org.freedesktop.Notifications on the session bus: dunst, GNOME Shell, KDE Plasma...).
// Calls are asynchronous, so the GUI thread never waits on the bus; without a service the
// notification is dropped and available() turns false. The texts are sent as plain text
// (markup escaped), whatever the server does with markup.
class DesktopNotifier : public QObject
{
    Q_OBJECT

public:
    explicit DesktopNotifier(QObject* parent = nullptr);

    // key is handed back by clicked() when the operator clicks the notification.
    void notify(const QString& summary, const QString& body, const QString& key);
    bool available() const { return m_available; }

signals:
    void clicked(const QString& key);
    // A notification was sent (the service answered with its id) or refused.
    void sent(const QString& key);
    void failed(const QString& reason);

private slots:
    // The bus' signal; connected by name, as QtDBus connects signals of other services.
    void onActionInvoked(uint id, const QString& action);

private:
    QHash<uint, QString> m_keys; // notification id -> key, for the clicks
    bool m_available = true;
};

} // namespace delayq::ui
