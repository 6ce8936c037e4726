#pragma once

#include "client/areaclient.h"
#include "client/tasktypes.h"

#include <QStringList>

#include <functional>
#include <vector>

namespace delayq {
struct IdResult;
}

namespace delayq::ui {

// The requests on the tasks of one queue (native or the open plain key): pages of a set, the
// counts, one task whole, where a time or an id is, and the actions on chosen ids.
class TaskClient : public AreaClient
{
    Q_OBJECT

public:
    TaskClient(IoWorker* io, QObject* parent);

    void loadPages(quint64 tag, const QString& queue, TaskSet set, const QList<qint64>& offsets,
                   int limit);
    void loadCounts(quint64 tag, const QString& queue);
    // One task with its whole payload, wherever it is.
    void loadTask(quint64 tag, const QString& queue, const QString& id);
    // The recorded events of a native queue's task (none when its history setting is off).
    void loadTaskHistory(quint64 tag, const QString& queue, const QString& id);
    // Row of the first task due at or after ms.
    void locateTime(quint64 tag, const QString& queue, TaskSet set, qint64 ms);
    // Set and row of a task id, wherever it is.
    void locateId(quint64 tag, const QString& queue, const QString& id);

    void push(quint64 tag, const PushSpec& spec);
    void cancel(quint64 tag, const QString& queue, const QStringList& ids);
    // dueAtMs >= 0: absolute; else delayMs from the server's now (0: run now).
    void reschedule(quint64 tag, const QString& queue, const QStringList& ids, qint64 dueAtMs,
                    qint64 delayMs);
    void requeue(quint64 tag, const QString& queue, const QStringList& ids);
    void deleteDead(quint64 tag, const QString& queue, const QStringList& ids);

signals:
    void pagesLoaded(const delayq::ui::PageResult& result);
    void countsLoaded(const delayq::ui::CountsResult& result);
    void taskLoaded(const delayq::ui::TaskResult& result);
    void taskHistoryLoaded(const delayq::ui::TaskHistoryResult& result);
    void located(const delayq::ui::LocateResult& result);
    void actionFinished(const delayq::ui::ActionResult& result);

private:
    // An action on a list of ids, answered by actionFinished with one outcome per id.
    // binAction: the recycle bin action the removal keeps its tasks under (cancel, delete).
    void idAction(quint64 tag, TaskAction action, const QString& queue,
                  std::function<std::vector<delayq::IdResult>(delayq::Connection&)> run,
                  const QString& binAction = {});
};

} // namespace delayq::ui
