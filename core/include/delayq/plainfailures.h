#pragma once

#include <delayq/connection.h>
#include <delayq/plainkeys.h>

#include <optional>
#include <string>
#include <vector>

namespace delayq {

class PlainQueue;

// What delayq knows of one member's failed deliveries (docs/targets/plain.md, "A member that
// keeps failing"), and whether it was parked.
struct PlainFailure
{
    std::string member;
    long long attempts = 0;     // failed deliveries recorded; 0: none
    long long lastFailedMs = 0; // server clock
    std::string lastError;      // at most PlainFailures::kErrorBytes
    std::optional<long long> parkedMs;
};

// The failures and the parked members of one plain key (PlainKeys::failures(), parked()).
// A forwarder records each failed delivery here, and parks a member that failed maxAttempts
// times: copied here first, then removed from the plain key only while it still holds its
// lease (the two may be on different cluster nodes, so no script can do both).
class PlainFailures
{
public:
    // The default of `work --plain --max-attempts`: with the default retry delay (one 30 s
    // lease) about 10 minutes of failing deliveries before a member is parked.
    static constexpr int kDefaultMaxAttempts = 20;
    static constexpr size_t kErrorBytes = 2000;

    PlainFailures(Connection& connection, std::string prefix, const std::string& plainKey);
    const PlainKeys& keys() const { return m_keys; }

    // One per member, in order (attempts 0: nothing recorded); one pipeline.
    std::vector<PlainFailure> read(const std::vector<std::string>& members);
    // Stores each record, then copies the ones with parkedMs into the parked set (a member is
    // never parked without its record). One pipeline.
    void write(const std::vector<PlainFailure>& failures);
    // Forgets the records of members that left the key for good (confirmed, dropped).
    void forget(const std::vector<std::string>& members);
    // Removes parked copies whose member stayed in the plain key (a park that lost its race).
    void unpark(const std::vector<std::string>& members);

    long long parkedCount();
    // Parked members, earliest parked first, with their records.
    std::vector<PlainFailure> parkedPage(long long offset, long long limit);
    // Per member: true when it was parked and is now back in the plain key due at dueMs, its
    // record gone (attempts start again); false when it is not parked. The member is added to
    // the key before it leaves the parked set: a crash between leaves it in both, and the next
    // forwarder that leases it finds it parked and finishes the park (never a loss).
    std::vector<bool> requeue(PlainQueue& queue, const std::vector<std::string>& members,
                              long long dueMs);
    // Per member: true when it was parked and is now deleted with its record.
    std::vector<bool> remove(const std::vector<std::string>& members);
    // Every parked member, at most `limit` (0: all), read in pages of 500.
    std::vector<std::string> parkedMembers(long long limit = 0);

    // "attempts|last_failed_ms|error" (the error last: it may hold '|').
    static std::string recordText(const PlainFailure& failure);
    static bool parseRecord(const std::string& text, PlainFailure& failure);

private:
    std::vector<bool> parkedFlags(const std::vector<std::string>& members);
    void requireWritable(const char* what) const;

    Connection& m_connection;
    PlainKeys m_keys;
};

} // namespace delayq
