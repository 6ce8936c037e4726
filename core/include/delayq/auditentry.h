#pragma once

#include <string>
#include <vector>

namespace delayq {

// One entry of a queue's audit trail, dq:{Q}:audit (docs/design.md, "Audit trail"): a change a
// person made through the CLI or the app, written by the script that made it.
struct AuditEntry
{
    std::string id;       // the stream id, "MS-SEQ"
    long long timeMs = 0; // the server's clock when the change was made (from the id)
    // push | cancel | reschedule | requeue | delete | purge | config | pause | resume | import
    // | reshard (detail "FROM>TO")
    std::string action;
    long long count = 0;          // tasks the action changed (0 for config, pause and resume)
    std::vector<std::string> ids; // the first of them, at most 10
    std::string detail;           // "force", "due=MS", "all", "FIELD=VALUE", or empty
    std::string user;             // the ACL user ("?" when it could not be asked)
    std::string osUser;
    std::string host;
    std::string tool; // delayq | delayq-admin
    std::string version;
    // cancel, purge, delete (since layout 2.9): the recycle bin action that kept the tasks
    // (RecycleBin::restoreAction); empty for the other actions.
    std::string bin;
};

} // namespace delayq
