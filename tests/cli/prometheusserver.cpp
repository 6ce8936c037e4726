#include "prometheusserver.h"

#include "clirunner.h"
#include "redisserver.h"

#include <QDeadlineTimer>
#include <QDebug>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QThread>
#include <QUrl>

PrometheusServer::~PrometheusServer()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished();
    }
}

QString PrometheusServer::prometheusBinary()
{
    return QStandardPaths::findExecutable(QStringLiteral("prometheus"));
}

QString PrometheusServer::promtoolBinary()
{
    return QStandardPaths::findExecutable(QStringLiteral("promtool"));
}

bool PrometheusServer::start(quint16 targetPort)
{
    const QString config = m_dir.filePath(QStringLiteral("prometheus.yml"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
               "scrape_configs:\n  - job_name: delayq\n    static_configs:\n"
               "      - targets: ['127.0.0.1:" +
               QByteArray::number(targetPort) + "']\n");
    file.close();
    m_port = static_cast<quint16>(RedisServer::freePort());
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.start(prometheusBinary(),
                    {"--config.file=" + config, "--storage.tsdb.path=" + m_dir.filePath("data"),
                     "--web.listen-address=127.0.0.1:" + QString::number(m_port)});
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired() && m_process.state() != QProcess::NotRunning) {
        const QByteArray ready = httpGet("/-/ready");
        if (ready.startsWith("HTTP/") && ready.left(ready.indexOf('\n')).contains(" 200 "))
            return true;
        QThread::msleep(100);
    }
    qWarning() << "prometheus did not start:" << m_process.readAll();
    return false;
}

QByteArray PrometheusServer::httpGet(const QByteArray& pathAndQuery) const
{
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), m_port);
    if (!socket.waitForConnected(1000))
        return {};
    socket.write("GET " + pathAndQuery + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    return readUntilClosed(socket, 5000);
}

std::optional<double> PrometheusServer::query(const QString& promql) const
{
    const QByteArray reply = httpGet("/api/v1/query?query=" + QUrl::toPercentEncoding(promql));
    const auto doc = QJsonDocument::fromJson(reply.mid(reply.indexOf("\r\n\r\n") + 4));
    const QJsonArray result = doc.object().value("data").toObject().value("result").toArray();
    if (result.isEmpty())
        return std::nullopt;
    // "value": [time, "text"]: Prometheus writes sample values as strings.
    return result.at(0).toObject().value("value").toArray().at(1).toString().toDouble();
}
