#pragma once

#include <delayq/auditentry.h>
#include <delayq/connection.h>
#include <delayq/keys.h>

#include <vector>

namespace delayq {

// Reads a queue's audit trail: plain XREVRANGE, so a read-only ACL user can read it.
class AuditLog
{
public:
    AuditLog(Connection& connection, Keys keys);

    // Newest first: the entries made at or after sinceMs (server clock; 0 = from the start),
    // at most `limit` (1..10000). Throws Error(InvalidArgument) for a bad limit or time.
    std::vector<AuditEntry> read(long long sinceMs, int limit);

    // One XREVRANGE element, {id, {field, value, …}}; unknown fields are ignored, so an entry
    // written by a later delayq still reads.
    static AuditEntry parse(const Reply& element);

private:
    Connection& m_connection;
    Keys m_keys;
};

} // namespace delayq
