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
    case PushResult::Status::RecentlyDone:
        return "recently_done";
    case PushResult::Status::Debounced:
        return "debounced";
    case PushResult::Status::FollowUp:
        return "follow_up";
    }
    return "?";
}

PushResult::Status pushStatusFromName(const std::string& name)
{
    for (auto status : {PushResult::Status::Exists, PushResult::Status::Replaced,
                        PushResult::Status::TooLarge, PushResult::Status::Active,
                        PushResult::Status::RecentlyDone, PushResult::Status::Debounced,
                        PushResult::Status::FollowUp})
        if (name == pushStatusName(status))
            return status;
    return PushResult::Status::Created;
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
    case IdResult::Status::Exists:
        return "exists";
    case IdResult::Status::Moved:
        return "moved";
    }
    return "?";
}

IdResult::Status idStatusFromName(const std::string& name)
{
    for (auto status : {IdResult::Status::Done, IdResult::Status::Active, IdResult::Status::Dead,
                        IdResult::Status::Pending, IdResult::Status::Exists,
                        IdResult::Status::Moved})
        if (name == idStatusName(status))
            return status;
    return IdResult::Status::NotFound;
}

} // namespace delayq
