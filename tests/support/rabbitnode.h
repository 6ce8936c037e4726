#pragma once

#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <string>

// A private rabbitmq-server node for one test suite (Debian's package): its own node name,
// free loopback ports for AMQP, Erlang distribution and its own epmd, and its own mnesia, log
// and config folders in a temporary folder. Never the machine's node on 5672.
//
// Run as root, the node and rabbitmqctl run as the `rabbitmq` user (as the package's wrapper
// does), so the folder belongs to that user. A node takes ~11 s to start on a loaded 2-core
// machine: start one per suite, not per test. Everything it started (the node's process group
// and its epmd) is killed by stop() and by the destructor, also after a failed test.
class RabbitNode
{
public:
    RabbitNode();
    ~RabbitNode();

    // Starts (or starts again, on the same folders and ports) and waits until the AMQP port
    // answers. False with a reason in errorString() when it does not come up within 60 s.
    bool start();
    // SIGTERM to the node's process group (SIGKILL after 10 s), then its epmd.
    void stop();
    // SIGKILL to the node, for a broker that dies mid-stream; epmd stays for start().
    void crash();
    bool isRunning() const;
    // SIGSTOP/SIGCONT to the node's process group: a broker that accepts connections but
    // answers nothing (no confirms, no handshakes).
    void freeze();
    void thaw();

    // rabbitmqctl -n NODE ARGS (as the node's user, with its cookie and epmd); the output, and
    // its exit code in *exitCode (-1 when it did not finish within 60 s).
    QByteArray ctl(const QStringList& args, int* exitCode = nullptr) const;
    // rabbitmqctl stop_app / start_app: the broker goes away (connections closed with
    // CONNECTION_FORCED) and comes back, the node and its durable data staying. startApp waits
    // for the port as start() does.
    bool stopApp();
    bool startApp();

    // A TLS listener on a second free loopback port (tlsPort()) beside the plain one, from the
    // first start() on (call before it): the files are copied into the node's folder, where
    // its user can read them. Clients need not show a certificate.
    void setTls(const QString& cert, const QString& key, const QString& ca);
    int tlsPort() const { return m_tlsPort; }

    int port() const { return m_port; }
    QString nodeName() const { return m_nodeName; }
    // amqp://guest:guest@127.0.0.1:PORT/VHOST?QUERY (vhost "/" is written %2F).
    std::string url(const std::string& query, const std::string& vhost = "%2F") const;
    QString errorString() const { return m_error; }

    // Why no node can be started here ("" when one can): rabbitmq-server is not installed.
    static QString missingTools();

private:
    bool prepareFolder();
    QString tlsConfig();
    bool waitForPort(int timeoutMs);
    QProcessEnvironment environment() const;
    QStringList asNodeUser(const QString& program, const QStringList& args) const;
    void killEpmd();

    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_process;
    QString m_nodeName;
    int m_port = 0;
    int m_distPort = 0;
    int m_epmdPort = 0;
    int m_tlsPort = 0;
    QStringList m_tlsFiles; // cert, key, ca
    bool m_prepared = false;
    QString m_error;
};
