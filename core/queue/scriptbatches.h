#pragma once

#include <delayq/connection.h>
#include <delayq/script.h>
#include <delayq/task.h>

#include <string>
#include <vector>

namespace delayq {

class Queue;

// A script that changes tasks on someone's behalf, run over many tasks in bounded calls: by id
// (cancel, reschedule, requeue, delete_dead) or repeated until none is left (requeue all,
// delete all dead, purge). Every such script takes the queue's keys and the actor last, and
// replies {done, remaining, {one status per given id}} (docs/protocol.md, since layout 2.3).
class ScriptBatches
{
public:
    // Calls with queue's scriptKeys() and, last, its actorArg().
    explicit ScriptBatches(Queue& queue);

    // The calls byIds sends: of at most 500 ids, each leadingArgs, its ids, then the actor.
    static std::vector<Connection::ScriptCall> idCalls(const std::vector<std::string>& keys,
                                                       const std::vector<std::string>& leadingArgs,
                                                       const std::vector<std::string>& ids,
                                                       const std::string& actor);
    // A status for every id, in order, from the replies of idCalls.
    static std::vector<IdResult> idResults(const Script& script,
                                           const std::vector<std::string>& ids,
                                           const std::vector<Reply>& replies);
    // The ids in calls of at most 500, each call leadingArgs then its ids, pipelined in one
    // round trip; a status for every id, in order.
    std::vector<IdResult> byIds(const Script& script, const std::vector<std::string>& leadingArgs,
                                const std::vector<std::string>& ids);
    // Calls of `batch` (1..1000) tasks until the script reports none left; maxCalls > 0 stops
    // after that many calls.
    BulkResult untilDone(const Script& script, const std::vector<std::string>& args, int batch,
                         int maxCalls);

private:
    Queue& m_queue;
};

} // namespace delayq
