#include "redisserver.h"

#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTcpServer>
#include <QThread>

#include <csignal>

int RedisServer::freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

QString RedisServer::missingTools()
{
    // Looked up the way QProcess looks them up when it starts them by name: on PATH.
    QStringList missing;
    for (const char* tool : {"redis-server", "redis-cli"})
        if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
            missing << QString::fromLatin1(tool);
    if (missing.isEmpty())
        return {};
    return missing.join(QLatin1String(" and ")) +
           QStringLiteral(" not found on PATH: this suite runs its own Redis server (install the "
                          "Debian packages redis-server and redis-tools, or run scripts/setup)");
}

RedisServer::RedisServer() = default;

RedisServer::~RedisServer()
{
    stop();
}

QString RedisServer::socketPath() const
{
    return m_dir.filePath(QStringLiteral("redis.sock"));
}

std::string RedisServer::tcpUrl() const
{
    return "redis://127.0.0.1:" + std::to_string(m_port);
}

void RedisServer::setTls(const TlsFiles& files)
{
    if (m_tlsPort == 0)
        m_tlsPort = freePort();
    m_tlsArgs = QStringList{QStringLiteral("--tls-port"),
                            QString::number(m_tlsPort),
                            QStringLiteral("--tls-cert-file"),
                            files.cert,
                            QStringLiteral("--tls-key-file"),
                            files.key,
                            QStringLiteral("--tls-ca-cert-file"),
                            files.ca,
                            QStringLiteral("--tls-auth-clients"),
                            files.authClients ? QStringLiteral("yes") : QStringLiteral("no")};
}

std::string RedisServer::tlsUrl(const std::string& query) const
{
    return "rediss://127.0.0.1:" + std::to_string(m_tlsPort) + "/0" + query;
}

std::string RedisServer::unixUrl() const
{
    return "unix://" + socketPath().toStdString();
}

bool RedisServer::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

bool RedisServer::start(const QStringList& extraArgs)
{
    stop();
    if (!extraArgs.isEmpty())
        m_extraArgs = extraArgs;
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("cannot create a temporary folder");
        return false;
    }
    // Keep the port across restarts, so clients reconnect to the same address.
    if (m_port == 0)
        m_port = freePort();
    QStringList args{QStringLiteral("--port"), QString::number(m_port), QStringLiteral("--bind"),
                     QStringLiteral("127.0.0.1"), QStringLiteral("--unixsocket"), socketPath(),
                     QStringLiteral("--dir"), m_dir.path(), QStringLiteral("--save"), QString(),
                     QStringLiteral("--daemonize"), QStringLiteral("no"),
                     QStringLiteral("--protected-mode"), QStringLiteral("no"),
                     QStringLiteral("--loglevel"), QStringLiteral("warning"),
                     // Tests compare DEBUG DIGEST before and after a refusal, and stall the
                     // server with DEBUG SLEEP; Redis 7 disables DEBUG unless told.
                     QStringLiteral("--enable-debug-command"), QStringLiteral("local")};
    args << m_tlsArgs << m_extraArgs;
    if (!m_configFile.isEmpty())
        args.prepend(m_configFile); // redis-server takes it only as the first argument
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->start(QStringLiteral("redis-server"), args);
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("redis-server did not start: ") + m_process->errorString();
        return false;
    }
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 10000) {
        if (cli({QStringLiteral("PING")}).trimmed() == "PONG")
            return true;
        if (m_process->state() != QProcess::Running) {
            m_error = QStringLiteral("redis-server exited: ") +
                      QString::fromLocal8Bit(m_process->readAll());
            return false;
        }
        QThread::msleep(20);
    }
    m_error = QStringLiteral("redis-server did not answer PING within 10 s");
    return false;
}

void RedisServer::stop()
{
    if (!m_process)
        return;
    if (m_process->state() == QProcess::Running) {
        thaw();
        m_process->terminate();
        if (!m_process->waitForFinished(5000)) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
    m_process.reset();
}

void RedisServer::crash()
{
    if (!m_process)
        return;
    if (m_process->state() == QProcess::Running) {
        m_process->kill();
        m_process->waitForFinished(5000);
    }
    m_process.reset();
}

void RedisServer::freeze()
{
    if (isRunning())
        ::kill(static_cast<pid_t>(m_process->processId()), SIGSTOP);
}

void RedisServer::thaw()
{
    if (isRunning())
        ::kill(static_cast<pid_t>(m_process->processId()), SIGCONT);
}

QByteArray RedisServer::cli(const QStringList& args) const
{
    QProcess p;
    p.start(QStringLiteral("redis-cli"), QStringList{QStringLiteral("-s"), socketPath()} + args);
    if (!p.waitForFinished(10000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return p.readAllStandardOutput();
}
