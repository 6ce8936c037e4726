#pragma once

#include <stdexcept>
#include <string>

namespace delayq {

enum class ErrorCode
{
    Connection,
    Timeout,
    Auth,
    Tls,             // the TLS handshake or certificate check failed, or TLS on one side only
    NoPermission,    // NOPERM: the ACL user lacks the right
    ReadOnlyReplica, // READONLY: a replica (or a demoted master) refuses writes
    OutOfMemory,     // OOM: maxmemory reached under a noeviction policy
    DiskError,       // MISCONF: persistence failed and the server stopped writes
    NoReplicas,      // NOREPLICAS: min-replicas-to-write is not met
    WrongType,
    NotFound,
    Exists,
    LeaseLost,
    TooLarge,
    InvalidArgument,
    Protocol,
    Script,
    OldLayout, // the queue is stored in an older delayq's layout: `delayq upgrade` converts it
};

// Stable lower-case name of a code ("lease-lost"), for logs, JSON and the CLI.
const char* errorCodeName(ErrorCode code);

// The one error type of the core. The message says what happened and what to do;
// it never contains a password.
class Error : public std::runtime_error
{
public:
    Error(ErrorCode code, const std::string& message);

    ErrorCode code() const { return m_code; }
    // The server cannot be reached or did not answer in time: retrying later may work.
    bool isUnreachable() const;
    // The server is there but refuses every write (replica, memory, disk, replicas), for
    // reasons of its own rather than of this user's rights.
    bool refusesWrites() const;

private:
    ErrorCode m_code;
};

// The Error for a Redis error reply, chosen by the reply's first word: the server's own
// (WRONGTYPE, NOPERM, READONLY, OOM, MISCONF, MOVED, …) and those of delayq's scripts
// (INVALID, LEASE_LOST, OLD_LAYOUT, …). The one table from server words to codes.
Error errorFromReply(const std::string& serverMessage);

} // namespace delayq
