#include "connection/connectionnotice.h"

#include "client/adminclient.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace delayq::ui {

ConnectionNotice::ConnectionNotice(AdminClient* client, QWidget* parent)
    : QFrame(parent), m_text(new QLabel(this)), m_connect(new QPushButton(tr("Connect…"), this))
{
    setObjectName(QStringLiteral("connectionnotice"));
    setStyleSheet(QStringLiteral("#connectionnotice { background: #f8d7da; }"
                                 "#connectionnotice QLabel { color: #58151c; }"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText); // the cause may quote the server
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_connect, 0, Qt::AlignTop);
    connect(m_connect, &QPushButton::clicked, this, &ConnectionNotice::connectRequested);
    connect(client, &AdminClient::connecting, this, &ConnectionNotice::onConnecting);
    connect(client, &AdminClient::connected, this, &ConnectionNotice::onConnected);
    connect(client, &AdminClient::disconnected, this, &ConnectionNotice::onDisconnected);
    connect(client, &AdminClient::unanswered, this, &ConnectionNotice::onUnanswered);
    connect(client, &AdminClient::answered, this, &ConnectionNotice::onAnswered);
    hide();
}

void ConnectionNotice::setViews(const QList<QWidget*>& views)
{
    m_views.clear();
    for (QWidget* view : views)
        m_views.append(view);
}

QString ConnectionNotice::text() const
{
    return m_text->text();
}

void ConnectionNotice::onConnecting(const QString& displayUrl)
{
    // Quiet for a first connection: nothing on screen could pass for live yet.
    if (m_figuresFrom.isEmpty())
        return;
    markStale();
    showLine(tr("Connecting to %1…").arg(displayUrl));
}

void ConnectionNotice::onConnected(const ServerInfo& info)
{
    m_figuresFrom = info.displayUrl;
    m_stale = false;
    for (const auto& view : m_views)
        if (view)
            view->setEnabled(true);
    hide();
}

void ConnectionNotice::onDisconnected(const QString& reason, bool retrying)
{
    markStale();
    showLine(retrying ? tr("Disconnected: %1 — retrying every 2 s").arg(reason)
                      : tr("Not connected: %1 — retrying cannot fix this: change the URL, "
                           "user, password or TLS settings in Connect…")
                            .arg(reason));
}

// Figures cannot be refreshed while a request hangs: said as soon as the status bar says it,
// not only once the request times out.
void ConnectionNotice::onUnanswered(qint64 waitedMs)
{
    markStale();
    showLine(tr("%1 has not answered for %2 s — reconnecting…")
                 .arg(m_figuresFrom.isEmpty() ? tr("The server") : m_figuresFrom)
                 .arg(QString::number(waitedMs / 1000.0, 'f', 1)));
}

void ConnectionNotice::onAnswered()
{
    m_stale = false;
    for (const auto& view : m_views)
        if (view)
            view->setEnabled(true);
    hide();
}

void ConnectionNotice::markStale()
{
    if (m_stale || m_figuresFrom.isEmpty())
        return;
    m_stale = true;
    m_liveUntil = QDateTime::currentDateTime();
    for (const auto& view : m_views)
        if (view)
            view->setEnabled(false);
}

void ConnectionNotice::showLine(const QString& line)
{
    QString text = line;
    if (m_stale)
        text += QLatin1Char('\n') +
                tr("The figures shown are from %1 as of %2 and are not live.")
                    .arg(m_figuresFrom, m_liveUntil.toString(QStringLiteral("HH:mm:ss")));
    m_text->setText(text);
    show();
}

} // namespace delayq::ui
