#pragma once

#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <string>

namespace delayq {
class Keys;
}

// A private redis-server for one test suite: a unix socket in a temporary folder and a free
// loopback TCP port. Never the machine's server on 6379.
class RedisServer
{
public:
    RedisServer();
    ~RedisServer();

    // Starts (or restarts) the server; extraArgs are redis-server options ("--appendonly",
    // "yes"). Returns false with a reason in errorString() when it does not come up in 10 s.
    bool start(const QStringList& extraArgs = {});
    // A configuration file for redis-server to read first (and, as a sentinel, to rewrite);
    // the options start() passes still win over it.
    void setConfigFile(const QString& path) { m_configFile = path; }
    void stop();
    // SIGKILL: no shutdown save, no AOF rewrite; what survives is what was fsynced.
    void crash();
    // SIGSTOP/SIGCONT: a server that accepts connections but answers nothing.
    void freeze();
    void thaw();
    bool isRunning() const;

    // TLS on a second free loopback port (tlsPort()) beside the plain one, from the next
    // start() on: redis-server --tls-port P --tls-cert-file … --tls-key-file …
    // --tls-ca-cert-file … --tls-auth-clients yes|no. The unix socket stays plain, so cli()
    // works as before.
    struct TlsFiles
    {
        QString cert;
        QString key;
        QString ca;
        bool authClients = false; // mutual TLS: a client must show a certificate of the CA
    };
    void setTls(const TlsFiles& files);
    int tlsPort() const { return m_tlsPort; }
    // rediss://127.0.0.1:TLSPORT/0, plus the query given ("?ca=…").
    std::string tlsUrl(const std::string& query = {}) const;

    int port() const { return m_port; }
    QString socketPath() const;
    QString dataDir() const { return m_dir.path(); }
    std::string tcpUrl() const;
    std::string unixUrl() const;
    QString errorString() const { return m_error; }
    // The last start() failed because a port it was given was taken (another suite's pick).
    bool portTaken() const { return m_error.contains(QLatin1String("Address already in use")); }

    // Runs redis-cli against this server and returns its output (for setup and checks
    // that must not go through the code under test).
    QByteArray cli(const QStringList& args) const;
    // The record of task `id` in the queue of `keys`, through read_record.lua (only a script
    // knows which bucket holds it: lua/buckets.lua); "" when it has none.
    QByteArray record(const delayq::Keys& keys, const std::string& id) const;
    // Overwrites the record of a task that has one, found by looking in every bucket (a
    // broken record for a test); false when no bucket holds the id.
    bool overwriteRecord(const delayq::Keys& keys, const std::string& id,
                         const QByteArray& record) const;

    // Why no server can be started here ("" when one can): redis-server or redis-cli is not
    // on PATH. A machine without them cannot run the suites, which says nothing about the
    // code under test, so they skip.
    static QString missingTools();

    // A loopback TCP port nothing listens on now (0 when none could be found).
    static int freePort();

private:
    bool launch();

    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_process;
    QStringList m_extraArgs;
    QString m_configFile;
    int m_port = 0;
    int m_tlsPort = 0;
    QStringList m_tlsArgs; // all but --tls-port
    bool m_hasRun = false; // a port that served once is kept, as clients know it
    QString m_error;
};
