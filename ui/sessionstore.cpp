#include "sessionstore.h"

#include "connectiondialog.h"

#include <QSettings>

namespace delayq::ui {

void SessionStore::saveConnection(const ConnectionSettings& chosen)
{
    QSettings settings;
    settings.setValue(QStringLiteral("last/url"), ConnectionDialog::stripPassword(chosen.url));
    settings.setValue(QStringLiteral("last/prefix"), chosen.prefix);
    settings.setValue(QStringLiteral("last/readOnly"), chosen.readOnly);
}

bool SessionStore::lastConnection(ConnectionSettings* settings)
{
    QSettings stored;
    const QString url = stored.value(QStringLiteral("last/url")).toString();
    if (url.isEmpty())
        return false;
    settings->url = url;
    settings->prefix = stored.value(QStringLiteral("last/prefix"), QStringLiteral("dq")).toString();
    settings->readOnly = stored.value(QStringLiteral("last/readOnly"), false).toBool();
    return true;
}

void SessionStore::saveView(const View& view)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), view.geometry);
    settings.setValue(QStringLiteral("window/state"), view.state);
    settings.setValue(QStringLiteral("view/utc"), view.utc);
}

SessionStore::View SessionStore::view()
{
    QSettings settings;
    View view;
    view.geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
    view.state = settings.value(QStringLiteral("window/state")).toByteArray();
    view.utc = settings.value(QStringLiteral("view/utc"), false).toBool();
    return view;
}

void SessionStore::saveOpenQueue(const OpenQueue& queue)
{
    QSettings settings;
    settings.setValue(QStringLiteral("lastQueue/server"),
                      ConnectionDialog::stripPassword(queue.server));
    settings.setValue(QStringLiteral("lastQueue/name"), queue.name);
    settings.setValue(QStringLiteral("lastQueue/plain"), queue.plain);
}

SessionStore::OpenQueue SessionStore::openQueue()
{
    QSettings settings;
    OpenQueue queue;
    queue.server = settings.value(QStringLiteral("lastQueue/server")).toString();
    queue.name = settings.value(QStringLiteral("lastQueue/name")).toString();
    queue.plain = settings.value(QStringLiteral("lastQueue/plain"), false).toBool();
    return queue;
}

} // namespace delayq::ui
