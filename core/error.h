#pragma once

#include <stdexcept>
#include <string>

namespace delayq {

enum class ErrorCode
{
    Connection,
    Timeout,
    Auth,
    NoPermission,
    WrongType,
    NotFound,
    Exists,
    LeaseLost,
    TooLarge,
    InvalidArgument,
    Protocol,
    Script,
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

private:
    ErrorCode m_code;
};

} // namespace delayq
