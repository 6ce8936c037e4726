#include "accessibilitybus.h"

#include "xsession.h"

#include <QDBusArgument>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDBusPendingCall>
#include <QDBusReply>
#include <QDBusVariant>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QThread>

#include <csignal>

namespace {

constexpr int kBusStartMs = 10000;
const QString kAccessible = QStringLiteral("org.a11y.atspi.Accessible");
const QString kRoot = QStringLiteral("/org/a11y/atspi/accessible/root");
const QString kLauncher = QStringLiteral("/usr/libexec/at-spi-bus-launcher");
// AT-SPI state bits (atspi-constants.h).
constexpr int kStateSelected = 23;
constexpr int kStateShowing = 25;

// The processes whose parent is pid, and theirs (from /proc/*/stat: "pid (name) state ppid").
QList<qint64> descendants(qint64 pid)
{
    QList<qint64> found;
    QList<qint64> parents{pid};
    while (!parents.isEmpty()) {
        const qint64 parent = parents.takeFirst();
        for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
            if (!stat.open(QIODevice::ReadOnly))
                continue;
            const QByteArray line = stat.readAll();
            const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
            if (fields.size() > 1 && fields[1].toLongLong() == parent) {
                found << entry.toLongLong();
                parents << entry.toLongLong();
            }
        }
    }
    return found;
}

// A session bus that activates nothing: the app's keychain finds no secret service on it and
// gives up at once, and no daemon comes up on it.
const char* const kConfig = R"(<!DOCTYPE busconfig PUBLIC
 "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>%2</type>
  <listen>unix:path=%1</listen>

  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
)";

} // namespace

QString AccessibilityBus::missingTools()
{
    QStringList missing;
    if (QStandardPaths::findExecutable(QStringLiteral("dbus-daemon")).isEmpty())
        missing << QStringLiteral("dbus-daemon");
    if (!QFile::exists(kLauncher))
        missing << kLauncher;
    if (missing.isEmpty())
        return {};
    return missing.join(QLatin1String(", ")) +
           QStringLiteral(" not found on PATH: this suite reads the app as a screen reader does "
                          "(install the Debian packages dbus-daemon and at-spi2-core, or run "
                          "scripts/setup)");
}

AccessibilityBus::~AccessibilityBus()
{
    stop();
}

void AccessibilityBus::stop()
{
    if (!m_a11yName.isEmpty()) {
        QDBusConnection::disconnectFromBus(m_a11yName);
        m_a11yName.clear();
    }
    // The launcher leaves the accessibility bus it ran (and the registry that bus started)
    // running when it exits: they are stopped first, by their ids.
    if (m_launcher && m_launcher->state() == QProcess::Running)
        for (const qint64 pid : descendants(m_launcher->processId()))
            ::kill(static_cast<pid_t>(pid), SIGTERM);
    stopProcess(m_launcher);
    stopProcess(m_bus);
}

QString AccessibilityBus::startBus(std::unique_ptr<QProcess>& process, const QString& type)
{
    const QString socket = m_dir.filePath(type + QStringLiteral(".sock"));
    QFile config(m_dir.filePath(type + QStringLiteral(".conf")));
    const QByteArray text = QString::fromLatin1(kConfig).arg(socket, type).toUtf8();
    if (!config.open(QIODevice::WriteOnly) || config.write(text) < 0) {
        m_error = QStringLiteral("cannot write ") + config.fileName();
        return {};
    }
    config.close();
    process = std::make_unique<QProcess>();
    XSession::dieWithParent(*process);
    process->start(QStringLiteral("dbus-daemon"),
                   {QStringLiteral("--config-file=") + config.fileName(),
                    QStringLiteral("--nofork"), QStringLiteral("--print-address=1")});
    QDeadlineTimer deadline(kBusStartMs);
    while (!process->canReadLine() && !deadline.hasExpired() &&
           process->state() != QProcess::NotRunning)
        process->waitForReadyRead(100);
    const QString address = QString::fromLatin1(process->readLine().trimmed());
    if (address.isEmpty())
        m_error = QStringLiteral("dbus-daemon gave no address: ") +
                  QString::fromLocal8Bit(process->readAllStandardError());
    return address;
}

bool AccessibilityBus::start(const XSession& x)
{
    stop();
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("cannot create a temporary folder");
        return false;
    }
    m_address = startBus(m_bus, QStringLiteral("session"));
    if (m_address.isEmpty())
        return false;
    QProcessEnvironment env = x.environment(m_dir.path());
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_address);
    m_launcher = std::make_unique<QProcess>();
    XSession::dieWithParent(*m_launcher);
    m_launcher->setProcessEnvironment(env);
    m_launcher->setProcessChannelMode(QProcess::MergedChannels);
    m_launcher->start(kLauncher, {QStringLiteral("--launch-immediately")});

    const QString sessionName = QStringLiteral("x11-session-%1").arg(quintptr(this));
    QDBusConnection session = QDBusConnection::connectToBus(m_address, sessionName);
    QString a11yAddress;
    QDeadlineTimer deadline(kBusStartMs);
    while (a11yAddress.isEmpty() && !deadline.hasExpired()) {
        const QDBusReply<QString> reply = session.call(QDBusMessage::createMethodCall(
            QStringLiteral("org.a11y.Bus"), QStringLiteral("/org/a11y/bus"),
            QStringLiteral("org.a11y.Bus"), QStringLiteral("GetAddress")));
        if (reply.isValid())
            a11yAddress = reply.value();
        else
            QThread::msleep(50);
    }
    QDBusConnection::disconnectFromBus(sessionName);
    if (a11yAddress.isEmpty()) {
        m_error = QStringLiteral("at-spi-bus-launcher gave no accessibility bus in 10 s: ") +
                  QString::fromLocal8Bit(m_launcher->readAll());
        return false;
    }
    m_a11yName = QStringLiteral("x11-a11y-%1").arg(quintptr(this));
    if (!QDBusConnection::connectToBus(a11yAddress, m_a11yName).isConnected()) {
        m_error = QStringLiteral("cannot connect to the accessibility bus ") + a11yAddress;
        m_a11yName.clear();
        return false;
    }
    return true;
}

QString AccessibilityBus::serviceOf(qint64 pid)
{
    QDBusConnection bus(m_a11yName);
    const QStringList names = bus.interface()->registeredServiceNames().value();
    for (const QString& name : names) {
        if (!name.startsWith(QLatin1Char(':')))
            continue;
        if (bus.interface()->servicePid(name).value() == pid)
            return name;
    }
    return {};
}

QList<AccessibilityBus::Node> AccessibilityBus::nodes(qint64 pid)
{
    QList<Node> out;
    if (m_a11yName.isEmpty())
        return out;
    const QString service = serviceOf(pid);
    if (!service.isEmpty())
        walk(service, kRoot, &out);
    return out;
}

namespace {

struct Pending
{
    QString service;
    QString path;
    QDBusPendingCall state;
    QDBusPendingCall role;
    QDBusPendingCall name;
    QDBusPendingCall extents;
    QDBusPendingCall children;
};

// Whether the reply's first argument is a structure or an array to read.
bool structured(const QDBusMessage& reply)
{
    return reply.type() == QDBusMessage::ReplyMessage &&
           reply.arguments().value(0).userType() == qMetaTypeId<QDBusArgument>();
}

QList<uint> words(const QDBusMessage& reply)
{
    QList<uint> out;
    if (!structured(reply))
        return out;
    const auto arg = reply.arguments().value(0).value<QDBusArgument>();
    arg.beginArray();
    while (!arg.atEnd()) {
        uint w = 0;
        arg >> w;
        out << w;
    }
    arg.endArray();
    return out;
}

QRect rectOf(const QDBusMessage& reply)
{
    if (!structured(reply))
        return {};
    const auto arg = reply.arguments().value(0).value<QDBusArgument>();
    int x = 0, y = 0, w = 0, h = 0;
    arg.beginStructure();
    arg >> x >> y >> w >> h;
    arg.endStructure();
    return {x, y, w, h};
}

QList<std::pair<QString, QString>> childrenOf(const QDBusMessage& reply)
{
    QList<std::pair<QString, QString>> kids;
    if (!structured(reply))
        return kids;
    const auto arg = reply.arguments().value(0).value<QDBusArgument>();
    arg.beginArray();
    while (!arg.atEnd()) {
        QString service;
        QDBusObjectPath path;
        arg.beginStructure();
        arg >> service >> path;
        arg.endStructure();
        kids.append({service, path.path()});
    }
    arg.endArray();
    return kids;
}

} // namespace

// Level by level, every question of a level sent before the first answer is awaited: one
// object at a time took ~10 ms each (four round trips through the app's GUI thread).
void AccessibilityBus::walk(const QString& service, const QString& path, QList<Node>* out)
{
    constexpr int kMaxDepth = 40;
    QDBusConnection bus(m_a11yName);
    auto ask = [&bus](const QString& to, const QString& at, const QString& interface,
                      const QString& method, const QVariantList& args = {}) {
        QDBusMessage m = QDBusMessage::createMethodCall(to, at, interface, method);
        m.setArguments(args);
        return bus.asyncCall(m, 2000);
    };
    constexpr int kMaxNodes = 3000;
    QDeadlineTimer deadline(10000);
    QList<std::pair<QString, QString>> level{{service, path}};
    for (int depth = 0; depth <= kMaxDepth && !level.isEmpty() && !deadline.hasExpired() &&
                        out->size() < kMaxNodes;
         ++depth) {
        QList<Pending> pending;
        for (const auto& [to, at] : level) {
            pending.append({to, at, ask(to, at, kAccessible, QStringLiteral("GetState")),
                            ask(to, at, kAccessible, QStringLiteral("GetRoleName")),
                            ask(to, at, QStringLiteral("org.freedesktop.DBus.Properties"),
                                QStringLiteral("Get"), {kAccessible, QStringLiteral("Name")}),
                            ask(to, at, QStringLiteral("org.a11y.atspi.Component"),
                                QStringLiteral("GetExtents"), {QVariant::fromValue(0u)}),
                            ask(to, at, kAccessible, QStringLiteral("GetChildren"))});
        }
        level.clear();
        for (Pending& p : pending) {
            for (QDBusPendingCall* call : {&p.state, &p.role, &p.name, &p.extents, &p.children})
                call->waitForFinished();
            Node node;
            const QList<uint> state = words(p.state.reply());
            auto bit = [&state](int n) {
                return n / 32 < state.size() && ((state[n / 32] >> (n % 32)) & 1) != 0;
            };
            node.showing = bit(kStateShowing);
            node.selected = bit(kStateSelected);
            // The root (the application) is never "showing"; below it a hidden subtree is
            // skipped.
            if (depth > 0 && !node.showing)
                continue;
            node.role = p.role.reply().arguments().value(0).toString();
            node.name =
                p.name.reply().arguments().value(0).value<QDBusVariant>().variant().toString();
            node.extents = rectOf(p.extents.reply());
            if (depth > 0)
                out->append(node);
            level.append(childrenOf(p.children.reply()));
        }
    }
}
