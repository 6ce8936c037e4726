#pragma once

#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QStringList>

#include <memory>
#include <string>

class QTcpSocket;

// What one run of the delayq binary left: its exit code (-1 when it crashed, hung or never
// started), stdout and stderr.
struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs the built delayq binary (DELAYQ_CLI) against one server, the way a user would.
class CliRunner
{
public:
    explicit CliRunner(const std::string& url);

    // Runs delayq with args, and --url for the server unless args name one, feeding input on
    // stdin; waits up to 60 s. REDIS_URL is removed from its environment so that a
    // developer's own setting never points a test at another server.
    CliRun run(const QStringList& args, const QByteArray& input = {}) const;
    // Starts delayq (with --url as above) without waiting for it; stdin is closed.
    std::unique_ptr<QProcess> start(const QStringList& args) const;
    // Waits up to 60 s for a process from start(): true when it exited with 0. Otherwise it
    // prints its stderr, and kills it if it still runs.
    static bool finished(QProcess& process);

private:
    QStringList withUrl(const QStringList& args) const;
    static QProcessEnvironment environment();

    QString m_url;
};

// A refused command line: exit code 2, the reason (message) on stderr.
void expectUsageError(const CliRun& run, const QString& message);
// A refusal with its exit code: stderr starts "delayq: " and gives the reason (message).
void expectRefusal(const CliRun& run, int exitCode, const QString& message);
// Waits up to 60 s for a started process fed input (killed when it takes longer) and returns
// what it left.
CliRun finish(QProcess& process, const QByteArray& input = {});
// What a connected socket receives until the server closes it (at most timeoutMs).
QByteArray readUntilClosed(QTcpSocket& socket, int timeoutMs);
// The run's stdout as JSON; prints it when it is not JSON, so a failed check shows why.
QJsonDocument json(const CliRun& run);
// A JSON-lines file (a worker's --log), one object a line.
QList<QJsonObject> readLines(const QString& path);
