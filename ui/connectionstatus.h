#pragma once

#include "admintypes.h"

#include <QLabel>

namespace delayq::ui {

// The status bar's connection field: server, version, round trip and clock offset, or a
// red "disconnected" with the reason while the client retries.
class ConnectionStatus : public QLabel
{
    Q_OBJECT

public:
    explicit ConnectionStatus(QWidget* parent = nullptr);

    void setConnected(const ServerInfo& info);
    void setStatus(const ServerInfo& info);
    void setDisconnected(const QString& reason);
    bool isUp() const { return m_up; }

private:
    void render();

    ServerInfo m_info;
    bool m_up = false;
};

} // namespace delayq::ui
