#include "commands/exechandler.h"

#include <QProcess>
#include <QProcessEnvironment>

#include <csignal>
#include <pthread.h>

namespace cli {

namespace {

constexpr qsizetype kTail = 1024; // bytes of stderr kept for the task's last_error

QString fromBytes(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace

ExecHandler::ExecHandler(std::string command, std::string queue, std::function<bool()> aborted)
    : m_command(std::move(command)), m_queue(std::move(queue)), m_aborted(std::move(aborted))
{}

delayq::HandlerResult ExecHandler::operator()(const delayq::ClaimedTask& task) const
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DELAYQ_TASK_ID"), fromBytes(task.id));
    env.insert(QStringLiteral("DELAYQ_QUEUE"), fromBytes(m_queue));
    env.insert(QStringLiteral("DELAYQ_ATTEMPT"), QString::number(task.attempts));
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::ForwardedOutputChannel);
    // The worker blocks SIGINT/SIGTERM to take them synchronously; the command must not
    // inherit that, or Ctrl-C would not reach it.
    process.setChildProcessModifier([] {
        sigset_t none;
        sigemptyset(&none);
        pthread_sigmask(SIG_SETMASK, &none, nullptr);
    });
    process.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), fromBytes(m_command)});
    if (!process.waitForStarted(10000))
        return delayq::HandlerResult::fail("exec: cannot start /bin/sh: " +
                                           process.errorString().toStdString());
    process.write(task.payload.data(), static_cast<qint64>(task.payload.size()));
    process.closeWriteChannel();

    QByteArray tail;
    bool killed = false;
    while (!process.waitForFinished(100)) {
        tail += process.readAllStandardError();
        if (tail.size() > kTail)
            tail = tail.right(kTail);
        if (process.state() == QProcess::NotRunning)
            break;
        if (!killed && m_aborted && m_aborted()) {
            process.kill();
            killed = true;
        }
    }
    tail += process.readAllStandardError();
    if (tail.size() > kTail)
        tail = tail.right(kTail);
    const std::string stderrTail = tail.trimmed().toStdString();
    if (killed)
        return delayq::HandlerResult::fail("exec: killed: the worker was stopped at once");
    if (process.exitStatus() == QProcess::CrashExit)
        return delayq::HandlerResult::fail("exec: the command was killed by a signal" +
                                           (stderrTail.empty() ? "" : ": " + stderrTail));
    if (process.exitCode() == 0)
        return delayq::HandlerResult::ack();
    return delayq::HandlerResult::fail("exec: exit " + std::to_string(process.exitCode()) +
                                       (stderrTail.empty() ? "" : ": " + stderrTail));
}

} // namespace cli
