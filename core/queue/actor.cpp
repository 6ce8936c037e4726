#include <delayq/actor.h>

#include <cstdlib>
#include <pwd.h>
#include <unistd.h>

namespace delayq {

namespace {

std::string field(const std::string& text)
{
    std::string out = text.substr(0, 128);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = '?';
    return out;
}

} // namespace

Actor Actor::ofThisProcess(const std::string& tool, const std::string& version)
{
    Actor actor;
    actor.tool = tool;
    actor.version = version;
    // getpwuid_r: the app asks from its I/O thread while other threads may run.
    char buffer[4096];
    passwd entry{};
    passwd* found = nullptr;
    if (getpwuid_r(getuid(), &entry, buffer, sizeof buffer, &found) == 0 && found)
        actor.osUser = found->pw_name;
    else if (const char* user = std::getenv("USER"))
        actor.osUser = user;
    else
        actor.osUser = "?";
    char host[256] = {};
    actor.host = gethostname(host, sizeof host - 1) == 0 ? host : "?";
    return actor;
}

std::string Actor::scriptArg(const std::string& aclUser) const
{
    if (empty())
        return {};
    return field(aclUser) + '\n' + field(osUser) + '\n' + field(host) + '\n' + field(tool) + '\n' +
           field(version);
}

} // namespace delayq
