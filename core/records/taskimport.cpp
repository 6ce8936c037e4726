#include <delayq/taskimport.h>

#include "records/valuechecks.h"

#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/script.h>
#include <delayq/utf8.h>

#include <algorithm>
#include <string_view>

namespace delayq {

namespace {

// As nack.lua cuts an error (at a UTF-8 character boundary: utf8Prefix).
constexpr size_t kMaxErrorBytes = 4096;

void refuse(const std::string& why)
{
    throw Error(ErrorCode::InvalidArgument, why);
}

// The form Queue::normalizeBackoff stores and an export writes: up to 32 whole ms steps, or
// exp:BASE:MAX in ms; "" for the queue's.
bool isStoredBackoff(const std::string& text)
{
    if (text.empty())
        return true;
    if (text.size() > 512)
        return false;
    std::string_view rest = text;
    const bool exp = rest.starts_with("exp:");
    if (exp)
        rest.remove_prefix(4);
    const char separator = exp ? ':' : ',';
    int steps = 0;
    while (true) {
        const size_t end = std::min(rest.find(separator), rest.size());
        const std::string_view step = rest.substr(0, end);
        if (step.empty() || step.size() > 15 ||
            step.find_first_not_of("0123456789") != std::string_view::npos)
            return false;
        ++steps;
        if (end == rest.size())
            break;
        rest.remove_prefix(end + 1);
    }
    return exp ? steps == 2 : steps <= 32;
}

// The last events import_tasks.lua keeps (100), each name and text cut as the scripts cut them
// (200 bytes, at a UTF-8 character boundary).
std::vector<TaskEvent> lastEvents(const std::vector<TaskEvent>& history)
{
    constexpr size_t kMaxEvents = 100;
    constexpr size_t kMaxText = 200;
    const size_t skip = history.size() > kMaxEvents ? history.size() - kMaxEvents : 0;
    std::vector<TaskEvent> kept(history.begin() + static_cast<std::ptrdiff_t>(skip), history.end());
    for (TaskEvent& e : kept) {
        e.who = std::string(utf8Prefix(e.who, kMaxText));
        e.text = std::string(utf8Prefix(e.text, kMaxText));
    }
    return kept;
}

} // namespace

TaskImport::TaskImport(Queue& queue, bool replace, bool audited)
    : m_queue(queue), m_replace(replace), m_audited(audited)
{}

void TaskImport::check(const Task& task)
{
    Keys::validateTaskId(task.id);
    if (task.state != "pending" && task.state != "active" && task.state != "dead")
        refuse("the state must be pending, active or dead");
    if (task.due < 0 || task.due > kLatestDueMs)
        refuse("the due time must be 0 to 9999-12-31 in ms since the epoch");
    if (task.state == "dead" && (task.score < 0 || task.score > kLatestDueMs))
        refuse("the time died must be 0 to 9999-12-31 in ms since the epoch");
    if (task.created < 0 || task.created > kLatestDueMs)
        refuse("the creation time must be 0 to 9999-12-31 in ms since the epoch");
    if (task.attempts < 0 || task.attempts > 1'000'000'000)
        refuse("attempts must be 0 to 1000000000");
    if (task.maxAttempts < 0 || task.maxAttempts > 1'000'000'000)
        refuse("max_attempts must be 0 (the queue's) to 1000000000");
    for (const TaskEvent& e : task.history)
        if (e.at < 0 || e.kind.empty() || e.kind.size() > 32 ||
            e.kind.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") != std::string::npos ||
            (e.due && *e.due < 0))
            refuse("a history event needs a time and a kind in lowercase letters, like "
                   "\"claimed\"");
    checkFairTag(task.priority, task.group);
    if (!isStoredBackoff(task.backoff))
        refuse("the backoff must be empty (the queue's) or in the stored form, ms: like "
               "5000,20000,30000 or exp:1000:60000");
}

std::vector<PushResult::Status> TaskImport::importBatch(const std::vector<Task>& tasks)
{
    if (tasks.size() > kBatch)
        refuse("import at most " + std::to_string(kBatch) + " tasks per batch");
    for (const auto& task : tasks)
        check(task);
    if (tasks.empty())
        return {};
    Connection& connection = m_queue.connection();
    if (connection.options().readOnly)
        throw Error(ErrorCode::NoPermission, "cannot import into queue '" + m_queue.name() +
                                                 "': this session is read-only (reconnect "
                                                 "without read-only to change things)");
    if (!m_registered) {
        // As Queue::pushBatch does: dq:queues lives outside the queue's slot.
        connection.command({"SADD", Keys::queues(m_queue.keys().prefix()), m_queue.name()});
        m_registered = true;
    }
    // A sharded queue takes each task in its home shard, one call a shard. While a reshard
    // runs, an id's former home is asked first, as a push does (Queue::displaceFormerCopies);
    // the reshard's own copies (not audited) come from there and skip it.
    std::vector<PushResult::Status> statuses(tasks.size());
    const ShardLayout layout = m_queue.layout();
    std::vector<bool> answered(tasks.size(), false), replaced(tasks.size(), false);
    if (layout.moving() && m_audited) {
        std::vector<PushRequest> asks(tasks.size());
        std::vector<PushResult> results(tasks.size());
        for (size_t i = 0; i < tasks.size(); ++i) {
            asks[i].id = tasks[i].id;
            asks[i].replace = m_replace;
        }
        m_queue.displaceFormerCopies(layout, asks, results, answered, replaced);
        for (size_t i = 0; i < tasks.size(); ++i) {
            // An import does not consult the dedup window (import_tasks.lua), here as on a
            // steady layout: an id its former home remembers as done is imported.
            if (answered[i] && results[i].status == PushResult::Status::RecentlyDone)
                answered[i] = false;
            if (answered[i])
                statuses[i] = results[i].status;
        }
    }
    for (size_t s = 0; s < m_queue.shardCount(); ++s) {
        std::vector<Task> some;
        std::vector<size_t> positions;
        for (size_t i = 0; i < tasks.size(); ++i)
            if (!answered[i] && static_cast<size_t>(layout.homeOf(tasks[i].id)) == s) {
                some.push_back(tasks[i]);
                positions.push_back(i);
            }
        if (some.empty())
            continue;
        Queue shard = m_queue.shardQueue(s);
        const auto done = importInto(shard, some);
        for (size_t j = 0; j < done.size(); ++j) {
            const size_t i = positions[j];
            statuses[i] = replaced[i] && done[j] == PushResult::Status::Created
                              ? PushResult::Status::Replaced
                              : done[j];
        }
    }
    return statuses;
}

std::vector<PushResult::Status> TaskImport::importInto(Queue& shard, const std::vector<Task>& tasks)
{
    std::vector<std::string> args{m_replace ? "replace" : "skip", shard.keys().wake(),
                                  std::to_string(tasks.size())};
    args.reserve(3 + tasks.size() * 13);
    for (const auto& t : tasks) {
        const bool dead = t.state == "dead";
        // Fair order's tag as push stores it ("PRIORITY|GROUP"), "" for a task without one.
        const std::string tag = t.priority == 0 && t.group.empty()
                                    ? std::string()
                                    : std::to_string(t.priority) + "|" + t.group;
        args.insert(args.end(), {t.id, dead ? "dead" : "pending", std::to_string(t.due),
                                 std::to_string(dead ? t.score : 0), std::to_string(t.created),
                                 std::to_string(t.attempts), std::to_string(t.maxAttempts),
                                 t.backoff, std::string(utf8Prefix(t.lastError, kMaxErrorBytes)),
                                 formatTaskEvents(lastEvents(t.history)), tag,
                                 t.expiresAt ? std::to_string(*t.expiresAt) : std::string()});
    }
    for (const auto& t : tasks)
        args.push_back(t.payload);
    args.push_back(m_audited ? m_queue.actorArg() : std::string());
    const Reply reply =
        m_queue.connection().evalScript(scripts::importTasks, shard.scriptKeys(), args);
    if (!reply.isArray() || reply.elements.size() != tasks.size())
        throw Error(ErrorCode::Protocol, "unexpected reply shape from import");
    std::vector<PushResult::Status> statuses;
    statuses.reserve(tasks.size());
    for (const auto& word : reply.elements)
        statuses.push_back(pushStatusFromName(word.str));
    return statuses;
}

} // namespace delayq
