#pragma once

#include <chrono>
#include <string>
#include <sys/types.h>
#include <vector>

namespace delayq::pipe {

// One consumer process: /bin/sh -c COMMAND with pipes on its stdin and stdout (its stderr is
// ours), in a process group of its own so that stopping it reaches what it started too, and
// so that the terminal's Ctrl-C reaches the worker only: the worker decides when the consumer
// ends (after the tasks in hand), by closing its stdin. Our ends of the pipes are
// non-blocking and close-on-exec (so a consumer of another thread never holds them).
class PipeProcess
{
public:
    // Starts it with the worker's environment plus `extraEnvironment` ("NAME=value", replacing
    // a variable of that name). Throws Error(Connection) when it cannot be started.
    PipeProcess(const std::string& command, const std::vector<std::string>& extraEnvironment);
    // stop(): never leaves the process behind.
    ~PipeProcess();
    PipeProcess(const PipeProcess&) = delete;
    PipeProcess& operator=(const PipeProcess&) = delete;

    pid_t pid() const { return m_pid; }
    int inputFd() const { return m_in; }   // its stdin; -1 once closed
    int outputFd() const { return m_out; } // its stdout; -1 once closed
    void closeInput();
    void closeOutput();

    // Reaps it if it has exited (without waiting): true once it has.
    bool hasExited();
    // Waits up to `timeout` for it to exit: true once it has.
    bool waitForExit(std::chrono::milliseconds timeout);
    // "exited with status N" / "was killed by signal N (SIGKILL)"; empty while it runs.
    const std::string& exitReason() const { return m_exitReason; }

    // Ends it: SIGTERM to its group, up to `grace` to exit, then SIGKILL; reaped.
    void kill(std::chrono::milliseconds grace);
    // Ends it gently: its stdin closed, up to `exitGrace` to exit on its own, then kill().
    void stop(std::chrono::milliseconds exitGrace, std::chrono::milliseconds killGrace);

private:
    void reaped(int status);
    void signalGroup(int signal) const;

    pid_t m_pid = -1;
    int m_in = -1;
    int m_out = -1;
    bool m_exited = false;
    std::string m_exitReason;
};

} // namespace delayq::pipe
