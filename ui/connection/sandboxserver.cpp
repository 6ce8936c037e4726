#include "connection/sandboxserver.h"

#include <delayq/connection.h>

#include <QElapsedTimer>
#include <QTcpServer>
#include <QThread>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#endif

namespace delayq::ui {

namespace {

int freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

} // namespace

SandboxServer::SandboxServer() = default;

SandboxServer::~SandboxServer()
{
    stop();
}

QString SandboxServer::url() const
{
    return QStringLiteral("redis://127.0.0.1:%1").arg(m_port);
}

bool SandboxServer::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

bool SandboxServer::start()
{
    stop();
    // Made here, not with the object: the app holds a SandboxServer whether or not it runs
    // one, and an app that is killed would leave an empty folder in /tmp at every start.
    if (!m_dir)
        m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid()) {
        m_error = QStringLiteral("cannot create a temporary folder for the sandbox");
        return false;
    }
    m_port = freePort();
    if (m_port == 0) {
        m_error = QStringLiteral("no free loopback port for the sandbox");
        return false;
    }
    const QStringList args{QStringLiteral("--port"),
                           QString::number(m_port),
                           QStringLiteral("--bind"),
                           QStringLiteral("127.0.0.1"),
                           QStringLiteral("--dir"),
                           m_dir->path(),
                           QStringLiteral("--save"),
                           QString(),
                           QStringLiteral("--appendonly"),
                           QStringLiteral("no"),
                           QStringLiteral("--daemonize"),
                           QStringLiteral("no"),
                           QStringLiteral("--protected-mode"),
                           QStringLiteral("yes"),
                           QStringLiteral("--loglevel"),
                           QStringLiteral("warning")};
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process->setStandardOutputFile(m_dir->filePath(QStringLiteral("redis.log")));
#ifdef Q_OS_LINUX
    // Should the app crash, the kernel stops the sandbox server with it.
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
#endif
    m_process->start(QStringLiteral("redis-server"), args);
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("cannot start redis-server (is the redis-server package "
                                 "installed? scripts/setup installs it): ") +
                  m_process->errorString();
        m_process.reset();
        return false;
    }
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 10000) {
        if (m_process->state() != QProcess::Running) {
            m_error = QStringLiteral("redis-server exited at once; see %1")
                          .arg(m_dir->filePath(QStringLiteral("redis.log")));
            return false;
        }
        try {
            delayq::Connection probe(delayq::ConnectionOptions::fromUrl(url().toStdString()));
            probe.ping();
            return true;
        } catch (const delayq::Error&) {
            QThread::msleep(20);
        }
    }
    m_error = QStringLiteral("the sandbox redis-server did not answer within 10 s");
    stop();
    return false;
}

void SandboxServer::stop()
{
    if (!m_process)
        return;
    if (m_process->state() == QProcess::Running) {
        m_process->terminate();
        if (!m_process->waitForFinished(5000)) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
    m_process.reset();
}

} // namespace delayq::ui
