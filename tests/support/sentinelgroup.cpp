#include "sentinelgroup.h"

#include <QElapsedTimer>
#include <QFile>
#include <QThread>

namespace {

// Milliseconds a failover may take before another is tried. Short, so that a test that fails
// over twice is not held up; a loopback failover is done well within it.
constexpr int kFailoverTimeoutMs = 3000;

// One "field:value" line of INFO's output; empty when it is not there.
QByteArray infoField(const QByteArray& info, const QByteArray& field)
{
    for (const QByteArray& line : info.split('\n'))
        if (line.startsWith(field + ':'))
            return line.mid(field.size() + 1).trimmed();
    return {};
}

} // namespace

SentinelGroup::SentinelGroup()
{
    for (auto& d : m_data)
        d = std::make_unique<RedisServer>();
    for (auto& s : m_sentinels)
        s = std::make_unique<RedisServer>();
}

SentinelGroup::~SentinelGroup()
{
    stop();
}

void SentinelGroup::stop()
{
    // Sentinels first, so that none of them fails the stopping servers over.
    for (auto& s : m_sentinels)
        s->stop();
    for (auto& d : m_data)
        d->stop();
}

bool SentinelGroup::start()
{
    // A master waits 5 s by default before a diskless full sync, for more replicas to join
    // it; each role change would cost that wait.
    const QStringList noSyncDelay{QStringLiteral("--repl-diskless-sync-delay"),
                                  QStringLiteral("0")};
    if (!m_data[0]->start(noSyncDelay)) {
        m_error = QStringLiteral("master: ") + m_data[0]->errorString();
        return false;
    }
    const int masterPort = m_data[0]->port();
    if (!m_data[1]->start(noSyncDelay + QStringList{QStringLiteral("--replicaof"),
                                                    QStringLiteral("127.0.0.1"),
                                                    QString::number(masterPort)})) {
        m_error = QStringLiteral("replica: ") + m_data[1]->errorString();
        return false;
    }
    for (int i = 0; i < 3; ++i)
        if (!startSentinel(i, masterPort))
            return false;
    return waitUntilReady(20000);
}

bool SentinelGroup::startSentinel(int i, int masterPort)
{
    RedisServer& s = *m_sentinels[static_cast<size_t>(i)];
    const QString path = s.dataDir() + QStringLiteral("/sentinel.conf");
    QFile conf(path);
    if (!conf.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        m_error = QStringLiteral("cannot write ") + path;
        return false;
    }
    const QByteArray name = kMasterName;
    conf.write("sentinel monitor " + name + " 127.0.0.1 " + QByteArray::number(masterPort) +
               " 2\n");
    conf.write("sentinel down-after-milliseconds " + name + " " + QByteArray::number(kDownAfterMs) +
               "\n");
    conf.write("sentinel failover-timeout " + name + " " + QByteArray::number(kFailoverTimeoutMs) +
               "\n");
    conf.close();
    s.setConfigFile(path);
    if (!s.start({QStringLiteral("--sentinel")})) {
        m_error = QStringLiteral("sentinel %1: ").arg(i + 1) + s.errorString();
        return false;
    }
    return true;
}

std::string SentinelGroup::url(const std::string& masterName) const
{
    std::string nodes;
    for (const auto& s : m_sentinels)
        nodes += (nodes.empty() ? "" : ",") + std::string("127.0.0.1:") + std::to_string(s->port());
    return "redis+sentinel://" + nodes + "/" + masterName;
}

int SentinelGroup::masterPortFrom(int sentinelIndex) const
{
    const QByteArray out = m_sentinels[static_cast<size_t>(sentinelIndex)]->cli(
        {QStringLiteral("SENTINEL"), QStringLiteral("get-master-addr-by-name"),
         QString::fromLatin1(kMasterName)});
    const QList<QByteArray> lines = out.trimmed().split('\n');
    return lines.size() == 2 ? lines[1].trimmed().toInt() : 0;
}

RedisServer* SentinelGroup::master()
{
    const int port = masterPortFrom(0);
    for (auto& d : m_data)
        if (d->port() == port)
            return d.get();
    return nullptr;
}

RedisServer* SentinelGroup::replica()
{
    RedisServer* m = master();
    for (auto& d : m_data)
        if (d.get() != m)
            return d.get();
    return nullptr;
}

int SentinelGroup::waitForNewMaster(int oldPort, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        int agreed = masterPortFrom(0);
        for (int i = 1; i < 3 && agreed > 0; ++i)
            if (m_sentinels[static_cast<size_t>(i)]->isRunning() && masterPortFrom(i) != agreed)
                agreed = 0;
        RedisServer* m = agreed > 0 && agreed != oldPort ? master() : nullptr;
        if (m && m->port() == agreed && m->cli({QStringLiteral("ROLE")}).startsWith("master"))
            return agreed;
        QThread::msleep(50);
    }
    return 0;
}

bool SentinelGroup::sentinelReady(int i) const
{
    RedisServer& s = *m_sentinels[static_cast<size_t>(i)];
    // CKQUORUM says OK only once this sentinel knows enough others to authorise a failover.
    if (!s.cli({QStringLiteral("SENTINEL"), QStringLiteral("CKQUORUM"),
                QString::fromLatin1(kMasterName)})
             .startsWith("OK 3 usable"))
        return false;
    const QList<QByteArray> fields = s.cli({QStringLiteral("SENTINEL"), QStringLiteral("REPLICAS"),
                                            QString::fromLatin1(kMasterName)})
                                         .split('\n');
    for (int k = 0; k + 1 < fields.size(); ++k)
        if (fields[k].trimmed() == "flags" && fields[k + 1].trimmed() == "slave")
            return true;
    return false;
}

bool SentinelGroup::waitUntilReady(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        RedisServer* r = replica();
        const bool linked =
            r && r->isRunning() &&
            infoField(r->cli({QStringLiteral("INFO"), QStringLiteral("replication")}),
                      "master_link_status") == "up";
        if (linked && sentinelReady(0) && sentinelReady(1) && sentinelReady(2))
            return true;
        QThread::msleep(100);
    }
    m_error = QStringLiteral("the sentinels did not agree on a master with a replica in time");
    return false;
}
