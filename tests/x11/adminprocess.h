#pragma once

#include "xsession.h"

#include <QPoint>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

// The built delayq-admin on an XSession, with a HOME of its own (no setting read from the
// machine's user or left to the next start), driven only through xdotool: pointer and keys
// as an operator's, window titles read back. Stopped by the destructor.
class AdminProcess
{
public:
    // a11yBus: the session bus on which the app publishes its widgets (AccessibilityBus).
    AdminProcess(const XSession& x, QString a11yBus);
    ~AdminProcess();
    AdminProcess(const AdminProcess&) = delete;
    AdminProcess& operator=(const AdminProcess&) = delete;

    // Starts delayq-admin with args and waits (up to timeoutMs) for its main window.
    bool start(const QStringList& args, int timeoutMs);
    void stop();
    bool isRunning() const;
    qint64 pid() const;
    QString errorString() const { return m_error; }
    // What the app wrote on stdout and stderr so far.
    QByteArray output();

    QString mainWindow() const { return m_window; }
    // The titles of the app's visible windows, the main window's first.
    QStringList titles() const;
    QString title(const QString& window) const;
    // The visible window of the app whose title matches pattern (a regular expression), or "".
    QString findWindow(const QString& pattern) const;

    // Gives window the keyboard focus (the window manager raises it) and waits until it has.
    bool activate(const QString& window) const;
    // Key presses (xdotool key names: "Delete", "ctrl+r", "Return") to window.
    bool key(const QString& window, const QStringList& keys) const;
    // Types text into whatever has the focus in window.
    bool type(const QString& window, const QString& text) const;
    // A left click at (x, y) of the screen, window given the focus first.
    bool click(const QString& window, QPoint at) const;

private:
    QStringList visibleWindows() const;

    const XSession& m_x;
    QString m_a11yBus;
    QTemporaryDir m_home;
    std::unique_ptr<QProcess> m_process;
    QByteArray m_output;
    QString m_window;
    QString m_error;
};
