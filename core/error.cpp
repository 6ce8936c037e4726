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

} // namespace delayq
