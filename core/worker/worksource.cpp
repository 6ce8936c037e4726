#include "worker/worksource.h"

namespace delayq {

WorkerEvent WorkSource::releasedEvent(const ClaimedTask& task, long long lateness, const char* why)
{
    WorkerEvent event;
    event.id = task.id;
    event.attempt = task.attempts;
    event.due = task.due;
    event.lateness = lateness;
    event.outcome = TaskOutcome::Released;
    event.error = why;
    return event;
}

} // namespace delayq
