#pragma once

#include "client/connectiontypes.h"

#include <QDateTime>
#include <QFrame>
#include <QList>
#include <QPointer>

class QLabel;
class QPushButton;

namespace delayq::ui {

class AdminClient;

// A banner over the pages while the window is not connected: why (the core's cause), whether
// the app retries, a Connect… button, and, when figures of a server are still on screen,
// which server they are from and since when they are not live. The views showing them are
// disabled meanwhile, so nothing left over from an old server or an outage passes for live.
class ConnectionNotice : public QFrame
{
    Q_OBJECT

public:
    explicit ConnectionNotice(AdminClient* client, QWidget* parent = nullptr);

    // The views whose figures come from the server (disabled while not live).
    void setViews(const QList<QWidget*>& views);
    QString text() const;
    QPushButton* connectButton() const { return m_connect; }
    // The figures on screen are not live (a switch of server or a lost connection).
    bool isStale() const { return m_stale; }

signals:
    void connectRequested();

private:
    void onConnecting(const QString& displayUrl);
    void onConnected(const ServerInfo& info);
    void onDisconnected(const QString& reason, bool retrying);
    void onUnanswered(qint64 waitedMs);
    void onAnswered();
    void markStale();
    void showLine(const QString& line);

    QLabel* m_text;
    QPushButton* m_connect;
    QList<QPointer<QWidget>> m_views;
    QString m_figuresFrom; // the server the figures on screen come from ("" when none)
    QDateTime m_liveUntil; // when they were last live
    bool m_stale = false;
};

} // namespace delayq::ui
