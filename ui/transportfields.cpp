#include "transportfields.h"

#include "tlsfields.h"
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

// The rest of the URL kept, the form switched: the first sentinel's host becomes the server,
// or the server's host the first sentinel (default ports: the user adds the others).
void switchMode(delayq::ConnectionOptions& o, bool sentinel)
{
    if (sentinel && !o.sentinel.enabled()) {
        o.sentinel.nodes = {{o.unixSocket.empty() ? o.host : std::string("127.0.0.1"), 26379}};
        o.sentinel.masterName = "mymaster";
        o.unixSocket.clear();
    } else if (!sentinel && o.sentinel.enabled()) {
        o.host = o.sentinel.nodes.front().host;
        o.port = 6379;
        o.sentinel = {};
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
    m_mode->setToolTip(tr("Through Sentinel the URL lists the sentinels and the master's name: "
                          "redis+sentinel://s1:26379,s2:26379/mymaster/0"));
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
    m_mode->setCurrentIndex(o.sentinel.enabled() ? kSentinel : kSingleServer);
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
    switchMode(o, m_mode->currentIndex() == kSentinel);
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
