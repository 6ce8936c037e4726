#include "xsession.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QThread>

#include <csignal>
#include <sys/prctl.h>

namespace {

constexpr int kDisplayStartMs = 10000;

} // namespace

void stopProcess(std::unique_ptr<QProcess>& process)
{
    if (!process)
        return;
    if (process->state() != QProcess::NotRunning) {
        process->terminate();
        if (!process->waitForFinished(3000)) {
            process->kill();
            process->waitForFinished(2000);
        }
    }
    process.reset();
}

XSession::~XSession()
{
    stop();
}

QString XSession::missingTools()
{
    QStringList missing;
    for (const char* tool : {"Xvfb", "openbox", "xdotool"})
        if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
            missing << QString::fromLatin1(tool);
    if (missing.isEmpty())
        return {};
    return missing.join(QLatin1String(", ")) +
           QStringLiteral(" not found on PATH: this suite drives the app under its own X server "
                          "(install the Debian packages xvfb, openbox and xdotool, or run "
                          "scripts/setup)");
}

void XSession::dieWithParent(QProcess& process)
{
    process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
}

bool XSession::start()
{
    stop();
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("cannot create a temporary folder");
        return false;
    }
    // -displayfd 1: Xvfb takes the first free display number and writes it on its stdout once
    // it accepts connections, so two suites (or a developer's own server) never collide.
    m_xvfb = std::make_unique<QProcess>();
    dieWithParent(*m_xvfb);
    m_xvfb->start(QStringLiteral("Xvfb"),
                  {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-screen"),
                   QStringLiteral("0"), QStringLiteral("1600x1000x24"), QStringLiteral("-nolisten"),
                   QStringLiteral("tcp")});
    QDeadlineTimer deadline(kDisplayStartMs);
    QByteArray number;
    while (!number.contains('\n') && !deadline.hasExpired() &&
           m_xvfb->state() != QProcess::NotRunning) {
        m_xvfb->waitForReadyRead(100);
        number += m_xvfb->readAllStandardOutput();
    }
    if (!number.contains('\n')) {
        m_error = QStringLiteral("Xvfb gave no display number: ") +
                  QString::fromLocal8Bit(m_xvfb->readAllStandardError());
        return false;
    }
    m_display = QLatin1Char(':') + QString::fromLatin1(number.trimmed());

    m_wm = std::make_unique<QProcess>();
    dieWithParent(*m_wm);
    m_wm->setProcessEnvironment(environment(m_dir.path()));
    m_wm->setProcessChannelMode(QProcess::MergedChannels);
    m_wm->start(QStringLiteral("openbox"), {QStringLiteral("--sm-disable")});
    return waitForWindowManager();
}

bool XSession::waitForWindowManager()
{
    // openbox sets _NET_CURRENT_DESKTOP on the root window once it manages the screen; until
    // then xdotool get_desktop fails.
    QDeadlineTimer deadline(kDisplayStartMs);
    while (!deadline.hasExpired()) {
        if (m_wm->state() == QProcess::NotRunning) {
            m_error = QStringLiteral("openbox exited: ") + QString::fromLocal8Bit(m_wm->readAll());
            return false;
        }
        if (xdotool({QStringLiteral("get_desktop")}, 2000).ok)
            return true;
        QThread::msleep(50);
    }
    m_error = QStringLiteral("openbox did not manage the screen within 10 s");
    return false;
}

void XSession::stop()
{
    stopProcess(m_wm);
    stopProcess(m_xvfb);
}

QProcessEnvironment XSession::environment(const QString& home) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), m_display);
    env.insert(QStringLiteral("HOME"), home);
    const QDir dir(home);
    for (const auto& [name, sub] :
         {std::pair{"XDG_CONFIG_HOME", ".config"}, std::pair{"XDG_DATA_HOME", ".local/share"},
          std::pair{"XDG_CACHE_HOME", ".cache"}, std::pair{"XDG_STATE_HOME", ".local/state"},
          std::pair{"XDG_RUNTIME_DIR", "runtime"}}) {
        dir.mkpath(QString::fromLatin1(sub));
        env.insert(QString::fromLatin1(name), dir.filePath(QString::fromLatin1(sub)));
    }
    QFile::setPermissions(dir.filePath(QStringLiteral("runtime")),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    // No session bus: the app's keychain must not reach the developer's.
    env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
    env.remove(QStringLiteral("XAUTHORITY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    return env;
}

XRun XSession::tool(const QString& program, const QStringList& args, int timeoutMs) const
{
    QProcess p;
    dieWithParent(p);
    p.setProcessEnvironment(environment(m_dir.path()));
    p.start(program, args);
    XRun result;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        result.err = "timed out";
        return result;
    }
    result.ok = p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    result.out = p.readAllStandardOutput();
    result.err += p.readAllStandardError();
    return result;
}

XRun XSession::xdotool(const QStringList& args, int timeoutMs) const
{
    return tool(QStringLiteral("xdotool"), args, timeoutMs);
}

bool XSession::screenshot(const QString& path) const
{
    return tool(QStringLiteral("import"), {QStringLiteral("-window"), QStringLiteral("root"), path},
                10000)
        .ok;
}
