#include "connection/sessionstore.h"

#include "connection/connectiondialog.h"

#include <QHash>
#include <QSettings>
#include <QVariant>

#include <initializer_list>
#include <utility>

namespace delayq::ui {

namespace {

// Server (URL without password) -> password: memory only, gone with the process.
QHash<QString, QString>& keptPasswords()
{
    static QHash<QString, QString> kept;
    return kept;
}

// One saved group: each key with its value.
void store(std::initializer_list<std::pair<const char*, QVariant>> values)
{
    QSettings settings;
    for (const auto& [key, value] : values)
        settings.setValue(QLatin1String(key), value);
}

QVariant stored(const char* key, const QVariant& fallback = {})
{
    return QSettings().value(QLatin1String(key), fallback);
}

} // namespace

void SessionStore::saveConnection(const ConnectionSettings& chosen)
{
    store({{"last/url", ConnectionDialog::stripPassword(chosen.url)},
           {"last/prefix", chosen.prefix},
           {"last/readOnly", chosen.readOnly}});
}

bool SessionStore::lastConnection(ConnectionSettings* settings)
{
    const QString url = stored("last/url").toString();
    if (url.isEmpty())
        return false;
    settings->url = url;
    settings->prefix = stored("last/prefix", QStringLiteral("dq")).toString();
    settings->readOnly = stored("last/readOnly", false).toBool();
    return true;
}

void SessionStore::saveView(const View& view)
{
    store(
        {{"window/geometry", view.geometry}, {"window/state", view.state}, {"view/utc", view.utc}});
}

SessionStore::View SessionStore::view()
{
    return {stored("window/geometry").toByteArray(), stored("window/state").toByteArray(),
            stored("view/utc", false).toBool()};
}

void SessionStore::saveOpenQueue(const OpenQueue& queue)
{
    store({{"lastQueue/server", ConnectionDialog::stripPassword(queue.server)},
           {"lastQueue/name", queue.name},
           {"lastQueue/plain", queue.plain}});
}

void SessionStore::keepPassword(const ConnectionSettings& settings)
{
    QString inUrl;
    const QString server = ConnectionDialog::stripPassword(settings.url.trimmed(), &inUrl);
    const QString password = settings.password.isEmpty() ? inUrl : settings.password;
    if (!server.isEmpty() && !password.isEmpty())
        keptPasswords().insert(server, password);
}

QString SessionStore::keptPassword(const QString& url)
{
    return keptPasswords().value(ConnectionDialog::stripPassword(url.trimmed()));
}

SessionStore::OpenQueue SessionStore::openQueue()
{
    return {stored("lastQueue/server").toString(), stored("lastQueue/name").toString(),
            stored("lastQueue/plain", false).toBool()};
}

} // namespace delayq::ui
