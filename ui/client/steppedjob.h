#pragma once

#include "client/requesterror.h"

#include <QString>

#include <functional>

namespace delayq {
class Connection;
}

namespace delayq::ui {

// Long work on the I/O thread in bounded steps: one step per posted job, so requests asked
// for meanwhile are answered between steps, and Redis is never held for long. Serves every
// queue-wide change, member search and key discovery.
struct SteppedJob
{
    enum class End
    {
        Done,          // a step said there is nothing more, or one failed (error set)
        Cancelled,     // cancelled() said stop before a step
        ServerChanged, // the app connected to another server since the job started
    };

    // Checked before each step.
    std::function<bool()> cancelled = [] { return false; };
    // One bounded step; true when there is more to do.
    std::function<bool(delayq::Connection&)> step;
    // After each step that leaves more to do.
    std::function<void()> progressed = [] {};
    // What the job does, for the error it may end with ("purge", "search members").
    QString operation;
    // Once, at the end; error is empty unless a step failed.
    std::function<void(End end, const RequestError& error)> finished;
};

} // namespace delayq::ui
