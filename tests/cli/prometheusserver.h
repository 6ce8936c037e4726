#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <optional>

// A short-lived prometheus server (Debian's package) for one test: its own config scraping one
// target every second, its TSDB in a temporary folder, its web API on a free loopback port.
// Killed by the destructor.
class PrometheusServer
{
public:
    ~PrometheusServer();

    // Where prometheus and promtool are, or empty when the package is not installed.
    static QString prometheusBinary();
    static QString promtoolBinary();

    // Starts it scraping http://127.0.0.1:targetPort/metrics; false when it does not answer
    // /-/ready within 20 s (its output printed).
    bool start(quint16 targetPort);
    // The value of the first series an instant query returns; nullopt when none (yet).
    std::optional<double> query(const QString& promql) const;

private:
    QByteArray httpGet(const QByteArray& pathAndQuery) const;

    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
};
