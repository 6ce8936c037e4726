#include "connection/transportfields.h"

#include "connection/tlsfields.h"
#include <delayq/connectionoptions.h>
#include <delayq/error.h>

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace delayq::ui {

namespace {

constexpr int kSingleServer = 0;
constexpr int kSentinel = 1;
constexpr int kCluster = 2;

int modeOf(const delayq::ConnectionOptions& o)
{
    return o.sentinel.enabled() ? kSentinel : o.cluster.enabled() ? kCluster : kSingleServer;
}

// The rest of the URL kept, the form switched: the host of the first sentinel or node becomes
// the server, or the server's the first sentinel or node (default ports: the user adds the
// others).
void switchMode(delayq::ConnectionOptions& o, int mode)
{
    if (mode == modeOf(o))
        return;
    std::string host = o.unixSocket.empty() ? o.host : std::string("127.0.0.1");
    int port = o.port;
    if (o.sentinel.enabled()) {
        host = o.sentinel.nodes.front().host;
        port = 6379;
    } else if (o.cluster.enabled()) {
        host = o.cluster.seeds.front().host;
        port = o.cluster.seeds.front().port;
    }
    o.unixSocket.clear();
    o.sentinel = {};
    o.cluster = {};
    o.host = host;
    o.port = port;
    if (mode == kSentinel) {
        o.sentinel.nodes = {{host, 26379}};
        o.sentinel.masterName = "mymaster";
    } else if (mode == kCluster) {
        o.cluster.seeds = {{host, port}};
        o.db = 0; // a cluster has only database 0
    }
}

} // namespace

TransportFields::TransportFields(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_mode = new QComboBox(this);
    m_mode->addItem(tr("Single server"));
    m_mode->addItem(tr("Sentinel group (redis+sentinel://)"));
    m_mode->addItem(tr("Redis Cluster (redis+cluster://)"));
    m_mode->setToolTip(tr("Through Sentinel the URL lists the sentinels and the master's name: "
                          "redis+sentinel://s1:26379,s2:26379/mymaster/0. A cluster lists a few "
                          "of its nodes: redis+cluster://n1:7001,n2:7002 (a redis:// URL to "
                          "any node of a cluster works too)."));
    m_sentinelPassword = new QLineEdit(this);
    m_sentinelPassword->setEchoMode(QLineEdit::Password);
    m_sentinelPassword->setPlaceholderText(
        tr("only when the sentinels have a password of their own; this session only"));
    m_sentinelLabel = new QLabel(tr("Sentinel password"), this);
    m_tls = new TlsFields(this);
    layout->addWidget(m_tls);
    connect(m_mode, &QComboBox::activated, this, [this] {
        updateRows();
        emit edited();
    });
    connect(m_tls, &TlsFields::edited, this, &TransportFields::edited);
    updateRows();
}

void TransportFields::addModeRow(QFormLayout* form)
{
    form->addRow(tr("&Mode"), m_mode);
}

void TransportFields::addSentinelPasswordRow(QFormLayout* form)
{
    form->addRow(m_sentinelLabel, m_sentinelPassword);
}

void TransportFields::showUrl(const QString& url)
{
    delayq::ConnectionOptions o;
    try {
        o = delayq::ConnectionOptions::fromUrl(url.trimmed().toStdString());
    } catch (const delayq::Error&) {
        return;
    }
    const QSignalBlocker block(m_mode);
    m_mode->setCurrentIndex(modeOf(o));
    m_tls->showOptions(o.tls);
    updateRows();
}

QString TransportFields::applyTo(const QString& url) const
{
    delayq::ConnectionOptions o;
    try {
        o = delayq::ConnectionOptions::fromUrl(url.trimmed().toStdString());
    } catch (const delayq::Error&) {
        return {};
    }
    switchMode(o, m_mode->currentIndex());
    o.tls = m_tls->options();
    return QString::fromStdString(o.urlWithoutPassword());
}

bool TransportFields::validate()
{
    return m_tls->validate();
}

QString TransportFields::sentinelPassword() const
{
    return m_mode->currentIndex() == kSentinel ? m_sentinelPassword->text() : QString();
}

QString TransportFields::keyPassphrase() const
{
    return m_tls->passphraseEdit()->text();
}

void TransportFields::updateRows()
{
    const bool sentinel = m_mode->currentIndex() == kSentinel;
    m_sentinelLabel->setVisible(sentinel);
    m_sentinelPassword->setVisible(sentinel);
}

} // namespace delayq::ui
