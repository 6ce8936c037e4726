#include "adminprocess.h"

#include <QDeadlineTimer>
#include <QRegularExpression>
#include <QThread>

#include <utility>

AdminProcess::AdminProcess(const XSession& x, QString a11yBus)
    : m_x(x), m_a11yBus(std::move(a11yBus))
{}

AdminProcess::~AdminProcess()
{
    stop();
}

bool AdminProcess::start(const QStringList& args, int timeoutMs)
{
    stop();
    QProcessEnvironment env = m_x.environment(m_home.path());
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    // English texts, whatever the machine's locale: the cases read window titles.
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.remove(QStringLiteral("LANGUAGE"));
    env.remove(QStringLiteral("REDIS_URL"));
    // Its widgets on the accessibility bus, as for a screen reader, whatever the desktop says.
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_a11yBus);
    env.insert(QStringLiteral("QT_LINUX_ACCESSIBILITY_ALWAYS_ON"), QStringLiteral("1"));
    m_process = std::make_unique<QProcess>();
    XSession::dieWithParent(*m_process);
    m_process->setProcessEnvironment(env);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    // DELAYQ_X11_ADMIN: another build of the app (an older commit's, to see a case fail there).
    const QString binary = qEnvironmentVariable("DELAYQ_X11_ADMIN", QStringLiteral(DELAYQ_ADMIN));
    m_process->start(binary, args);
    if (!m_process->waitForStarted(10000)) {
        m_error = QStringLiteral("delayq-admin did not start: ") + m_process->errorString();
        return false;
    }
    // The main window is the one whose title starts with the app's name.
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired() && isRunning()) {
        m_window = findWindow(QStringLiteral("^delayq-admin"));
        if (!m_window.isEmpty())
            return true;
        m_process->waitForReadyRead(100);
    }
    m_error = isRunning()
                  ? QStringLiteral("no main window within %1 ms").arg(timeoutMs)
                  : QStringLiteral("delayq-admin exited: ") + QString::fromLocal8Bit(output());
    return false;
}

void AdminProcess::stop()
{
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        m_process->terminate();
        if (!m_process->waitForFinished(5000)) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
    output();
    m_process.reset();
    m_window.clear();
}

qint64 AdminProcess::pid() const
{
    return isRunning() ? m_process->processId() : 0;
}

bool AdminProcess::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

QByteArray AdminProcess::output()
{
    if (m_process)
        m_output += m_process->readAll();
    return m_output;
}

QStringList AdminProcess::visibleWindows() const
{
    if (!isRunning())
        return {};
    const XRun run = m_x.xdotool({QStringLiteral("search"), QStringLiteral("--onlyvisible"),
                                  QStringLiteral("--pid"), QString::number(m_process->processId()),
                                  QStringLiteral("--name"), QStringLiteral(".")});
    return QString::fromLatin1(run.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QString AdminProcess::title(const QString& window) const
{
    const XRun run = m_x.xdotool({QStringLiteral("getwindowname"), window});
    return run.ok ? QString::fromUtf8(run.out).trimmed() : QString();
}

QStringList AdminProcess::titles() const
{
    QStringList titles;
    for (const QString& window : visibleWindows()) {
        const QString text = title(window);
        if (window == m_window)
            titles.prepend(text);
        else
            titles.append(text);
    }
    return titles;
}

QString AdminProcess::findWindow(const QString& pattern) const
{
    const QRegularExpression re(pattern);
    for (const QString& window : visibleWindows())
        if (re.match(title(window)).hasMatch())
            return window;
    return {};
}

bool AdminProcess::activate(const QString& window) const
{
    return m_x.xdotool({QStringLiteral("windowactivate"), QStringLiteral("--sync"), window}).ok;
}

bool AdminProcess::key(const QString& window, const QStringList& keys) const
{
    if (!activate(window))
        return false;
    return m_x
        .xdotool(QStringList{QStringLiteral("key"), QStringLiteral("--clearmodifiers"),
                             QStringLiteral("--delay"), QStringLiteral("50")} +
                 keys)
        .ok;
}

bool AdminProcess::type(const QString& window, const QString& text) const
{
    if (!activate(window))
        return false;
    return m_x
        .xdotool({QStringLiteral("type"), QStringLiteral("--delay"), QStringLiteral("50"), text})
        .ok;
}

bool AdminProcess::click(const QString& window, QPoint at) const
{
    if (!activate(window))
        return false;
    return m_x
        .xdotool({QStringLiteral("mousemove"), QStringLiteral("--sync"), QString::number(at.x()),
                  QString::number(at.y()), QStringLiteral("click"), QStringLiteral("1")})
        .ok;
}
