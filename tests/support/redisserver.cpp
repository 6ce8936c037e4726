#include "redisserver.h"

#include <delayq/keys.h>
#include <delayq/recordtable.h>

#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTcpServer>

#include <csignal>

namespace {

// The kernel's range for the local port of an outgoing connection ("32768 60999" by default).
std::pair<int, int> ephemeralPorts()
{
    QFile file(QStringLiteral("/proc/sys/net/ipv4/ip_local_port_range"));
    int low = 32768, high = 60999;
    if (file.open(QIODevice::ReadOnly)) {
        const auto fields = file.readAll().simplified().split(' ');
        if (fields.size() == 2) {
            low = fields[0].toInt();
            high = fields[1].toInt();
        }
    }
    return {low, high};
}

} // namespace

int RedisServer::freePort()
{
    // Not a port the kernel picks (bind to port 0 draws from the ephemeral range): between this
    // probe and the server's bind, any client's connect() could take such a port as its local
    // one, and the server would exit with "Address already in use". A CI run with RabbitMQ
    // starting beside a cluster suite lost a node that way. Below the range, only another
    // suite's pick can collide, and start() picks again then.
    const auto [low, high] = ephemeralPorts();
    const int first = low > 12000 ? 10000 : high + 1;
    const int last = low > 12000 ? low - 1 : 65535;
    for (int attempt = 0; attempt < 100 && first < last; ++attempt) {
        const auto port =
            static_cast<quint16>(first + QRandomGenerator::global()->bounded(last - first + 1));
        QTcpServer probe;
        if (probe.listen(QHostAddress::LocalHost, port))
            return port;
    }
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
    m_tlsArgs = QStringList{QStringLiteral("--tls-cert-file"),
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
    // Keep the ports across restarts, so clients reconnect to the same address; on the first
    // start, ports another suite took in the meantime are picked again.
    if (m_port == 0)
        m_port = freePort();
    for (int attempt = 1;; ++attempt) {
        if (launch())
            return true;
        if (m_hasRun || attempt == 3 || !portTaken())
            return false;
        m_port = freePort();
        if (m_tlsPort != 0)
            m_tlsPort = freePort();
    }
}

bool RedisServer::launch()
{
    QStringList args{QStringLiteral("--port"), QString::number(m_port), QStringLiteral("--bind"),
                     QStringLiteral("127.0.0.1"), QStringLiteral("--unixsocket"), socketPath(),
                     QStringLiteral("--dir"), m_dir.path(), QStringLiteral("--save"), QString(),
                     QStringLiteral("--daemonize"), QStringLiteral("no"),
                     QStringLiteral("--protected-mode"), QStringLiteral("no"),
                     QStringLiteral("--loglevel"), QStringLiteral("warning"),
                     // Tests compare DEBUG DIGEST before and after a refusal, and stall the
                     // server with DEBUG SLEEP; Redis 7 disables DEBUG unless told.
                     QStringLiteral("--enable-debug-command"), QStringLiteral("local")};
    if (m_tlsPort != 0)
        args << QStringLiteral("--tls-port") << QString::number(m_tlsPort) << m_tlsArgs;
    args << m_extraArgs;
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
        if (cli({QStringLiteral("PING")}).trimmed() == "PONG") {
            m_hasRun = true;
            return true;
        }
        // waitForFinished, not state(): QProcess learns of the exit only while it processes
        // events or waits, so state() alone would report a dead server as running.
        if (m_process->waitForFinished(20)) {
            m_error = QStringLiteral("redis-server exited: ") +
                      QString::fromLocal8Bit(m_process->readAll());
            return false;
        }
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

QByteArray RedisServer::record(const delayq::Keys& keys, const std::string& id) const
{
    // Where lua/buckets.lua puts it (RecordTable), by plain HMGET and HGET: the tests read a
    // queue at rest.
    QStringList read{QStringLiteral("HMGET"), QString::fromStdString(keys.dataLayout())};
    for (const std::string& field : delayq::RecordTable::fields())
        read << QString::fromStdString(field);
    const QList<QByteArray> lines = cli(read).split('\n');
    std::vector<std::optional<std::string>> values;
    for (size_t i = 0; i < delayq::RecordTable::fields().size(); ++i) {
        const QByteArray line = lines.value(static_cast<qsizetype>(i));
        values.push_back(line.isEmpty() ? std::nullopt
                                        : std::optional<std::string>(line.toStdString()));
    }
    const QString field = QString::fromStdString(id);
    for (const std::string& key : delayq::RecordTable::fromFields(values).keysOf(keys, id)) {
        const QByteArray record =
            cli({QStringLiteral("HGET"), QString::fromStdString(key), field}).chopped(1);
        if (!record.isEmpty())
            return record;
    }
    return {};
}

bool RedisServer::overwriteRecord(const delayq::Keys& keys, const std::string& id,
                                  const QByteArray& record) const
{
    const QString field = QString::fromStdString(id);
    const QList<QByteArray> buckets =
        cli({"--scan", "--pattern", QString::fromStdString(keys.dataPrefix()) + "*"}).split('\n');
    for (const QByteArray& bucket : buckets)
        if (!bucket.isEmpty() &&
            cli({"HEXISTS", QString::fromUtf8(bucket), field}).trimmed() == "1")
            return cli({"HSET", QString::fromUtf8(bucket), field, QString::fromUtf8(record)})
                       .trimmed() == "0";
    return false;
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
