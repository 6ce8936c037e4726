#include <delayq/task.h>

namespace delayq {

const char* taskSetName(TaskSet set)
{
    switch (set) {
    case TaskSet::Pending:
        return "pending";
    case TaskSet::Active:
        return "active";
    case TaskSet::Dead:
        return "dead";
    }
    return "?";
}

const char* pushStatusName(PushResult::Status status)
{
    switch (status) {
    case PushResult::Status::Created:
        return "created";
    case PushResult::Status::Exists:
        return "exists";
    case PushResult::Status::Replaced:
        return "replaced";
    case PushResult::Status::TooLarge:
        return "too_large";
    case PushResult::Status::Active:
        return "active";
    }
    return "?";
}

const char* idStatusName(IdResult::Status status)
{
    switch (status) {
    case IdResult::Status::Done:
        return "done";
    case IdResult::Status::NotFound:
        return "not_found";
    case IdResult::Status::Active:
        return "active";
    case IdResult::Status::Dead:
        return "dead";
    case IdResult::Status::Pending:
        return "pending";
    }
    return "?";
}

} // namespace delayq
