#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QSet>
#include <QString>
#include <QTemporaryDir>

// The HTTP endpoint of tst_webhookdelivery: webhookserver.py (next to this file) on a free
// loopback port, started by the suite and killed when this goes (also when a test fails; and
// the script itself exits once its stdin closes, if the suite dies). What it answers is chosen
// by the path of the URL a test hands to `delayq work --handler` (see the script).
class WebhookEndpoint
{
public:
    // secret: the key the server checks signatures with (WEBHOOK_SECRET); cert and key: serve
    // https:// with them.
    explicit WebhookEndpoint(const QByteArray& secret, const QString& cert = {},
                             const QString& key = {});
    ~WebhookEndpoint();
    WebhookEndpoint(const WebhookEndpoint&) = delete;
    WebhookEndpoint& operator=(const WebhookEndpoint&) = delete;

    // Waits up to 10 s for it to listen; false with the reason in errorString().
    bool start();
    QString errorString() const { return m_error; }
    int port() const { return m_port; }
    // http://127.0.0.1:PORT + path (https:// when it serves TLS).
    QString url(const QString& path) const;

    // Every request received since the last clear(), oldest first (see the script's record).
    QList<QJsonObject> requests() const;
    // The distinct client ports (TCP connections) of those requests.
    QSet<int> connections() const;
    void clear();

private:
    QProcess m_process;
    QTemporaryDir m_dir;
    QString m_cert;
    QString m_key;
    QString m_error;
    int m_port = 0;
};
