#pragma once

#include <string>

namespace delayq {

// Who is making a change, for the audit trail (docs/design.md, "Audit trail"). The CLI and the
// app set one on their ConnectionOptions; it stays empty (the default) for workers and library
// producers, whose calls write no audit entry: the trail records people's actions.
struct Actor
{
    std::string osUser;
    std::string host;
    std::string tool; // "delayq" | "delayq-admin"; empty = no actor
    std::string version;

    bool empty() const { return tool.empty(); }

    // This process's OS user (its passwd entry, else $USER, else "?") and host name.
    static Actor ofThisProcess(const std::string& tool, const std::string& version);

    // The value the scripts take as their last ARGV (take_actor in lua/common.lua): "" when
    // empty, else the ACL user, OS user, host, tool and version on lines of their own, each
    // cut to 128 bytes with control characters replaced, so no field can forge another.
    std::string scriptArg(const std::string& aclUser) const;
};

} // namespace delayq
