#include "connectionstatus.h"

namespace delayq::ui {

ConnectionStatus::ConnectionStatus(QWidget* parent) : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setDisconnected(tr("not connected"));
}

void ConnectionStatus::setConnected(const ServerInfo& info)
{
    m_info = info;
    m_up = true;
    render();
}

void ConnectionStatus::setStatus(const ServerInfo& info)
{
    const QString version = m_info.version;
    m_info = info;
    m_info.version = version;
    m_up = true;
    render();
}

void ConnectionStatus::setDisconnected(const QString& reason)
{
    m_up = false;
    setStyleSheet(QStringLiteral("color: white; background: #c0392b; padding: 1px 6px;"));
    setText(tr("Disconnected: %1 (reconnecting…)").arg(reason.left(160)));
    setToolTip({});
}

void ConnectionStatus::render()
{
    setStyleSheet(QString());
    const double rttMs = static_cast<double>(m_info.rttUs) / 1000.0;
    QString text = tr("%1 · Redis %2 · round trip %3 ms · server clock %4%5 ms")
                       .arg(m_info.displayUrl, m_info.version)
                       .arg(rttMs, 0, 'f', 2)
                       .arg(m_info.clockOffsetMs >= 0 ? QStringLiteral("+") : QString())
                       .arg(m_info.clockOffsetMs);
    if (m_info.readOnly)
        text += tr(" · read-only");
    setText(text);
    setToolTip(tr("Server clock minus this machine's clock: times in scripts use the server's"));
}

} // namespace delayq::ui
