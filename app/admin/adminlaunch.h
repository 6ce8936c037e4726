#pragma once

#include "adminoptions.h"
#include "client/connectiontypes.h"
#include "connection/passwordstore.h"
#include "connection/sandboxserver.h"

#include <QString>

#include <memory>

namespace delayq::ui {
class MainWindow;
}

// One start of delayq-admin after its options are read: which server (the one given, the
// last one, or a sandbox), the window connected to it, and what opens in it. main owns it for
// as long as the event loop runs, so the lambdas connected to the window may use its members.
class AdminLaunch
{
public:
    explicit AdminLaunch(const AdminOptions& options);
    ~AdminLaunch();

    // Runs the app (or a measurement) to its end; returns the process exit code.
    int run();

    // "delayq-admin: message" on stderr.
    static void fail(const QString& message);

private:
    // Starts the sandbox when one is used and checks the URL; 0, or the exit code.
    int prepareServer();
    void showWindow();
    // Connects the window; true when that waits for the keychain's answer.
    bool connectWindow(delayq::ui::ConnectionSettings settings);
    delayq::ui::ConnectionSettings connectionSettings() const;
    // Opens what the command line asked for: a plain key, a queue, or (nothing) the queue
    // open when the app last closed on the same server.
    void openRequested(const QString& fallbackQueue);
    void fillDemo();
    int measure();
    void saveScreenshotWhenShown();

    AdminOptions m_options;
    delayq::ui::ConnectionSettings m_last;
    bool m_useLast = false;
    bool m_useSandbox = false;
    QString m_url;
    QString m_queue;
    // Declared before the window: the server outlives everything connected to it.
    delayq::ui::SandboxServer m_server;
    std::unique_ptr<delayq::ui::MainWindow> m_window;
    delayq::ui::PasswordStore m_keychain;
};
