#include "connection/connectionstatus.h"

namespace delayq::ui {

ConnectionStatus::ConnectionStatus(QWidget* parent) : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    // A long cause is cut by the bar, not allowed to widen the window (the tooltip has it).
    setMinimumWidth(1);
    setText(tr("Not connected"));
    setStyleSheet(QStringLiteral("color: white; background: #c0392b; padding: 1px 6px;"));
}

void ConnectionStatus::setConnected(const ServerInfo& info)
{
    m_info = info;
    m_up = true;
    render();
    noticeMaster();
}

void ConnectionStatus::setStatus(const ServerInfo& info)
{
    const QString version = m_info.version;
    m_info = info;
    m_info.version = version;
    m_up = true;
    render();
    noticeMaster();
}

void ConnectionStatus::setDisconnected(const QString& reason, bool retrying)
{
    m_up = false;
    setStyleSheet(QStringLiteral("color: white; background: #c0392b; padding: 1px 6px;"));
    // The reason is plain text from the server or the core: cut for the bar, whole in the tip.
    const QString shown = reason.left(240);
    setText(retrying ? tr("Disconnected: %1 — retrying every 2 s").arg(shown)
                     : tr("Not connected: %1 — retrying cannot fix this: change the settings "
                          "in Connect…")
                           .arg(shown));
    setToolTip(reason);
}

void ConnectionStatus::setConnecting(const QString& displayUrl)
{
    m_up = false;
    m_master.clear();
    setStyleSheet(QStringLiteral("color: white; background: #7f8c8d; padding: 1px 6px;"));
    setText(displayUrl.isEmpty() ? tr("Connecting…") : tr("Connecting to %1…").arg(displayUrl));
    setToolTip({});
}

void ConnectionStatus::setUnanswered(qint64 waitedMs)
{
    setStyleSheet(QStringLiteral("color: white; background: #d35400; padding: 1px 6px;"));
    setText(tr("No answer from %1 for %2 s — reconnecting…")
                .arg(m_info.displayUrl)
                .arg(QString::number(waitedMs / 1000.0, 'f', 1)));
    setToolTip(tr("The server or the network in between has not answered the last request. "
                  "The app gives up on it after 4 s, then reconnects every 2 s."));
}

void ConnectionStatus::setAnswered()
{
    if (m_up)
        render();
}

void ConnectionStatus::noticeMaster()
{
    if (m_info.sentinelGroup.isEmpty() || m_info.serverAddress == m_master)
        return;
    const bool first = m_master.isEmpty();
    m_master = m_info.serverAddress;
    if (!first)
        emit masterChanged(m_info.sentinelGroup, m_info.serverAddress);
}

void ConnectionStatus::render()
{
    const double rttMs = static_cast<double>(m_info.rttUs) / 1000.0;
    // Through Sentinel the URL names the sentinels: the master reached is what matters.
    const QString where =
        m_info.sentinelGroup.isEmpty()
            ? m_info.displayUrl
            : tr("master %1 of %2").arg(m_info.serverAddress, m_info.sentinelGroup);
    QString text = tr("%1 · Redis %2 · round trip %3 ms · server clock %4%5 ms")
                       .arg(where, m_info.version)
                       .arg(rttMs, 0, 'f', 2)
                       .arg(m_info.clockOffsetMs >= 0 ? QStringLiteral("+") : QString())
                       .arg(m_info.clockOffsetMs);
    if (m_info.clusterMasters > 0)
        text += m_info.clusterMasters == 1
                    ? tr(" · cluster: 1 master")
                    : tr(" · cluster: %1 masters").arg(m_info.clusterMasters);
    if (!m_info.security.isEmpty())
        text += QStringLiteral(" · ") + m_info.security;
    if (m_info.readOnly)
        text += tr(" · read-only");
    QString tip = tr("Server clock minus this machine's clock: times in scripts use the server's");
    if (m_info.tlsInsecure) {
        // Loud on purpose: encrypted, but nobody checked who is at the other end.
        text = tr("TLS NOT VERIFIED · ") + text;
        setStyleSheet(QStringLiteral("color: white; background: #d35400; padding: 1px 6px;"));
        tip = tr("The server's certificate is not checked (insecure=1): anyone between this "
                 "machine and Redis can read and change the traffic.");
    } else {
        setStyleSheet(QString());
    }
    setText(text);
    setToolTip(tip);
}

} // namespace delayq::ui
