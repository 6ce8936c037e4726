#include "webhookendpoint.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonDocument>

WebhookEndpoint::WebhookEndpoint(const QByteArray& secret, const QString& cert, const QString& key)
    : m_cert(cert), m_key(key)
{
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("WEBHOOK_SECRET"), QString::fromLatin1(secret));
    m_process.setProcessEnvironment(env);
    m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
}

WebhookEndpoint::~WebhookEndpoint()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.closeWriteChannel(); // the script exits on its own
    if (!m_process.waitForFinished(3000)) {
        m_process.kill();
        m_process.waitForFinished(3000);
    }
}

bool WebhookEndpoint::start()
{
    QStringList args{QStringLiteral(WEBHOOK_SERVER_SCRIPT), m_dir.filePath(QStringLiteral("log"))};
    if (!m_cert.isEmpty())
        args << QStringLiteral("--tls") << m_cert << m_key;
    m_process.start(QStringLiteral("python3"), args);
    if (!m_process.waitForStarted(10000)) {
        m_error = QStringLiteral("python3 did not start: ") + m_process.errorString();
        return false;
    }
    QDeadlineTimer deadline(10000);
    while (!m_process.canReadLine() && !deadline.hasExpired() &&
           m_process.state() == QProcess::Running)
        m_process.waitForReadyRead(100);
    const QJsonObject hello = QJsonDocument::fromJson(m_process.readLine()).object();
    m_port = hello.value(QStringLiteral("port")).toInt();
    if (m_port <= 0)
        m_error = QStringLiteral("webhookserver.py did not say its port");
    return m_port > 0;
}

QString WebhookEndpoint::url(const QString& path) const
{
    const QString scheme = m_cert.isEmpty() ? QStringLiteral("http") : QStringLiteral("https");
    return scheme + QStringLiteral("://127.0.0.1:") + QString::number(m_port) + path;
}

QList<QJsonObject> WebhookEndpoint::requests() const
{
    QList<QJsonObject> out;
    QFile f(m_dir.filePath(QStringLiteral("log")));
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.endsWith('}')) // a line still being written is left for the next look
            out << QJsonDocument::fromJson(line).object();
    return out;
}

QSet<int> WebhookEndpoint::connections() const
{
    QSet<int> ports;
    for (const QJsonObject& r : requests())
        ports.insert(r.value(QStringLiteral("port")).toInt());
    return ports;
}

void WebhookEndpoint::clear()
{
    QFile(m_dir.filePath(QStringLiteral("log"))).resize(0);
}
