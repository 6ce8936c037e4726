#include "alerts/alertcenter.h"

#include "alerts/desktopnotifier.h"
#include "alerts/serverwatch.h"
#include "connection/connectionprofiles.h"
#include "connection/passwordstore.h"
#include "connection/sessionstore.h"

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QMenu>
#include <QSettings>
#include <QSystemTrayIcon>

namespace delayq::ui {

namespace {

const QString kWatched = QStringLiteral("alerts/watched");
const QString kEnabled = QStringLiteral("alerts/enabled");
constexpr int kWatchIntervalMs = 10000;

QString keyOf(const AlertChange& c)
{
    return c.server + QChar(0x1f) + c.queue + QChar(0x1f) + c.condition;
}

} // namespace

AlertCenter::AlertCenter(std::function<bool()> away, QObject* parent)
    : QObject(parent), m_away(std::move(away)), m_notifier(new DesktopNotifier(this))
{
    m_menu = new QMenu(tr("&Alerts"));
    m_enabled = m_menu->addAction(tr("&Desktop notifications"));
    m_enabled->setCheckable(true);
    m_enabled->setChecked(QSettings().value(kEnabled, true).toBool());
    m_enabled->setToolTip(tr("While the window is minimised or in the tray, say on the desktop "
                             "when a queue crosses a threshold, has no consumer, stalls or "
                             "stays paused, and when a server cannot be reached"));
    connect(m_enabled, &QAction::toggled, this,
            [](bool on) { QSettings().setValue(kEnabled, on); });
    m_watchMenu = m_menu->addMenu(tr("&Watch servers"));
    connect(m_watchMenu, &QMenu::aboutToShow, this, &AlertCenter::rebuildWatchMenu);
    connect(m_notifier, &DesktopNotifier::clicked, this, [this](const QString& key) {
        const QStringList parts = key.split(QChar(0x1f));
        emit openRequested(parts.value(0), parts.value(1));
    });
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(QApplication::windowIcon(), this);
        m_tray->setToolTip(QStringLiteral("delayq-admin"));
        auto* trayMenu = new QMenu;
        trayMenu->addAction(tr("Show delayq-admin"), this, &AlertCenter::showRequested);
        trayMenu->addAction(tr("Quit"), this, &AlertCenter::quitRequested);
        m_tray->setContextMenu(trayMenu);
        connect(m_tray, &QSystemTrayIcon::activated, this, [this](auto reason) {
            if (reason == QSystemTrayIcon::Trigger)
                emit showRequested();
        });
        m_tray->show();
    }
    for (const QString& profile : watched())
        startWatch(profile);
}

AlertCenter::~AlertCenter()
{
    delete m_menu;
    if (m_tray)
        delete m_tray->contextMenu();
}

void AlertCenter::setOwnServer(const QString& name)
{
    if (name == m_ownServer)
        return;
    if (!m_ownServer.isEmpty() && !m_watches.contains(m_ownServer))
        m_rules.forget(m_ownServer);
    m_ownServer = name;
}

void AlertCenter::ownReadingDone(const OverviewResult& result)
{
    // A watched profile of the same server reads it already: one alert, not two.
    if (m_ownServer.isEmpty() || m_watches.contains(m_ownServer))
        return;
    if (!result.error.isEmpty())
        ownUnreachable(result.error.message);
    else
        handle(m_rules.read(m_ownServer, result.rows, QDateTime::currentMSecsSinceEpoch()));
}

void AlertCenter::ownUnreachable(const QString& reason)
{
    if (!m_ownServer.isEmpty() && !m_watches.contains(m_ownServer))
        handle(m_rules.unreachable(m_ownServer, reason));
}

QStringList AlertCenter::watched() const
{
    QStringList out;
    const QStringList saved = ConnectionProfiles::names();
    for (const QString& name : QSettings().value(kWatched).toStringList())
        if (saved.contains(name))
            out.append(name);
    return out;
}

void AlertCenter::setWatched(const QString& profile, bool watch)
{
    QStringList list = watched();
    list.removeAll(profile);
    if (watch)
        list.append(profile);
    QSettings().setValue(kWatched, list);
    if (watch && !m_watches.contains(profile)) {
        startWatch(profile);
    } else if (!watch && m_watches.contains(profile)) {
        delete m_watches.take(profile);
        m_rules.forget(profile);
        emit watchEnded(profile);
    }
}

void AlertCenter::startWatch(const QString& profile)
{
    const ConnectionProfiles::Profile p = ConnectionProfiles::read(profile);
    ConnectionSettings settings = ConnectionSettings::forUrl(p.url);
    settings.prefix = p.prefix;
    settings.readOnly = true;           // watching only reads
    m_watches.insert(profile, nullptr); // watched, connecting once its password is read
    // The password this session connected with (typed in Connect…): the window reads that
    // server with it, so the watch does too, keychain or not.
    settings.password = SessionStore::keptPassword(p.url);
    if (!p.keychain || !settings.password.isEmpty()) {
        watch(profile, settings);
        return;
    }
    // Its password is in the keychain, as the connection dialog left it: read it first
    // (asynchronously); without it the server answers the watch with its refusal.
    auto* store = new PasswordStore(this);
    const QString key = ConnectionProfiles::rememberedKey(p.url);
    connect(store, &PasswordStore::passwordRead, this,
            [this, store, key, profile, settings](const QString& answered,
                                                  PasswordStore::Result result,
                                                  const QString& password) mutable {
                if (answered != key)
                    return;
                store->deleteLater();
                if (!m_watches.contains(profile))
                    return; // unwatched meanwhile
                if (result == PasswordStore::Result::Done)
                    settings.password = password;
                watch(profile, settings);
            });
    store->read(key);
}

void AlertCenter::watch(const QString& profile, const ConnectionSettings& settings)
{
    auto* watch = new ServerWatch(profile, settings, kWatchIntervalMs, this);
    connect(watch, &ServerWatch::readingDone, this,
            [this](const QString& server, const QList<OverviewRow>& rows) {
                handle(m_rules.read(server, rows, QDateTime::currentMSecsSinceEpoch()));
                emit watchedRead(server, rows);
            });
    connect(watch, &ServerWatch::unreachable, this,
            [this](const QString& server, const QString& reason) {
                handle(m_rules.unreachable(server, reason));
                emit watchedUnreachable(server, reason);
            });
    m_watches.insert(profile, watch);
}

void AlertCenter::rebuildWatchMenu()
{
    m_watchMenu->clear();
    const QStringList names = ConnectionProfiles::names();
    if (names.isEmpty()) {
        m_watchMenu->addAction(tr("No saved profile (File → Connect… saves one)"))
            ->setEnabled(false);
        return;
    }
    const QStringList on = watched();
    for (const QString& name : names) {
        QAction* action = m_watchMenu->addAction(name);
        action->setCheckable(true);
        action->setChecked(on.contains(name));
        connect(action, &QAction::toggled, this,
                [this, name](bool watch) { setWatched(name, watch); });
    }
}

bool AlertCenter::enabled() const
{
    return m_enabled->isChecked();
}

void AlertCenter::handle(const QList<AlertChange>& changes)
{
    if (changes.isEmpty())
        return;
    for (const AlertChange& c : changes) {
        const QString key = keyOf(c);
        if (c.raised) {
            if (!enabled() || !m_away())
                continue; // seen in the window, or not wanted: no notification, no "back"
            m_notified.insert(key);
        } else if (!m_notified.remove(key)) {
            continue;
        }
        m_notifier->notify(c.summary, c.body, c.server + QChar(0x1f) + c.queue);
    }
    emit changed(changes);
}

} // namespace delayq::ui
