#pragma once

#include "redisserver.h"
#include "servergroup.h"

#include <QString>

#include <array>
#include <functional>
#include <memory>
#include <string>

// A Redis Cluster on loopback for one test suite: three masters and three replicas, each a
// RedisServer in its own temporary folder (its nodes.conf there), created with
// `redis-cli --cluster create … --cluster-replicas 1`. stop() or the destructor stops every
// process, so a failed test leaves none behind.
class ClusterGroup : public ServerGroup
{
public:
    static constexpr int kNodes = 6;
    static constexpr int kNodeTimeoutMs = 1000;

    ClusterGroup();
    ~ClusterGroup() override;

    // Starts the six servers, creates the cluster and waits (up to 20 s) until every node
    // says cluster_state:ok. False with a reason in errorString() otherwise.
    bool start() override;
    void stop() override;

    // From the next start() on: every node serves TLS on a second port too, and the cluster
    // bus and replication go over TLS (--tls-cluster yes), so a TLS client is given the
    // nodes' TLS ports. The bus always asks the connecting node for a certificate, so the
    // nodes show clientCert/clientKey (a clientAuth certificate of the same CA) to each other.
    void setTls(const RedisServer::TlsFiles& files, const QString& clientCert,
                const QString& clientKey);

    // redis+cluster://127.0.0.1:P0,127.0.0.1:P1,127.0.0.1:P2 (the first three nodes).
    std::string url() const;
    // rediss+cluster://127.0.0.1:T0,127.0.0.1:T1,127.0.0.1:T2/ and the query given ("?ca=…").
    std::string tlsUrl(const std::string& query) const;
    RedisServer& node(int i) { return *m_nodes[static_cast<size_t>(i)]; }
    int port(int i) const { return m_nodes[static_cast<size_t>(i)]->port(); }
    std::string address(int i) const { return "127.0.0.1:" + std::to_string(port(i)); }

    // The node (index) that serves the slot as master, as a running node sees it; -1 if none.
    int masterOf(int slot);
    // Node indexes of the masters serving slots, in node order.
    std::vector<int> masters();
    // The replica of master `i` (its index), -1 if none is known.
    int replicaOf(int i);

    // Moves the slot from its master to master `target` the way redis-cli does: IMPORTING on
    // the target, MIGRATING on the source, every key of the slot with one MIGRATE … KEYS
    // (repeated until none is left), `whileMigrating` (the window in which clients are sent
    // ASK), then SETSLOT NODE on every master. False with errorString() on failure.
    bool moveSlot(int slot, int target, const std::function<void()>& whileMigrating = {});
    // Waits until every running node says cluster_state:ok and agrees on the masters.
    bool waitUntilOk(int timeoutMs);

    QString errorString() const override { return m_error; }

private:
    bool startNode(int i);
    QByteArray nodeId(int i) const;
    int indexOfAddress(const QByteArray& address) const;

    std::array<std::unique_ptr<RedisServer>, kNodes> m_nodes;
    bool m_tls = false;
    QString m_tlsCa; // redis-cli joins a TLS cluster through the TLS ports
    QStringList m_tlsArgs;
    QString m_error;
};
