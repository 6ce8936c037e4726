#pragma once

#include "alerts/alertrules.h"
#include "client/connectiontypes.h"
#include "client/overviewtypes.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>

class QAction;
class QMenu;
class QSystemTrayIcon;
class QWidget;

namespace delayq::ui {

class DesktopNotifier;
class ServerWatch;

// Alerts (docs/admin.md, "Alerts"): the window's own server and the watched ones are read on
// their own I/O threads, AlertRules decides what started and ended, and while the window is
// minimised or hidden in the tray each change becomes a desktop notification (a click opens
// that queue). The Alerts menu turns them on or off and picks the saved profiles to watch.
class AlertCenter : public QObject
{
    Q_OBJECT

public:
    // away: true while the operator cannot see the window (minimised, hidden in the tray).
    AlertCenter(std::function<bool()> away, QObject* parent = nullptr);
    ~AlertCenter() override;

    QMenu* menu() const { return m_menu; }
    AlertRules& rules() { return m_rules; }
    DesktopNotifier* notifier() const { return m_notifier; }
    // The tray icon, when the desktop has a tray (else null).
    QSystemTrayIcon* tray() const { return m_tray; }

    // The window's own server: how it is named in the texts, and what it read or why not.
    void setOwnServer(const QString& name);
    const QString& ownServer() const { return m_ownServer; }
    void ownReadingDone(const OverviewResult& result);
    void ownUnreachable(const QString& reason);

    // The saved profiles watched besides the window's own server (QSettings alerts/watched).
    QStringList watched() const;
    void setWatched(const QString& profile, bool watch);

signals:
    // A notification was clicked: show the window and that queue (empty: the server).
    void openRequested(const QString& server, const QString& queue);
    // The tray icon was clicked: show the window.
    void showRequested();
    void quitRequested();
    // A watched server's queues were read, it could not be, or it is no longer watched (the
    // overview shows them beside the window's own).
    void watchedRead(const QString& server, const QList<delayq::ui::OverviewRow>& rows);
    void watchedUnreachable(const QString& server, const QString& reason);
    void watchEnded(const QString& server);
    // The changes of one reading, notified or not (for the status bar, and for tests).
    void changed(const QList<delayq::ui::AlertChange>& changes);

private:
    void handle(const QList<AlertChange>& changes);
    void rebuildWatchMenu();
    void startWatch(const QString& profile);
    void watch(const QString& profile, const ConnectionSettings& settings);
    bool enabled() const;

    std::function<bool()> m_away;
    AlertRules m_rules;
    DesktopNotifier* m_notifier;
    QSystemTrayIcon* m_tray = nullptr;
    QMenu* m_menu;
    QMenu* m_watchMenu;
    QAction* m_enabled;
    QString m_ownServer;
    QHash<QString, QPointer<ServerWatch>> m_watches;
    // Conditions whose start was notified: only those get a "back to normal".
    QSet<QString> m_notified;
};

} // namespace delayq::ui
