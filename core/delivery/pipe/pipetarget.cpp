#include "pipetarget.h"

#include "pipedelivery.h"
#include "pipeprocess.h"
#include <delayq/error.h>

#include <cerrno>
#include <unistd.h>

namespace delayq::pipe {

namespace {

std::string commandOf(const std::string& spec)
{
    const std::string command = spec.substr(5); // after "pipe:"
    if (command.find_first_not_of(" \t\n") == std::string::npos)
        throw Error(ErrorCode::InvalidArgument,
                    "pipe:CMD needs a command (pipe:python3 consumer.py)");
    return command;
}

// What the check's process wrote (sh's complaint), trimmed.
std::string readAll(int fd)
{
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
            text.append(buf, static_cast<size_t>(n));
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text;
}

} // namespace

DeliveryFactory factory(const std::string& spec, const DeliveryOptions& options)
{
    const std::string command = commandOf(spec);
    return [command, options](int thread) -> std::unique_ptr<Delivery> {
        return std::make_unique<PipeDelivery>(command, options, thread);
    };
}

void check(const std::string& spec, const DeliveryOptions&)
{
    // /bin/sh starts and the command parses (sh -n reads it without running anything): the
    // consumer itself only starts with the first task, so a check has no side effects.
    const std::string command = commandOf(spec);
    PipeProcess sh("exec /bin/sh -n -c \"$DELAYQ_PIPE_COMMAND\" 2>&1",
                   {"DELAYQ_PIPE_COMMAND=" + command});
    sh.closeInput();
    if (!sh.waitForExit(std::chrono::milliseconds(10000)))
        throw Error(ErrorCode::Timeout, "/bin/sh -n did not finish in 10 s");
    if (sh.exitReason() == "exited with status 0")
        return;
    std::string complaint = readAll(sh.outputFd());
    if (complaint.size() > 300)
        complaint.resize(300);
    throw Error(ErrorCode::InvalidArgument,
                "the pipe command is not valid /bin/sh: " +
                    (complaint.empty() ? sh.exitReason() : complaint));
}

std::string printable(const std::string& spec)
{
    return spec;
}

} // namespace delayq::pipe
