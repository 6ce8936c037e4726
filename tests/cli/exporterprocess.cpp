#include "exporterprocess.h"

#include <QDeadlineTimer>
#include <QDebug>
#include <QRegularExpression>
#include <QTcpSocket>

#include <csignal>

ExporterProcess::~ExporterProcess()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished();
    }
}

bool ExporterProcess::start(const QStringList& args)
{
    m_process = m_cli.start(QStringList{"exporter", "--listen", "127.0.0.1:0"} + args);
    const QRegularExpression url(QStringLiteral("http://127\\.0\\.0\\.1:(\\d+)/metrics"));
    QByteArray err;
    QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired() && m_process->state() != QProcess::NotRunning) {
        m_process->waitForReadyRead(100);
        err += m_process->readAllStandardError();
        const auto match = url.match(QString::fromUtf8(err));
        if (match.hasMatch()) {
            m_port = static_cast<quint16>(match.captured(1).toUInt());
            return true;
        }
    }
    qWarning() << "the exporter did not start:" << err << m_process->readAllStandardError();
    return false;
}

HttpReply ExporterProcess::request(const QByteArray& raw) const
{
    HttpReply reply;
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), m_port);
    if (!socket.waitForConnected(5000))
        return reply;
    socket.write(raw);
    const QByteArray all = readUntilClosed(socket, 10000);
    reply.closed = socket.state() != QAbstractSocket::ConnectedState;
    const qsizetype split = all.indexOf("\r\n\r\n");
    reply.head = split < 0 ? all : all.left(split);
    reply.body = split < 0 ? QByteArray() : all.mid(split + 4);
    const QList<QByteArray> statusLine = reply.head.split(' ');
    if (statusLine.size() > 1 && statusLine[0].startsWith("HTTP/"))
        reply.status = statusLine[1].toInt();
    return reply;
}

HttpReply ExporterProcess::get(const QByteArray& path) const
{
    return request("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
}

QMap<QString, double> ExporterProcess::metrics() const
{
    const HttpReply reply = get("/metrics");
    if (reply.status != 200)
        qWarning() << "GET /metrics:" << reply.head << reply.body;
    return parseMetrics(reply.body);
}

QMap<QString, double> ExporterProcess::parseMetrics(const QByteArray& text)
{
    QMap<QString, double> out;
    for (const QByteArray& line : text.split('\n')) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype space = line.lastIndexOf(' ');
        out.insert(QString::fromUtf8(line.left(space)), line.mid(space + 1).toDouble());
    }
    return out;
}

int ExporterProcess::stop(int signal)
{
    ::kill(static_cast<pid_t>(m_process->processId()), signal);
    if (!m_process->waitForFinished(10000)) {
        m_process->kill();
        m_process->waitForFinished();
        return -1;
    }
    return m_process->exitStatus() == QProcess::NormalExit ? m_process->exitCode() : -1;
}
