#pragma once

#include <delayq/connection.h>

#include <optional>
#include <string>
#include <vector>

namespace delayq {

// A "plain" delay queue: any sorted set whose members are the messages themselves, scored
// by due time in ms or in s (what most home-grown Redis delay queues are). Everything that
// applies to such a key: list, count, chart, push, cancel, reschedule, pop, search, migrate.
class PlainQueue
{
public:
    enum class ScoreUnit
    {
        Milliseconds,
        Seconds
    };

    struct Member
    {
        std::string member; // binary-safe message
        std::string score;  // exactly as Redis holds it
        long long dueMs = 0;
    };

    struct PopResult
    {
        std::vector<Member> members;
        std::optional<long long> nextDue; // ms
        long long serverNow = 0;
        // lease() only: every member's score until the lease is settled, as plain_lease
        // wrote it, and that time in ms.
        std::string leaseScore;
        long long leaseUntil = 0;
    };

    // One lease to end (settle()): remove the member (newDueMs empty) or move it to a due time.
    struct Settlement
    {
        std::string member;
        std::string leaseScore; // PopResult::leaseScore of the lease() that took it
        std::optional<long long> newDueMs;
    };

    struct ScanResult
    {
        std::string cursor; // "0" when the scan is complete
        std::vector<Member> matches;
        long long scanned = 0;
    };

    struct Candidate
    {
        std::string key;
        ScoreUnit unit = ScoreUnit::Milliseconds;
        long long size = 0;
    };

    // Throws Error(WrongType) when the key exists and is not a sorted set.
    PlainQueue(Connection& connection, std::string key, std::optional<ScoreUnit> unit = {});

    const std::string& key() const { return m_key; }
    ScoreUnit unit() const { return m_unit; }
    static const char* unitName(ScoreUnit unit) { return unit == ScoreUnit::Seconds ? "s" : "ms"; }
    // "ms" | "s"; throws InvalidArgument otherwise.
    static ScoreUnit parseUnit(const std::string& text);
    // From the scores: below 1e11 they are seconds (1e11 ms is 1973, 1e11 s is year 5138).
    // An empty key (or one without a positive score) says nothing: ms then.
    static ScoreUnit detectUnit(Connection& connection, const std::string& key);
    // The same, but empty when the scores cannot tell (an empty key).
    static std::optional<ScoreUnit> unitFromScores(Connection& connection, const std::string& key);
    // Whether unit() was given or read from a score, not assumed for an empty key. A consumer
    // must not take members on an assumed unit: a member scored in s read as ms is 50 years
    // overdue and would be delivered at once (docs/targets/plain.md, "The score unit").
    bool unitKnown() const { return m_unitKnown; }

    long long size();
    long long dueNow();
    // Members due at or before ms.
    long long dueBy(long long ms);
    std::vector<Member> page(long long offset, long long limit);
    std::vector<Member> pageFromTime(long long fromMs, long long limit);
    long long rankOfTime(long long ms);
    // The member with its score, or nullopt when the key does not hold it.
    std::optional<Member> find(const std::string& member);
    std::optional<long long> rankOf(const std::string& member);
    std::vector<long long> histogram(long long fromMs, long long toMs, int buckets);

    // Per member: true added, false already there (its due time is left alone).
    std::vector<bool> push(const std::vector<std::string>& members, long long dueMs);
    // Per member: true removed, false no longer there.
    std::vector<bool> cancel(const std::vector<std::string>& members);
    // Per member: true moved, false no longer there.
    std::vector<bool> reschedule(const std::vector<std::string>& members, long long dueMs);
    // Takes up to maxMembers due members atomically; forwardList: LPUSH each there too.
    PopResult pop(int maxMembers, const std::string& forwardList = {});
    // For at-least-once delivery (docs/design.md, "Plain sorted-set queues"): takes up to
    // maxMembers due members atomically and leases them in place, their score moved to
    // server now + leaseMs, so a member nobody settles is due again when the lease runs out.
    PopResult lease(int maxMembers, long long leaseMs);
    // Ends leases: per settlement true when done, false when the member was left alone
    // because its score is no longer its lease score (rescheduled, taken again, removed).
    std::vector<bool> settle(const std::vector<Settlement>& settlements);

    // One bounded step of a search for members containing `needle` (ZSCAN COUNT count).
    // Start with cursor "0"; done when the returned cursor is "0" again.
    // 250: on a 1,000,000-member key a step costs Redis ~0.4 ms (1000 took ~2 ms, up to 7).
    ScanResult scan(const std::string& cursor, const std::string& needle, int count = 250);

    struct MigrateResult
    {
        long long moved = 0;   // created as native tasks
        long long skipped = 0; // already migrated by an earlier, interrupted run
        long long remaining = 0;
    };
    // Copies up to `limit` members (earliest first) into a native queue, then removes them
    // from this key. Each task id is derived from the member (sha1), so a run that was
    // interrupted and is started again never makes a second task of one member.
    MigrateResult migrateTo(const std::string& queue, const std::string& prefix, long long limit,
                            int batch = 500);

    // One bounded SCAN step over the database for sorted sets that look like delay queues
    // (scores within 1990..2200 as ms or s). Keys of native delayq queues are left out.
    // Start with cursor "0"; it is "0" again when the scan is done. On a cluster the step
    // scans one master and the cursor is "N:C" (SCAN cursor C on the Nth of
    // Connection::masters()), so repeated steps cover every master in turn.
    static std::vector<Candidate> discover(Connection& connection, std::string& cursor,
                                           const std::string& nativePrefix = "dq",
                                           int count = 1000);

    std::string scoreFor(long long dueMs) const;
    long long dueFromScore(const std::string& score) const;

private:
    void requireWritable(const char* what) const;
    std::vector<Member> members(const Reply& withScores) const;

    Connection& m_connection;
    std::string m_key;
    ScoreUnit m_unit;
    bool m_unitKnown = false;
};

} // namespace delayq
