#include "alerts/desktopnotifier.h"

#include <QDBusConnection>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QVariantMap>

namespace delayq::ui {

namespace {

const QString kService = QStringLiteral("org.freedesktop.Notifications");
const QString kPath = QStringLiteral("/org/freedesktop/Notifications");
const QString kInterface = QStringLiteral("org.freedesktop.Notifications");

} // namespace

DesktopNotifier::DesktopNotifier(QObject* parent) : QObject(parent)
{
    QDBusConnection::sessionBus().connect(kService, kPath, kInterface,
                                          QStringLiteral("ActionInvoked"), this,
                                          SLOT(onActionInvoked(uint, QString)));
}

void DesktopNotifier::notify(const QString& summary, const QString& body, const QString& key)
{
    QDBusMessage call =
        QDBusMessage::createMethodCall(kService, kPath, kInterface, QStringLiteral("Notify"));
    // Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
    // "default" is the action of a click on the notification itself.
    call << QStringLiteral("delayq-admin") << uint(0) << QStringLiteral("delayq-admin")
         << summary.toHtmlEscaped() << body.toHtmlEscaped()
         << QStringList{QStringLiteral("default"), tr("Open")} << QVariantMap() << int(-1);
    auto* watcher =
        new QDBusPendingCallWatcher(QDBusConnection::sessionBus().asyncCall(call), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, key](QDBusPendingCallWatcher* w) {
                const QDBusPendingReply<uint> reply = *w;
                w->deleteLater();
                m_available = !reply.isError();
                if (reply.isError()) {
                    emit failed(reply.error().message());
                    return;
                }
                m_keys.insert(reply.value(), key);
                emit sent(key);
            });
}

void DesktopNotifier::onActionInvoked(uint id, const QString& action)
{
    if (action == QLatin1String("default") && m_keys.contains(id))
        emit clicked(m_keys.value(id));
}

} // namespace delayq::ui
