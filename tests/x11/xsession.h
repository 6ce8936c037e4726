#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

// What one xdotool (or other X client) run left: ok when it exited with 0 in time.
struct XRun
{
    bool ok = false;
    QByteArray out;
    QByteArray err;
};

// Ends a helper process: terminate, then kill after 3 s; resets the pointer. Safe when null.
void stopProcess(std::unique_ptr<QProcess>& process);

// A private X server for one suite: Xvfb on a display number it picks itself (-displayfd),
// with openbox managing its windows, as on an operator's desktop. Stopped by the destructor;
// its processes also die with the test process (PR_SET_PDEATHSIG), even when that is killed.
class XSession
{
public:
    XSession() = default;
    ~XSession();
    XSession(const XSession&) = delete;
    XSession& operator=(const XSession&) = delete;

    // Starts Xvfb and openbox; false with errorString() when either does not come up in 10 s.
    bool start();
    void stop();
    QString display() const { return m_display; }
    QString errorString() const { return m_error; }

    // Runs xdotool on this display; killed after timeoutMs (its --sync waits have no end).
    XRun xdotool(const QStringList& args, int timeoutMs = 10000) const;
    // Runs another X client (xprop, import) on this display.
    XRun tool(const QString& program, const QStringList& args, int timeoutMs = 10000) const;
    // The whole screen as a PNG (ImageMagick's import), for looking at a failure afterwards.
    bool screenshot(const QString& path) const;

    // The environment a program on this display gets: DISPLAY set, HOME and the XDG folders
    // under home (so no setting of the machine's user is read or written), no session bus.
    QProcessEnvironment environment(const QString& home) const;

    // Why no session can be started here ("" when one can): Xvfb, openbox or xdotool missing.
    static QString missingTools();
    // Makes a QProcess's child die with this process.
    static void dieWithParent(QProcess& process);

private:
    bool waitForWindowManager();

    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_xvfb;
    std::unique_ptr<QProcess> m_wm;
    QString m_display;
    QString m_error;
};
