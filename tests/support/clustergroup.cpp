#include "clustergroup.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QThread>

namespace {

// The lines of CLUSTER NODES, each split into its fields.
QList<QList<QByteArray>> nodeLines(const QByteArray& text)
{
    QList<QList<QByteArray>> lines;
    for (const QByteArray& line : text.split('\n'))
        if (!line.trimmed().isEmpty())
            lines.append(line.trimmed().split(' '));
    return lines;
}

} // namespace

ClusterGroup::ClusterGroup()
{
    for (auto& n : m_nodes)
        n = std::make_unique<RedisServer>();
}

ClusterGroup::~ClusterGroup()
{
    stop();
}

void ClusterGroup::stop()
{
    for (auto& n : m_nodes)
        n->stop();
}

std::string ClusterGroup::url() const
{
    return "redis+cluster://" + address(0) + "," + address(1) + "," + address(2);
}

void ClusterGroup::setTls(const RedisServer::TlsFiles& files, const QString& clientCert,
                          const QString& clientKey)
{
    for (auto& n : m_nodes)
        n->setTls(files);
    m_tls = true;
    m_tlsCa = files.ca;
    m_tlsArgs = QStringList{QStringLiteral("--tls-cluster"),          QStringLiteral("yes"),
                            QStringLiteral("--tls-replication"),      QStringLiteral("yes"),
                            QStringLiteral("--tls-client-cert-file"), clientCert,
                            QStringLiteral("--tls-client-key-file"),  clientKey};
}

std::string ClusterGroup::tlsUrl(const std::string& query) const
{
    std::string seeds;
    for (int i = 0; i < 3; ++i)
        seeds += (i ? ",127.0.0.1:" : "127.0.0.1:") +
                 std::to_string(m_nodes[static_cast<size_t>(i)]->tlsPort());
    return "rediss+cluster://" + seeds + "/" + query;
}

bool ClusterGroup::startNode(int i)
{
    // The bus port defaults to port + 10000, which may be past 65535 for a port picked by the
    // system: a port of its own, picked the same way, and again if another suite took it.
    for (int attempt = 1;; ++attempt) {
        QStringList args{QStringLiteral("--cluster-enabled"),
                         QStringLiteral("yes"),
                         QStringLiteral("--cluster-config-file"),
                         QStringLiteral("nodes.conf"),
                         QStringLiteral("--cluster-node-timeout"),
                         QString::number(kNodeTimeoutMs),
                         QStringLiteral("--cluster-port"),
                         QString::number(RedisServer::freePort()),
                         QStringLiteral("--appendonly"),
                         QStringLiteral("no"),
                         QStringLiteral("--repl-diskless-sync-delay"),
                         QStringLiteral("0")};
        args << m_tlsArgs;
        if (node(i).start(args))
            return true;
        if (attempt == 3 || !node(i).portTaken())
            return false;
    }
}

bool ClusterGroup::start()
{
    QStringList create{QStringLiteral("--cluster"), QStringLiteral("create")};
    for (int i = 0; i < kNodes; ++i) {
        if (!startNode(i)) {
            m_error = QStringLiteral("node %1: ").arg(i) + node(i).errorString();
            return false;
        }
        // A cluster whose bus is TLS joins only when created through the TLS ports.
        create << (m_tls ? QStringLiteral("127.0.0.1:%1").arg(node(i).tlsPort())
                         : QString::fromStdString(address(i)));
    }
    create << QStringLiteral("--cluster-replicas") << QStringLiteral("1")
           << QStringLiteral("--cluster-yes");
    if (m_tls)
        create << QStringLiteral("--tls") << QStringLiteral("--cacert") << m_tlsCa;
    QProcess cli;
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(QStringLiteral("redis-cli"), create);
    if (!cli.waitForFinished(30000) || cli.exitCode() != 0) {
        m_error = QStringLiteral("redis-cli --cluster create failed: ") +
                  QString::fromLocal8Bit(cli.readAll());
        return false;
    }
    // redis-cli returns once the replicas were told whom to follow; until each has said so to
    // the others, a node still lists some of them as masters (a slow build saw 5 of 6).
    QElapsedTimer settling;
    settling.start();
    for (bool settled = false; !settled && settling.elapsed() < 20000;) {
        settled = true;
        for (int i = 0; i < kNodes && settled; ++i) {
            int listedMasters = 0;
            for (const auto& f :
                 nodeLines(node(i).cli({QStringLiteral("CLUSTER"), QStringLiteral("NODES")})))
                if (f.size() >= 8 && f[2].contains("master"))
                    ++listedMasters;
            settled = listedMasters == kNodes / 2;
        }
        if (!settled)
            QThread::msleep(50);
    }
    return waitUntilOk(20000);
}

bool ClusterGroup::waitUntilOk(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        bool ok = true;
        for (auto& n : m_nodes)
            if (n->isRunning() && !n->cli({QStringLiteral("CLUSTER"), QStringLiteral("INFO")})
                                       .contains("cluster_state:ok"))
                ok = false;
        // Every node must also know which masters serve the slots, or a client that asks it
        // would get a different map than one that asks another.
        if (ok) {
            const int m = static_cast<int>(masters().size());
            for (int i = 0; i < kNodes && ok; ++i)
                if (node(i).isRunning()) {
                    int seen = 0;
                    for (const auto& f : nodeLines(
                             node(i).cli({QStringLiteral("CLUSTER"), QStringLiteral("NODES")})))
                        if (f.size() > 8 && f[2].contains("master") && !f[2].contains("fail"))
                            ++seen;
                    ok = seen == m;
                }
        }
        if (ok)
            return true;
        QThread::msleep(50);
    }
    m_error = QStringLiteral("the cluster did not reach cluster_state:ok in time");
    return false;
}

QByteArray ClusterGroup::nodeId(int i) const
{
    return m_nodes[static_cast<size_t>(i)]
        ->cli({QStringLiteral("CLUSTER"), QStringLiteral("MYID")})
        .trimmed();
}

int ClusterGroup::indexOfAddress(const QByteArray& address) const
{
    const QByteArray hostPort = address.left(address.indexOf('@'));
    for (int i = 0; i < kNodes; ++i)
        if (hostPort == QByteArray::fromStdString(this->address(i)))
            return i;
    return -1;
}

int ClusterGroup::masterOf(int slot)
{
    for (auto& n : m_nodes) {
        if (!n->isRunning())
            continue;
        for (const auto& f :
             nodeLines(n->cli({QStringLiteral("CLUSTER"), QStringLiteral("NODES")}))) {
            if (f.size() < 9 || !f[2].contains("master") || f[2].contains("fail"))
                continue;
            for (qsizetype k = 8; k < f.size(); ++k) {
                if (f[k].startsWith('['))
                    continue;
                const auto range = f[k].split('-');
                const int first = range[0].toInt();
                const int last = range.size() > 1 ? range[1].toInt() : first;
                if (slot >= first && slot <= last)
                    return indexOfAddress(f[1]);
            }
        }
        return -1;
    }
    return -1;
}

std::vector<int> ClusterGroup::masters()
{
    std::vector<int> out;
    for (int i = 0; i < kNodes; ++i)
        if (node(i).isRunning() && node(i).cli({QStringLiteral("ROLE")}).startsWith("master"))
            out.push_back(i);
    return out;
}

int ClusterGroup::replicaOf(int i)
{
    const QByteArray id = nodeId(i);
    for (const auto& f :
         nodeLines(node(i).cli({QStringLiteral("CLUSTER"), QStringLiteral("NODES")})))
        if (f.size() > 3 && f[3] == id)
            return indexOfAddress(f[1]);
    return -1;
}

bool ClusterGroup::moveSlot(int slot, int target, const std::function<void()>& whileMigrating)
{
    const int source = masterOf(slot);
    if (source < 0 || source == target) {
        m_error = QStringLiteral("slot %1 has no master other than the target").arg(slot);
        return false;
    }
    const QString s = QString::number(slot);
    const QString sourceId = QString::fromLatin1(nodeId(source));
    const QString targetId = QString::fromLatin1(nodeId(target));
    node(target).cli({"CLUSTER", "SETSLOT", s, "IMPORTING", sourceId});
    node(source).cli({"CLUSTER", "SETSLOT", s, "MIGRATING", targetId});
    for (int round = 0; round < 100; ++round) {
        const QByteArray keys =
            node(source).cli({"CLUSTER", "GETKEYSINSLOT", s, "100000"}).trimmed();
        if (keys.isEmpty())
            break;
        QStringList migrate{"MIGRATE", "127.0.0.1", QString::number(port(target)), "", "0",
                            "10000",   "KEYS"};
        for (const QByteArray& key : keys.split('\n'))
            migrate << QString::fromUtf8(key.trimmed());
        const QByteArray reply = node(source).cli(migrate).trimmed();
        if (reply != "OK") {
            m_error = QStringLiteral("MIGRATE failed: ") + QString::fromUtf8(reply);
            return false;
        }
    }
    if (whileMigrating)
        whileMigrating();
    // The target first, as redis-cli does: its epoch bump is what the others then learn.
    node(target).cli({"CLUSTER", "SETSLOT", s, "NODE", targetId});
    node(source).cli({"CLUSTER", "SETSLOT", s, "NODE", targetId});
    for (int m : masters())
        if (m != source && m != target)
            node(m).cli({"CLUSTER", "SETSLOT", s, "NODE", targetId});
    return true;
}
