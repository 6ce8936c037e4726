#include "rabbitnode.h"

#include "redisserver.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QThread>

#include <csignal>
#include <ftw.h>
#include <pwd.h>
#include <unistd.h>

namespace {

const char* const kScripts = "/usr/lib/rabbitmq/bin/";
uid_t g_uid = 0;
gid_t g_gid = 0;

int chownEntry(const char* path, const struct stat*, int, struct FTW*)
{
    return ::lchown(path, g_uid, g_gid) == 0 ? 0 : -1;
}

} // namespace

QString RabbitNode::missingTools()
{
    if (!QFileInfo::exists(QString::fromLatin1(kScripts) + QStringLiteral("rabbitmq-server")))
        return QStringLiteral("rabbitmq-server not found in /usr/lib/rabbitmq/bin: this suite runs "
                              "its own RabbitMQ node (install the Debian package rabbitmq-server, "
                              "or run scripts/setup)");
    if (::geteuid() == 0 && ::getpwnam("rabbitmq") == nullptr)
        return QStringLiteral("no rabbitmq user to run the node as (the rabbitmq-server package "
                              "creates it)");
    return {};
}

RabbitNode::RabbitNode()
    : m_nodeName(QStringLiteral("delayqtest%1x%2@localhost")
                     .arg(::getpid())
                     .arg(reinterpret_cast<quintptr>(this) % 100000))
{}

RabbitNode::~RabbitNode()
{
    stop();
}

std::string RabbitNode::url(const std::string& query, const std::string& vhost) const
{
    return "amqp://guest:guest@127.0.0.1:" + std::to_string(m_port) + "/" + vhost +
           (query.empty() ? "" : "?" + query);
}

void RabbitNode::setTls(const QString& cert, const QString& key, const QString& ca)
{
    m_tlsFiles = QStringList{cert, key, ca};
    if (m_tlsPort == 0)
        m_tlsPort = RedisServer::freePort();
}

QString RabbitNode::tlsConfig()
{
    if (m_tlsFiles.isEmpty())
        return {};
    const QDir dir(m_dir.path());
    const QStringList names{QStringLiteral("server.crt"), QStringLiteral("server.key"),
                            QStringLiteral("ca.crt")};
    for (int i = 0; i < 3; ++i) {
        QFile::remove(dir.filePath(names[i]));
        if (!QFile::copy(m_tlsFiles[i], dir.filePath(names[i])))
            return {};
    }
    return QStringLiteral("listeners.ssl.default = 127.0.0.1:%1\n"
                          "ssl_options.certfile = %2\n"
                          "ssl_options.keyfile = %3\n"
                          "ssl_options.cacertfile = %4\n"
                          "ssl_options.verify = verify_none\n"
                          "ssl_options.fail_if_no_peer_cert = false\n")
        .arg(m_tlsPort)
        .arg(dir.filePath(names[0]), dir.filePath(names[1]), dir.filePath(names[2]));
}

bool RabbitNode::prepareFolder()
{
    if (m_prepared)
        return true;
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("cannot create a temporary folder");
        return false;
    }
    m_port = RedisServer::freePort();
    m_distPort = RedisServer::freePort();
    m_epmdPort = RedisServer::freePort();
    const QDir dir(m_dir.path());
    for (const char* sub : {"mnesia", "log", "home"})
        dir.mkpath(QString::fromLatin1(sub));
    // Only what the tests need: loopback, no plugins, no disk alarm in a small /tmp, quiet logs.
    QFile conf(dir.filePath(QStringLiteral("rabbitmq.conf")));
    if (!conf.open(QIODevice::WriteOnly))
        return false;
    conf.write(QStringLiteral("listeners.tcp.1 = 127.0.0.1:%1\n"
                              "disk_free_limit.absolute = 1MB\n"
                              "vm_memory_high_watermark.relative = 0.4\n"
                              "log.file.level = warning\n"
                              "log.console = false\n")
                   .arg(m_port)
                   .toLatin1() +
               tlsConfig().toLatin1());
    conf.close();
    QFile plugins(dir.filePath(QStringLiteral("enabled_plugins")));
    if (!plugins.open(QIODevice::WriteOnly))
        return false;
    plugins.write("[].\n");
    plugins.close();
    if (::geteuid() == 0) {
        const passwd* user = ::getpwnam("rabbitmq");
        g_uid = user->pw_uid;
        g_gid = user->pw_gid;
        if (::nftw(m_dir.path().toLocal8Bit().constData(), chownEntry, 16, FTW_PHYS) != 0) {
            m_error = QStringLiteral("cannot hand the node's folder to the rabbitmq user");
            return false;
        }
    }
    m_prepared = true;
    return true;
}

QProcessEnvironment RabbitNode::environment() const
{
    const QDir dir(m_dir.path());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), dir.filePath(QStringLiteral("home"))); // its own cookie
    env.insert(QStringLiteral("RABBITMQ_NODENAME"), m_nodeName);
    env.insert(QStringLiteral("RABBITMQ_NODE_PORT"), QString::number(m_port));
    env.insert(QStringLiteral("RABBITMQ_NODE_IP_ADDRESS"), QStringLiteral("127.0.0.1"));
    env.insert(QStringLiteral("RABBITMQ_DIST_PORT"), QString::number(m_distPort));
    env.insert(QStringLiteral("RABBITMQ_CTL_DIST_PORT_MIN"), QString::number(m_distPort + 1));
    env.insert(QStringLiteral("RABBITMQ_CTL_DIST_PORT_MAX"), QString::number(m_distPort + 20));
    env.insert(QStringLiteral("ERL_EPMD_PORT"), QString::number(m_epmdPort));
    env.insert(QStringLiteral("ERL_EPMD_ADDRESS"), QStringLiteral("127.0.0.1"));
    env.insert(QStringLiteral("RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS"),
               QStringLiteral("-kernel inet_dist_use_interface {127,0,0,1}"));
    env.insert(QStringLiteral("RABBITMQ_MNESIA_BASE"), dir.filePath(QStringLiteral("mnesia")));
    env.insert(QStringLiteral("RABBITMQ_LOG_BASE"), dir.filePath(QStringLiteral("log")));
    env.insert(QStringLiteral("RABBITMQ_CONFIG_FILE"), dir.filePath(QStringLiteral("rabbitmq")));
    env.insert(QStringLiteral("RABBITMQ_CONF_ENV_FILE"), dir.filePath(QStringLiteral("none.conf")));
    env.insert(QStringLiteral("RABBITMQ_ENABLED_PLUGINS_FILE"),
               dir.filePath(QStringLiteral("enabled_plugins")));
    env.insert(QStringLiteral("RABBITMQ_PID_FILE"), dir.filePath(QStringLiteral("node.pid")));
    env.insert(QStringLiteral("RABBITMQ_ALLOW_INPUT"), QString()); // not read: stdin is closed
    return env;
}

QStringList RabbitNode::asNodeUser(const QString& program, const QStringList& args) const
{
    // setpriv execs, so the process QProcess started is the script itself (its group is the
    // node's); the package's wrapper would go through su and a shell.
    if (::geteuid() != 0)
        return QStringList{program} + args;
    return QStringList{QStringLiteral("setpriv"), QStringLiteral("--reuid=rabbitmq"),
                       QStringLiteral("--regid=rabbitmq"), QStringLiteral("--init-groups"),
                       program} +
           args;
}

bool RabbitNode::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

bool RabbitNode::start()
{
    if (isRunning())
        return true;
    if (!prepareFolder())
        return false;
    QStringList command =
        asNodeUser(QString::fromLatin1(kScripts) + QStringLiteral("rabbitmq-server"), {});
    m_process = std::make_unique<QProcess>();
    m_process->setProcessEnvironment(environment());
    m_process->setWorkingDirectory(m_dir.path());
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    // Its own process group, so that stop() reaches erl and its helpers, not the test.
    m_process->setChildProcessModifier([] { ::setsid(); });
    m_process->start(command.takeFirst(), command);
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("rabbitmq-server did not start: ") + m_process->errorString();
        return false;
    }
    return waitForPort(60000);
}

bool RabbitNode::waitForPort(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        if (!isRunning()) {
            m_error = QStringLiteral("rabbitmq-server exited: ") +
                      QString::fromLocal8Bit(m_process->readAll());
            return false;
        }
        QTcpSocket probe;
        probe.connectToHost(QStringLiteral("127.0.0.1"), static_cast<quint16>(m_port));
        if (probe.waitForConnected(500)) {
            // The listener opens at the end of the boot; an AMQP header gets connection.start.
            probe.write("AMQP\x00\x00\x09\x01", 8);
            if (probe.waitForReadyRead(2000) && probe.bytesAvailable() > 0)
                return true;
        }
        QThread::msleep(200);
    }
    m_error = QStringLiteral("the RabbitMQ node did not answer on its port within %1 s")
                  .arg(timeoutMs / 1000);
    return false;
}

QByteArray RabbitNode::ctl(const QStringList& args, int* exitCode) const
{
    QStringList command = asNodeUser(QString::fromLatin1(kScripts) + QStringLiteral("rabbitmqctl"),
                                     QStringList{QStringLiteral("-n"), m_nodeName} + args);
    QProcess p;
    p.setProcessEnvironment(environment());
    p.setWorkingDirectory(m_dir.path());
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(command.takeFirst(), command);
    const bool done = p.waitForFinished(60000);
    if (!done) {
        p.kill();
        p.waitForFinished();
    }
    if (exitCode)
        *exitCode = done && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return p.readAll();
}

bool RabbitNode::stopApp()
{
    int code = -1;
    const QByteArray out = ctl({QStringLiteral("stop_app")}, &code);
    if (code != 0)
        m_error = QStringLiteral("rabbitmqctl stop_app failed: ") + QString::fromLocal8Bit(out);
    return code == 0;
}

bool RabbitNode::startApp()
{
    int code = -1;
    const QByteArray out = ctl({QStringLiteral("start_app")}, &code);
    if (code != 0) {
        m_error = QStringLiteral("rabbitmqctl start_app failed: ") + QString::fromLocal8Bit(out);
        return false;
    }
    return waitForPort(60000);
}

void RabbitNode::crash()
{
    if (!m_process)
        return;
    if (isRunning()) {
        ::kill(-static_cast<pid_t>(m_process->processId()), SIGKILL);
        m_process->waitForFinished(5000);
    }
    m_process.reset();
}

void RabbitNode::freeze()
{
    if (isRunning())
        ::kill(-static_cast<pid_t>(m_process->processId()), SIGSTOP);
}

void RabbitNode::thaw()
{
    if (isRunning())
        ::kill(-static_cast<pid_t>(m_process->processId()), SIGCONT);
}

void RabbitNode::stop()
{
    if (m_process && isRunning()) {
        const auto group = -static_cast<pid_t>(m_process->processId());
        ::kill(group, SIGCONT); // a frozen node cannot take its SIGTERM
        ::kill(group, SIGTERM);
        if (!m_process->waitForFinished(10000))
            m_process->kill();
        m_process->waitForFinished(2000);
        ::kill(group, SIGKILL); // erl's helpers (erl_child_setup, inet_gethost) that stayed
    }
    m_process.reset();
    killEpmd();
}

void RabbitNode::killEpmd()
{
    // epmd daemonizes out of the node's group; it is ours only because it listens on our own
    // port (ERL_EPMD_PORT), so it is told to stop through that port, never found by name.
    if (!m_prepared)
        return;
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(QStringLiteral("epmd"),
            {QStringLiteral("-port"), QString::number(m_epmdPort), QStringLiteral("-kill")});
    if (!p.waitForFinished(5000)) {
        p.kill();
        p.waitForFinished();
    }
}
