#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace delayq::ui {

// A private redis-server for the sandbox: a free loopback port, data in a temporary folder,
// no persistence. It stops (and the folder goes) when this object is destroyed.
class SandboxServer
{
public:
    SandboxServer();
    ~SandboxServer();
    SandboxServer(const SandboxServer&) = delete;
    SandboxServer& operator=(const SandboxServer&) = delete;

    // Starts the server and waits until it answers (at most 10 s). False: see errorString().
    bool start();
    void stop();
    bool isRunning() const;
    QString url() const;
    int port() const { return m_port; }
    QString errorString() const { return m_error; }

private:
    std::unique_ptr<QTemporaryDir> m_dir; // made by the first start()
    std::unique_ptr<QProcess> m_process;
    int m_port = 0;
    QString m_error;
};

} // namespace delayq::ui
