#include <delayq/error.h>

namespace delayq {

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::Connection:
        return "connection";
    case ErrorCode::Timeout:
        return "timeout";
    case ErrorCode::Auth:
        return "auth";
    case ErrorCode::Tls:
        return "tls";
    case ErrorCode::NoPermission:
        return "no-permission";
    case ErrorCode::ReadOnlyReplica:
        return "read-only-replica";
    case ErrorCode::OutOfMemory:
        return "out-of-memory";
    case ErrorCode::DiskError:
        return "disk-error";
    case ErrorCode::NoReplicas:
        return "no-replicas";
    case ErrorCode::WrongType:
        return "wrong-type";
    case ErrorCode::NotFound:
        return "not-found";
    case ErrorCode::Exists:
        return "exists";
    case ErrorCode::LeaseLost:
        return "lease-lost";
    case ErrorCode::TooLarge:
        return "too-large";
    case ErrorCode::InvalidArgument:
        return "invalid-argument";
    case ErrorCode::Protocol:
        return "protocol";
    case ErrorCode::Script:
        return "script";
    case ErrorCode::OldLayout:
        return "old-layout";
    }
    return "unknown";
}

Error::Error(ErrorCode code, const std::string& message) : std::runtime_error(message), m_code(code)
{}

bool Error::isUnreachable() const
{
    return m_code == ErrorCode::Connection || m_code == ErrorCode::Timeout;
}

bool Error::refusesWrites() const
{
    return m_code == ErrorCode::ReadOnlyReplica || m_code == ErrorCode::OutOfMemory ||
           m_code == ErrorCode::DiskError || m_code == ErrorCode::NoReplicas;
}

Error errorFromReply(const std::string& msg)
{
    struct Mapping
    {
        const char* word;
        ErrorCode code;
    };
    static const Mapping mappings[] = {
        {"WRONGTYPE", ErrorCode::WrongType},
        {"NOPERM", ErrorCode::NoPermission},
        {"NOAUTH", ErrorCode::Auth},
        {"WRONGPASS", ErrorCode::Auth},
        {"READONLY", ErrorCode::ReadOnlyReplica},
        {"OOM", ErrorCode::OutOfMemory},
        {"NOREPLICAS", ErrorCode::NoReplicas},
        {"MISCONF", ErrorCode::DiskError},
        {"BUSY", ErrorCode::Timeout},
        {"LEASE_LOST", ErrorCode::LeaseLost},
        {"NOT_FOUND", ErrorCode::NotFound},
        {"EXISTS", ErrorCode::Exists},
        {"TOO_LARGE", ErrorCode::TooLarge},
        {"INVALID", ErrorCode::InvalidArgument},
        {"OLD_LAYOUT", ErrorCode::OldLayout},
        // Fair order's refusals (lua/push.lua, lua/config.lua): the rest of the text says why.
        {"FAIR ", ErrorCode::InvalidArgument},
        // A cluster still redirecting after the router's retries, or missing slots: an
        // outage to wait out, like a server that is away.
        {"CLUSTERDOWN", ErrorCode::Connection},
        {"TRYAGAIN", ErrorCode::Connection},
        {"MOVED", ErrorCode::Connection},
        {"ASK ", ErrorCode::Connection},
    };
    for (const auto& m : mappings) {
        if (msg.starts_with(m.word)) {
            std::string text = msg;
            const Error typed(m.code, msg);
            if (std::string_view(m.word) == "FAIR ")
                text = msg.substr(5);
            else if (m.code == ErrorCode::NoPermission)
                text += " (the Redis ACL user lacks this right: ask for it, or connect read-only)";
            else if (typed.refusesWrites())
                text = "Redis refuses writes: " + msg;
            else if (m.code == ErrorCode::WrongType)
                text = "a key holds the wrong type of Redis value (not a delayq queue?): " + msg;
            return Error(m.code, text);
        }
    }
    if (msg.starts_with("ERR Error running script") ||
        msg.find("@user_script") != std::string::npos)
        return Error(ErrorCode::Script, "a delayq script failed in Redis: " + msg);
    return Error(ErrorCode::Protocol, "Redis replied with an error: " + msg);
}

} // namespace delayq
