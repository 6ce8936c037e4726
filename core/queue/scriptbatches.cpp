#include "queue/scriptbatches.h"

#include "transport/replychecks.h"

#include <delayq/error.h>
#include <delayq/queue.h>

#include <algorithm>

namespace delayq {

namespace {

// Script calls take at most this many ids, so no call runs long on the server (the target is
// under 5 ms on a queue of millions: tests/limits/scriptlimits).
constexpr size_t kChunk = 500;

} // namespace

ScriptBatches::ScriptBatches(Queue& queue) : m_queue(queue) {}

std::vector<Connection::ScriptCall>
ScriptBatches::idCalls(const std::vector<std::string>& keys,
                       const std::vector<std::string>& leadingArgs,
                       const std::vector<std::string>& ids, const std::string& actor)
{
    std::vector<Connection::ScriptCall> calls;
    for (size_t begin = 0; begin < ids.size(); begin += kChunk) {
        size_t end = std::min(ids.size(), begin + kChunk);
        Connection::ScriptCall call{keys, leadingArgs};
        call.args.insert(call.args.end(), ids.begin() + static_cast<long>(begin),
                         ids.begin() + static_cast<long>(end));
        call.args.push_back(actor);
        calls.push_back(std::move(call));
    }
    return calls;
}

std::vector<IdResult> ScriptBatches::idResults(const Script& script,
                                               const std::vector<std::string>& ids,
                                               const std::vector<Reply>& replies)
{
    std::vector<IdResult> results;
    results.reserve(ids.size());
    size_t index = 0;
    for (const auto& reply : replies) {
        // cancel, reschedule, requeue and delete_dead all reply {done, remaining, {one
        // status per id}}: the statuses are at [2], whatever the script.
        requireArray(reply, 3, script.name.data());
        const Reply& statuses = reply.elements[2];
        requireArray(statuses, 0, script.name.data());
        for (const auto& word : statuses.elements)
            if (index < ids.size())
                results.push_back({ids[index++], idStatusFromName(word.str)});
    }
    return results;
}

std::vector<IdResult> ScriptBatches::byIds(const Script& script,
                                           const std::vector<std::string>& leadingArgs,
                                           const std::vector<std::string>& ids)
{
    for (const auto& id : ids)
        Keys::validateTaskId(id);
    const auto calls = idCalls(m_queue.scriptKeys(), leadingArgs, ids, m_queue.actorArg());
    return idResults(script, ids, m_queue.connection().evalPipeline(script, calls));
}

BulkResult ScriptBatches::untilDone(const Script& script, const std::vector<std::string>& args,
                                    int batch, int maxCalls)
{
    if (batch < 1 || batch > 1000)
        throw Error(ErrorCode::InvalidArgument, "a batch is 1 to 1000 tasks");
    BulkResult total;
    const auto keys = m_queue.scriptKeys();
    std::vector<std::string> argv = args;
    argv.push_back(m_queue.actorArg());
    // Bounded calls in a loop: Redis serves other clients between them.
    for (int calls = 0; maxCalls <= 0 || calls < maxCalls; ++calls) {
        Reply reply = m_queue.connection().evalScript(script, keys, argv);
        // {done, remaining, {}}: the shape of the calls by id (byIds), with no statuses.
        requireArray(reply, 3, script.name.data());
        long long done = reply.elements[0].toInteger();
        total.done += done;
        total.remaining = reply.elements[1].toInteger();
        if (done == 0 || total.remaining == 0)
            break;
    }
    return total;
}

} // namespace delayq
