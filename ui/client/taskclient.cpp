#include "client/taskclient.h"

#include "client/ioworker.h"
#include "client/membertext.h"
#include "client/nativetaskqueue.h"
#include "client/taskqueue.h"
#include "client/taskrequests.h"
#include "client/taskrows.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <algorithm>
#include <optional>

namespace delayq::ui {

TaskClient::TaskClient(IoWorker* io, QObject* parent) : AreaClient(io, parent)
{
    qRegisterMetaType<PageResult>();
    qRegisterMetaType<CountsResult>();
    qRegisterMetaType<TaskResult>();
    qRegisterMetaType<TaskHistoryResult>();
    qRegisterMetaType<LocateResult>();
    qRegisterMetaType<ActionResult>();
}

void TaskClient::loadPages(quint64 tag, const QString& queue, TaskSet set,
                           const QList<qint64>& offsets, int limit)
{
    auto result = answerTo<PageResult>(tag, queue);
    result.set = set;
    request(&TaskClient::pagesLoaded, result, tr("load tasks"),
            [this, queue, offsets, limit](delayq::Connection& c, PageResult& r) {
                TaskRequests::pages(*io()->queueFor(c, queue), offsets, limit, r);
            });
}

void TaskClient::loadCounts(quint64 tag, const QString& queue)
{
    request(&TaskClient::countsLoaded, answerTo<CountsResult>(tag, queue), tr("count tasks"),
            [this, queue](delayq::Connection& c, CountsResult& r) {
                TaskRequests::counts(c, *io()->queueFor(c, queue), r);
            });
}

void TaskClient::loadTask(quint64 tag, const QString& queue, const QString& id)
{
    request(&TaskClient::taskLoaded, answerTo<TaskResult>(tag, queue), tr("load the task"),
            [this, queue, id](delayq::Connection& c, TaskResult& r) {
                auto found = io()->queueFor(c, queue)->find(MemberText::toBytes(id));
                if (!found)
                    return;
                r.found = true;
                r.set = found->first;
                r.task = TaskRows::fromTask(found->second); // whole, not cut
            });
}

void TaskClient::loadTaskHistory(quint64 tag, const QString& queue, const QString& id)
{
    auto result = answerTo<TaskHistoryResult>(tag, queue);
    result.id = id;
    request(&TaskClient::taskHistoryLoaded, result, tr("load the task's history"),
            [this, queue, id](delayq::Connection& c, TaskHistoryResult& r) {
                const delayq::TaskHistory history =
                    io()->nativeQueue(c, queue).taskHistory(MemberText::toBytes(id));
                r.finished = history.finished;
                for (const delayq::TaskEvent& e : history.events)
                    r.events.append({e.at, TaskRows::text(e.kind), e.due.value_or(-1),
                                     TaskRows::text(e.who), TaskRows::text(e.text)});
            });
}

void TaskClient::locateTime(quint64 tag, const QString& queue, TaskSet set, qint64 ms)
{
    auto result = answerTo<LocateResult>(tag, queue);
    result.set = set;
    request(&TaskClient::located, result, tr("find a time"),
            [this, queue, set, ms](delayq::Connection& c, LocateResult& r) {
                const auto q = io()->queueFor(c, queue);
                const long long size = q->size(set);
                const long long rank = q->rankOfScore(set, ms);
                // Past the last task: the last row is the nearest there is.
                r.row = size == 0 ? -1 : std::min(rank, size - 1);
            });
}

void TaskClient::locateId(quint64 tag, const QString& queue, const QString& id)
{
    auto result = answerTo<LocateResult>(tag, queue);
    result.id = id;
    request(&TaskClient::located, result, tr("find a task"),
            [this, queue, id](delayq::Connection& c, LocateResult& r) {
                const auto q = io()->queueFor(c, queue);
                const std::string bytes = MemberText::toBytes(id);
                auto found = q->find(bytes);
                if (!found)
                    return;
                r.set = found->first;
                r.row = q->rankOf(found->first, bytes).value_or(-1);
            });
}

void TaskClient::push(quint64 tag, const PushSpec& spec)
{
    auto result = answerTo<ActionResult>(tag);
    result.action = TaskAction::Push;
    result.queue = spec.queue;
    request(&TaskClient::actionFinished, result, tr("push"),
            [this, spec](delayq::Connection& c, ActionResult& r) {
                r.serverNow = c.serverNowMs();
                const auto q = io()->queueFor(c, spec.queue);
                for (const auto& pushed : q->push(TaskRequests::pushRequests(spec, q->isPlain())))
                    r.outcomes.append(
                        {MemberText::fromBytes(pushed.id), outcomeOf(pushed.status), pushed.due});
            });
}

void TaskClient::cancel(quint64 tag, const QString& queue, const QStringList& ids)
{
    const std::string bin = delayq::Queue::newBinAction();
    idAction(
        tag, TaskAction::Cancel, queue,
        [this, queue, ids, bin](delayq::Connection& c) {
            const auto q = io()->queueFor(c, queue);
            // A plain key has no recycle bin; a native queue keeps what it cancels.
            if (auto* native = dynamic_cast<NativeTaskQueue*>(q.get()))
                native->queue().setBinAction(bin);
            return q->cancel(TaskRows::ids(ids));
        },
        QString::fromStdString(bin));
}

void TaskClient::reschedule(quint64 tag, const QString& queue, const QStringList& ids,
                            qint64 dueAtMs, qint64 delayMs)
{
    idAction(tag, TaskAction::Reschedule, queue,
             [this, queue, ids, dueAtMs, delayMs](delayq::Connection& c) {
                 std::optional<long long> at;
                 if (dueAtMs >= 0)
                     at = dueAtMs;
                 return io()->queueFor(c, queue)->reschedule(TaskRows::ids(ids), at, delayMs);
             });
}

void TaskClient::requeue(quint64 tag, const QString& queue, const QStringList& ids)
{
    idAction(tag, TaskAction::Requeue, queue, [this, queue, ids](delayq::Connection& c) {
        return io()->nativeQueue(c, queue).requeue(TaskRows::ids(ids));
    });
}

void TaskClient::deleteDead(quint64 tag, const QString& queue, const QStringList& ids)
{
    const std::string bin = delayq::Queue::newBinAction();
    idAction(
        tag, TaskAction::DeleteDead, queue,
        [this, queue, ids, bin](delayq::Connection& c) {
            auto q = io()->nativeQueue(c, queue);
            q.setBinAction(bin);
            return q.deleteDead(TaskRows::ids(ids));
        },
        QString::fromStdString(bin));
}

void TaskClient::idAction(quint64 tag, TaskAction action, const QString& queue,
                          std::function<std::vector<delayq::IdResult>(delayq::Connection&)> run,
                          const QString& binAction)
{
    ActionResult result{tag, action, queue, {}, {}};
    result.binAction = binAction;
    request(
        &TaskClient::actionFinished, result, actionVerb(action),
        [run](delayq::Connection& c, ActionResult& r) { r.outcomes = TaskRows::outcomes(run(c)); });
}

} // namespace delayq::ui
