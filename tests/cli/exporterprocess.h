#pragma once

#include "clirunner.h"

#include <QByteArray>
#include <QMap>
#include <QProcess>
#include <QString>

#include <memory>

// One HTTP exchange with the exporter, read until the server closed the connection.
struct HttpReply
{
    int status = 0; // 0: the server closed without a status line
    QByteArray head;
    QByteArray body;
    bool closed = false; // the server closed the connection within the wait
};

// A running `delayq exporter --listen 127.0.0.1:0` for one test: started, its port read from
// its banner, spoken to over plain sockets (so a test can send what no HTTP client would),
// and killed at the end if the test did not stop it.
class ExporterProcess
{
public:
    explicit ExporterProcess(const CliRunner& cli) : m_cli(cli) {}
    ~ExporterProcess();

    // Starts the exporter with args after `exporter --listen 127.0.0.1:0`; false (its stderr
    // printed) when it did not say where it listens within 10 s.
    bool start(const QStringList& args = {});
    quint16 port() const { return m_port; }
    QProcess& process() { return *m_process; }

    // Sends raw bytes and reads the answer until the server closes (at most 10 s).
    HttpReply request(const QByteArray& raw) const;
    HttpReply get(const QByteArray& path) const;
    // GET /metrics, each sample as "name{labels}" -> value (the text as the exporter wrote it).
    QMap<QString, double> metrics() const;
    // Sends the signal and waits for the exit; the exit code, -1 when it crashed or hung.
    int stop(int signal);

    static QMap<QString, double> parseMetrics(const QByteArray& text);

private:
    const CliRunner& m_cli;
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
};
