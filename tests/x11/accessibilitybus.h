#pragma once

#include <QDBusConnection>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRect>
#include <QString>
#include <QTemporaryDir>

#include <functional>
#include <memory>

// What a screen reader reads of an app: its widgets as AT-SPI objects (role, name, place on
// the screen). A private session bus that activates nothing, and at-spi-bus-launcher on it,
// which runs the accessibility bus the apps publish on. Stopped by the destructor (the bus
// and launcher also die with the test process; the accessibility bus the launcher started
// outlives a test process killed with SIGKILL).
class XSession;

class AccessibilityBus
{
public:
    struct Node
    {
        QString role;  // AT-SPI role name: "table cell", "label", "push button", …
        QString name;  // a label's or a cell's text
        QRect extents; // on the screen
        bool showing = false;
        bool selected = false;
    };

    AccessibilityBus() = default;
    ~AccessibilityBus();
    AccessibilityBus(const AccessibilityBus&) = delete;
    AccessibilityBus& operator=(const AccessibilityBus&) = delete;

    // Starts both buses for the programs on x; false with errorString() when they do not
    // come up in 10 s.
    bool start(const XSession& x);
    void stop();
    QString errorString() const { return m_error; }
    // The session bus's address, for the programs that publish on it.
    QString sessionAddress() const { return m_address; }

    // Why it cannot start here ("" when it can): dbus-daemon or at-spi-bus-launcher missing.
    static QString missingTools();

    // Every shown object of the app with process id pid, depth first ("" roles skipped).
    QList<Node> nodes(qint64 pid);

private:
    QString startBus(std::unique_ptr<QProcess>& process, const QString& type);
    QString serviceOf(qint64 pid);
    void walk(const QString& service, const QString& path, QList<Node>* out);

    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_bus;
    std::unique_ptr<QProcess> m_launcher;
    QString m_address;
    QString m_a11yName;
    QString m_error;
};
