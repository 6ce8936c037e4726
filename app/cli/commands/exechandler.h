#pragma once

#include <delayq/worker.h>

#include <functional>
#include <string>

namespace cli {

// The exec:CMD handler: runs CMD with /bin/sh -c per task, the payload on its stdin and
// DELAYQ_TASK_ID, DELAYQ_QUEUE, DELAYQ_ATTEMPT in its environment. Exit 0 acks; anything
// else fails the task with the exit status and the tail of its stderr. Its stdout goes to
// ours. Killed when `aborted` turns true (the second Ctrl-C).
class ExecHandler
{
public:
    ExecHandler(std::string command, std::string queue, std::function<bool()> aborted);

    delayq::HandlerResult operator()(const delayq::ClaimedTask& task) const;

private:
    std::string m_command;
    std::string m_queue;
    std::function<bool()> m_aborted;
};

} // namespace cli
