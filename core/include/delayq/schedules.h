#pragma once

#include <delayq/connection.h>
#include <delayq/keys.h>
#include <delayq/schedule.h>

#include <optional>
#include <string>
#include <vector>

namespace delayq {

// The schedules of one native queue (docs/schedules.md). Changes run as Lua scripts
// (schedule_put, schedule_rm) that write an audit entry when the connection has an actor;
// reads are pipelined commands. Synchronous, like Queue. Throws Error.
class Schedules
{
public:
    Schedules(Connection& connection, const std::string& queue, const std::string& prefix = "dq");

    // Adds a new schedule. An `every` rule without an anchor gets server now + every (its
    // first fire). Throws InvalidArgument (the rule), Exists, TooLarge (the payload).
    ScheduleInfo add(ScheduleRule rule);
    // Replaces an existing one's rule at once: the old rule never fires again, the new one
    // from its next fire after now; the counters stay. expectVersion > 0: only when the stored
    // version is still that one, else nullopt. Throws as add, NotFound.
    std::optional<ScheduleInfo> replace(ScheduleRule rule, long long expectVersion = 0);
    // Read, change, write again until no other client changed it in between (a few tries).
    ScheduleInfo setPaused(const std::string& name, bool paused);
    // False when there was no such schedule. The tasks its fires made stay.
    bool remove(const std::string& name);

    std::optional<ScheduleInfo> get(const std::string& name);
    // By name.
    std::vector<ScheduleInfo> list();
    // How late the earliest unfired fire is at server now (ms, 0 when none is late).
    long long lagMs();

    struct TickResult
    {
        long long serverNow = 0;
        long long made = 0;    // tasks
        long long skipped = 0; // fires older than their catch-up window
        // When a fire is due next (server ms), nullopt when no schedule will fire. At or
        // before serverNow: more is due already (call again).
        std::optional<long long> nextFire;
        std::string problem; // the first schedule that could not be planned, and why
    };
    // One worker's turn: makes the tasks of every due fire (at most maxFires a schedule) and
    // advances each schedule, each in one schedule_fire call that does nothing when another
    // worker did it first or the schedule changed meanwhile.
    TickResult tick(size_t maxFires = 100);

    struct RunNowResult
    {
        std::string taskId; // "s:NAME:run:REQUEST"
        bool made = false;  // false: that request was run already (its task is still there)
        long long serverNow = 0;
    };
    // Fires the schedule once at once: one task due at server now, with the id of the request
    // (1 to 64 of letters, digits, . _ -), so the same request repeated makes nothing twice.
    // The rule and its next fire stay. Throws InvalidArgument (the request id), NotFound,
    // NoPermission (read-only).
    RunNowResult runNow(const std::string& name, const std::string& requestId);

    struct BackfillResult
    {
        std::vector<long long> fires; // the rule's fires in the window, ascending
        long long made = 0;           // tasks made
        long long already = 0;        // fires the schedule had made already
        long long serverNow = 0;
    };
    static constexpr size_t kMaxBackfillFires = 1000;
    static constexpr size_t kBackfillBatch = 200; // fires per schedule_make call
    // Makes the rule's fires in [fromMs, toMs), each as the rule's own fire would have made it
    // (id "s:NAME:FIRE_MS", due at the fire plus its jitter), except those the schedule made
    // already: a backfill repeated, or over fires that happened, makes nothing twice. Throws
    // InvalidArgument (the window empty, ending after server now, reaching the next fire, or
    // holding more than kMaxBackfillFires fires), NotFound, NoPermission; nothing is made then.
    BackfillResult backfill(const std::string& name, long long fromMs, long long toMs);

private:
    Reply make(const std::string& name, std::vector<std::string> args, const char* what);
    std::optional<ScheduleInfo> write(const char* mode, const ScheduleRule& rule,
                                      long long expectVersion, long long serverNow);

    Connection& m_connection;
    Keys m_keys;
};

} // namespace delayq
