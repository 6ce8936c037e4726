#pragma once

#include <delayq/connection.h>
#include <delayq/task.h>

#include <string>
#include <vector>

namespace delayq {

// The requests of one Queue::pushBatch: all checked when it is made, so a bad one refuses the
// whole batch before anything is sent; then one push.lua call per at most kTasksPerCall
// requests with the same mode, due kind and settings (gathered from the whole batch, not only
// side by side: see splitIntoCalls), and the results in request order.
class PushBatch
{
public:
    // nowMs: the server's now, read once for all the delays. Throws Error(InvalidArgument).
    PushBatch(const std::vector<PushRequest>& requests, long long nowMs);

    // keys: Queue::scriptKeys(); actor: Queue::actorArg().
    std::vector<Connection::ScriptCall> calls(const std::vector<std::string>& keys,
                                              const std::string& wakeKey,
                                              const std::string& actor) const;
    // From the replies to calls(), pipelined; throws the first error reply.
    std::vector<PushResult> results(const std::vector<Reply>& replies) const;

private:
    // The request indices of each call, ascending.
    using Chunk = std::vector<size_t>;
    std::vector<Chunk> splitIntoCalls() const;
    // Refuses a dedup window or debounce the script would refuse, naming why.
    static void checkKeep(const PushRequest& r);
    // The settings' EXPIRES field (push.lua, since 2.9): "" for none, "+MS" for a maximum age,
    // else the start-by ms. Throws InvalidArgument for one that could never let the task run.
    static std::string expiresField(const PushRequest& r, long long nowMs);
    // push.lua's ARGV[1]: "nx", "replace", "debounce:MS" or "debounce_payload:MS".
    static std::string mode(const PushRequest& r);
    static constexpr long long kMaxKeepMs = 366LL * 24 * 3600 * 1000;

    const std::vector<PushRequest>& m_requests;
    std::vector<std::string> m_ids;      // generated where a request has none
    std::vector<std::string> m_settings; // push.lua's "" or "MAX_ATTEMPTS|BACKOFF"
    std::vector<Chunk> m_chunks;         // one per push.lua call
};

} // namespace delayq
