#include <delayq/taskexport.h>

#include "records/recordreads.h"
#include "records/scorewindow.h"
#include "records/taskrecord.h"

#include <delayq/error.h>
#include <delayq/queue.h>

#include <functional>
#include <map>

namespace delayq {

namespace {

// Commands that read one task whole: its score in `setKey`, record, run entry, error,
// history, fair order's tags (priority and group) and its own start-by time.
constexpr size_t kReadsPerTask = 7;

void appendReads(RecordReads& reads, const Keys& keys, const std::string& setKey,
                 const std::string& id)
{
    reads.add({"ZSCORE", setKey, id});
    reads.addRecord(keys, id);
    reads.add({"HGET", keys.run(), id});
    reads.add({"HGET", keys.errors(), id});
    reads.add({"HGET", keys.taskHistory(), id});
    reads.add({"HGET", keys.fairTags(), id});
    reads.add({"HGET", keys.expires(), id});
}

// The replies of `commands`, run as one transaction where the server allows it: every key is
// in the queue's slot, but a cluster connection routes command by command and cannot keep a
// MULTI on one node, so there each task is read by a pipeline (consistent per field only).
std::vector<Reply> sendAtomically(Connection& connection,
                                  std::vector<std::vector<std::string>> commands)
{
    if (connection.isCluster()) {
        auto replies = connection.pipeline(commands);
        for (const auto& r : replies)
            if (r.isError())
                throw errorFromReply(r.str);
        return replies;
    }
    const size_t count = commands.size();
    commands.insert(commands.begin(), std::vector<std::string>{"MULTI"});
    commands.push_back({"EXEC"});
    auto replies = connection.pipeline(commands);
    for (const auto& r : replies)
        if (r.isError())
            throw errorFromReply(r.str);
    Reply& exec = replies.back();
    if (!exec.isArray() || exec.elements.size() != count)
        throw Error(ErrorCode::Protocol, "unexpected reply shape from EXEC");
    for (const auto& r : exec.elements)
        if (r.isError())
            throw errorFromReply(r.str);
    return std::move(exec.elements);
}

// The replies of `reads`, sent by sendAtomically (records with the table's state around them).
std::vector<Reply> readAtomically(Connection& connection, RecordReads& reads)
{
    return reads.run([&connection](const RecordReads::Commands& commands) {
        return sendAtomically(connection, commands);
    });
}

// Tasks from the replies of appendReads, in order; a task gone from its set is left out, and
// so is one that `readLater` says a later window reads (it moved ahead meanwhile).
std::vector<Task>
tasksFrom(const std::vector<Reply>& replies, const std::vector<std::string>& ids,
          const std::vector<TaskSet>& sets, long long& broken,
          const std::function<bool(const std::string&, const std::string&)>& readLater = {})
{
    std::vector<Task> tasks;
    for (size_t i = 0; i < ids.size(); ++i) {
        const Reply* r = &replies[i * kReadsPerTask];
        if (r[0].isNil() || (readLater && readLater(r[0].str, ids[i])))
            continue;
        Task task;
        task.id = ids[i];
        try {
            task.score = r[0].toInteger();
        } catch (const Error&) {
            // A float or inf score was not written by delayq: there is no due time to keep.
            ++broken;
            continue;
        }
        fillTask(task, sets[i], r[1], r[2], r[3]);
        if (!r[4].isNil())
            task.history = parseTaskEvents(r[4].str);
        fillTags(task, r[5]);
        // Its own start-by time only (0, "never", is not written): the queue's max_age is the
        // target queue's business.
        if (const auto own = wholeNumber(r[6].str); !r[6].isNil() && own && *own > 0)
            task.expiresAt = *own;
        if (task.broken) {
            ++broken;
            continue;
        }
        tasks.push_back(std::move(task));
    }
    return tasks;
}

} // namespace

TaskExport::TaskExport(Queue& queue, std::vector<TaskSet> sets, int step)
    : m_queue(queue), m_sets(std::move(sets)), m_step(step)
{
    if (step < 1 || step > 10000)
        throw Error(ErrorCode::InvalidArgument, "an export step is 1 to 10000 tasks");
}

TaskExport::~TaskExport() = default;

long long TaskExport::total()
{
    if (m_total < 0) {
        m_total = 0;
        for (TaskSet set : m_sets)
            m_total += m_queue.size(set);
    }
    return m_total;
}

bool TaskExport::matches(const Task& task) const
{
    return m_match.empty() || task.id.find(m_match) != std::string::npos ||
           task.payload.find(m_match) != std::string::npos;
}

std::vector<Task> TaskExport::next()
{
    if (atEnd())
        return {};
    const TaskSet set = m_sets[m_setIndex];
    // A sharded queue's sets are read shard after shard: in due order within each.
    if (!m_window)
        m_window = std::make_unique<ScoreWindow>(m_queue.connection(),
                                                 m_queue.shardKeys(m_shard).setKey(set), m_step);
    std::vector<std::string> ids;
    for (auto& member : m_window->next())
        ids.push_back(std::move(member.first));
    std::vector<Task> tasks;
    if (!ids.empty())
        tasks = readWindow(set, ids);
    if (m_window->atEnd()) {
        m_window.reset();
        if (++m_shard >= m_queue.shardCount()) {
            m_shard = 0;
            ++m_setIndex;
        }
    }
    std::erase_if(tasks, [this](const Task& t) { return !matches(t); });
    return tasks;
}

std::vector<Task> TaskExport::readWindow(TaskSet set, const std::vector<std::string>& ids)
{
    RecordReads reads(m_queue.connection());
    const Keys& keys = m_queue.shardKeys(m_shard);
    const std::string key = keys.setKey(set);
    for (const auto& id : ids)
        appendReads(reads, keys, key, id);
    auto replies = readAtomically(m_queue.connection(), reads);
    const ScoreWindow& window = *m_window;
    return tasksFrom(replies, ids, std::vector<TaskSet>(ids.size(), set), m_broken,
                     [&window](const std::string& score, const std::string& id) {
                         return window.isAhead(score, id);
                     });
}

std::vector<Task> TaskExport::readIds(Queue& queue, const std::vector<std::string>& ids)
{
    if (ids.size() > 1000)
        throw Error(ErrorCode::InvalidArgument, "read at most 1000 ids at a time");
    if (queue.shardCount() > 1) {
        // Shard after shard, each asked for the ids not found yet; then in the given order.
        std::map<std::string, Task> found;
        std::vector<std::string> left = ids;
        for (size_t s = 0; s < queue.shardCount() && !left.empty(); ++s) {
            Queue shard = queue.shardQueue(s);
            for (auto& t : readIds(shard, left))
                found.emplace(t.id, std::move(t));
            std::erase_if(left, [&](const std::string& id) { return found.count(id) > 0; });
        }
        std::vector<Task> tasks;
        for (const auto& id : ids)
            if (auto it = found.find(id); it != found.end())
                tasks.push_back(it->second);
        return tasks;
    }
    // Which set holds each id first (one pipeline), then each task whole from that set. A task
    // that moved in between is found nowhere and left out, as in next().
    std::vector<std::vector<std::string>> where;
    const TaskSet all[] = {TaskSet::Pending, TaskSet::Active, TaskSet::Dead};
    for (const auto& id : ids)
        for (TaskSet set : all)
            where.push_back({"ZSCORE", queue.keys().setKey(set), id});
    auto found = queue.connection().pipeline(where);
    std::vector<std::string> listed;
    std::vector<TaskSet> sets;
    RecordReads reads(queue.connection());
    for (size_t i = 0; i < ids.size(); ++i)
        for (size_t s = 0; s < 3; ++s)
            if (!found[i * 3 + s].isNil() && !found[i * 3 + s].isError()) {
                listed.push_back(ids[i]);
                sets.push_back(all[s]);
                appendReads(reads, queue.keys(), queue.keys().setKey(all[s]), ids[i]);
                break;
            }
    if (listed.empty())
        return {};
    auto replies = readAtomically(queue.connection(), reads);
    long long broken = 0;
    return tasksFrom(replies, listed, sets, broken);
}

} // namespace delayq
