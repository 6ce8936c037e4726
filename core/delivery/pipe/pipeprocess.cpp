#include "pipeprocess.h"

#include <delayq/error.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace delayq::pipe {

namespace {

using Clock = std::chrono::steady_clock;

// A pipe whose both ends are close-on-exec and above stderr (a dup2 onto 0 or 1 of an fd
// that already is 0 or 1 would keep its close-on-exec flag and lose it in the child).
bool makePipe(int fds[2])
{
    if (pipe2(fds, O_CLOEXEC) != 0)
        return false;
    for (int i = 0; i < 2; ++i) {
        if (fds[i] > 2)
            continue;
        const int moved = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
        close(fds[i]);
        fds[i] = moved;
    }
    if (fds[0] >= 0 && fds[1] >= 0)
        return true;
    for (int i = 0; i < 2; ++i)
        if (fds[i] >= 0)
            close(fds[i]);
    return false;
}

void closeFd(int& fd)
{
    if (fd >= 0)
        close(fd);
    fd = -1;
}

// Larger pipe buffers: a batch of small lines goes in a write or two (the kernel caps the
// size at /proc/sys/fs/pipe-max-size; a refusal keeps the default 64 KiB, which also works).
void widen(int fd)
{
    fcntl(fd, F_SETPIPE_SZ, 1 << 20);
}

bool hasName(const char* entry, const std::vector<std::string>& extra)
{
    for (const std::string& e : extra) {
        const size_t eq = e.find('=');
        if (std::strncmp(entry, e.c_str(), eq + 1) == 0)
            return true;
    }
    return false;
}

std::vector<std::string> environmentWith(const std::vector<std::string>& extra)
{
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e)
        if (!hasName(*e, extra))
            env.emplace_back(*e);
    env.insert(env.end(), extra.begin(), extra.end());
    return env;
}

[[noreturn]] void cannotStart(const char* what, int error)
{
    throw Error(ErrorCode::Connection,
                std::string("cannot start the consumer: ") + what + ": " + std::strerror(error));
}

} // namespace

PipeProcess::PipeProcess(const std::string& command,
                         const std::vector<std::string>& extraEnvironment)
{
    int in[2] = {-1, -1};
    int out[2] = {-1, -1};
    if (!makePipe(in))
        cannotStart("pipe", errno);
    if (!makePipe(out)) {
        const int error = errno;
        close(in[0]);
        close(in[1]);
        cannotStart("pipe", error);
    }
    widen(in[1]);
    widen(out[0]);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    // Worker threads block SIGINT/SIGTERM (the CLI takes them with sigwait) and SIGPIPE; a
    // blocked mask survives exec, and then the consumer could not be stopped by SIGTERM nor
    // see EPIPE as a signal. Its own group: see the header.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT, SIGCHLD})
        sigaddset(&defaults, s);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr,
                             POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);

    std::vector<std::string> env = environmentWith(extraEnvironment);
    std::vector<char*> envp;
    for (std::string& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string sh = "/bin/sh", dashC = "-c", cmd = command;
    char* argv[] = {sh.data(), dashC.data(), cmd.data(), nullptr};
    const int error = posix_spawn(&m_pid, "/bin/sh", &actions, &attr, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(in[0]);
    close(out[1]);
    if (error != 0) {
        close(in[1]);
        close(out[0]);
        m_pid = -1;
        cannotStart("/bin/sh", error);
    }
    m_in = in[1];
    m_out = out[0];
    fcntl(m_in, F_SETFL, fcntl(m_in, F_GETFL) | O_NONBLOCK);
    fcntl(m_out, F_SETFL, fcntl(m_out, F_GETFL) | O_NONBLOCK);
}

PipeProcess::~PipeProcess()
{
    stop(std::chrono::milliseconds(2000), std::chrono::milliseconds(1000));
    closeOutput();
}

void PipeProcess::closeInput()
{
    closeFd(m_in);
}

void PipeProcess::closeOutput()
{
    closeFd(m_out);
}

void PipeProcess::reaped(int status)
{
    m_exited = true;
    if (WIFEXITED(status)) {
        m_exitReason = "exited with status " + std::to_string(WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char* name = sigabbrev_np(sig);
        m_exitReason = "was killed by signal " + std::to_string(sig) +
                       (name ? std::string(" (SIG") + name + ")" : std::string());
    } else {
        m_exitReason = "ended";
    }
    // What it started and left running would hold our pipes and outlive the worker.
    signalGroup(SIGKILL);
}

bool PipeProcess::hasExited()
{
    if (m_exited || m_pid <= 0)
        return true;
    int status = 0;
    pid_t r;
    do
        r = waitpid(m_pid, &status, WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == m_pid)
        reaped(status);
    else if (r < 0) { // reaped by someone else (a SIGCHLD handler with waitpid(-1))
        m_exited = true;
        m_exitReason = "ended";
    }
    return m_exited;
}

bool PipeProcess::waitForExit(std::chrono::milliseconds timeout)
{
    const auto deadline = Clock::now() + timeout;
    auto nap = std::chrono::milliseconds(1);
    while (!hasExited()) {
        if (Clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(nap);
        nap = std::min(nap * 2, std::chrono::milliseconds(20));
    }
    return true;
}

void PipeProcess::signalGroup(int signal) const
{
    if (m_pid > 0)
        ::kill(-m_pid, signal); // ESRCH once the whole group is gone
}

void PipeProcess::kill(std::chrono::milliseconds grace)
{
    if (hasExited())
        return;
    signalGroup(SIGTERM);
    if (waitForExit(grace))
        return;
    signalGroup(SIGKILL);
    waitForExit(std::chrono::milliseconds(60000));
}

void PipeProcess::stop(std::chrono::milliseconds exitGrace, std::chrono::milliseconds killGrace)
{
    closeInput();
    if (!waitForExit(exitGrace))
        kill(killGrace);
}

} // namespace delayq::pipe
