#include "clirunner.h"

#include <QDeadlineTimer>
#include <QDebug>
#include <QFile>
#include <QTcpSocket>
#include <QTest>

CliRunner::CliRunner(const std::string& url) : m_url(QString::fromStdString(url)) {}

QStringList CliRunner::withUrl(const QStringList& args) const
{
    if (args.contains(QStringLiteral("--url")))
        return args;
    return QStringList{QStringLiteral("--url"), m_url} + args;
}

QProcessEnvironment CliRunner::environment()
{
    auto env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("REDIS_URL"));
    return env;
}

CliRun CliRunner::run(const QStringList& args, const QByteArray& input) const
{
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(QStringLiteral(DELAYQ_CLI), withUrl(args));
    return finish(p, input);
}

std::unique_ptr<QProcess> CliRunner::start(const QStringList& args) const
{
    auto p = std::make_unique<QProcess>();
    p->setProcessEnvironment(environment());
    p->start(QStringLiteral(DELAYQ_CLI), withUrl(args));
    p->closeWriteChannel();
    return p;
}

bool CliRunner::finished(QProcess& process)
{
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return false;
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        qWarning() << process.readAllStandardError();
        return false;
    }
    return true;
}

void expectUsageError(const CliRun& run, const QString& message)
{
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
}

void expectRefusal(const CliRun& run, int exitCode, const QString& message)
{
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(run.err.startsWith("delayq: "), run.err.constData());
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
}

CliRun finish(QProcess& process, const QByteArray& input)
{
    if (!process.waitForStarted())
        return {};
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            process.readAllStandardOutput(), process.readAllStandardError()};
}

QByteArray readUntilClosed(QTcpSocket& socket, int timeoutMs)
{
    QByteArray all;
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired() && socket.state() == QAbstractSocket::ConnectedState) {
        socket.waitForReadyRead(100);
        all += socket.readAll();
    }
    return all + socket.readAll();
}

QJsonDocument json(const CliRun& run)
{
    QJsonParseError error;
    auto doc = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning() << "not JSON:" << run.out << run.err;
    return doc;
}

QList<QJsonObject> readLines(const QString& path)
{
    QList<QJsonObject> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (!line.isEmpty())
            out << QJsonDocument::fromJson(line).object();
    return out;
}
