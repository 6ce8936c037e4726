#pragma once

#include "client/connectiontypes.h"

#include <QLabel>

namespace delayq::ui {

// The status bar's connection field: server, version, round trip and clock offset, or in
// red why the server is not connected and whether the client retries.
class ConnectionStatus : public QLabel
{
    Q_OBJECT

public:
    explicit ConnectionStatus(QWidget* parent = nullptr);

    void setConnected(const ServerInfo& info);
    void setStatus(const ServerInfo& info);
    // reason names the cause; retrying: the client tries again every 2 s, else it stopped
    // (retrying cannot fix it) until the operator connects anew.
    void setDisconnected(const QString& reason, bool retrying = true);
    // Not connected until the server displayUrl ("" while not known yet) answers; its first
    // master is no failover.
    void setConnecting(const QString& displayUrl);
    // Connected, but the request in flight has waited waitedMs for an answer; setAnswered
    // goes back to the connected line.
    void setUnanswered(qint64 waitedMs);
    void setAnswered();
    bool isUp() const { return m_up; }

signals:
    // Through Sentinel: a status named another master than the one seen before.
    void masterChanged(const QString& group, const QString& address);

private:
    void render();
    void noticeMaster();

    ServerInfo m_info;
    QString m_master; // through Sentinel: the master last seen
    bool m_up = false;
};

} // namespace delayq::ui
