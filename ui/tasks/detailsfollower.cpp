#include "tasks/detailsfollower.h"

#include "client/adminclient.h"
#include "client/taskclient.h"
#include "find/findbar.h"
#include "tasks/taskdetails.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"

namespace delayq::ui {

DetailsFollower::DetailsFollower(AdminClient* client, TaskTabs* tabs, TaskDetails* details,
                                 QObject* parent)
    : QObject(parent), m_client(client), m_tabs(tabs), m_details(details)
{
    connect(m_tabs, &TaskTabs::currentTaskChanged, this, &DetailsFollower::follow);
    connect(m_client->tasks(), &TaskClient::taskLoaded, this, &DetailsFollower::onTaskLoaded);
    connect(m_client->tasks(), &TaskClient::taskHistoryLoaded, this,
            &DetailsFollower::onTaskHistoryLoaded);
    connect(m_tabs, &TaskTabs::finishedTaskFound, this, [this](const TaskHistoryResult& history) {
        m_fullTaskId.clear();
        m_details->showFinished(history);
    });
    // Another find starts: the finished task shown by the last one is no longer the answer.
    auto dropFinished = [this] {
        if (m_details->showsFinished())
            m_details->clear();
    };
    connect(m_tabs->findBar(), &FindBar::findIdRequested, this, dropFinished);
    connect(m_tabs->findBar(), &FindBar::memberChosen, this, dropFinished);
}

void DetailsFollower::setQueue(const QString& queue, bool plain)
{
    m_queue = queue;
    m_plain = plain;
    m_details->clear();
    m_fullTaskId.clear();
}

void DetailsFollower::follow()
{
    const TaskTable* table = m_tabs->current();
    if (const TaskRow* task = table->currentTask()) {
        const bool truncated = task->payloadSize > task->payload.size();
        // A refresh must not swap the whole payload on screen back for its first 4 KiB.
        if (truncated && task->id == m_fullTaskId)
            return;
        m_details->showTask(*task, table->set());
        if (!m_plain) {
            // Asked again at each refresh: a task in the queue gains events as it goes.
            m_historyTag = AdminClient::newTag();
            m_client->tasks()->loadTaskHistory(m_historyTag, m_queue, task->id);
        }
        if (truncated) {
            m_tag = AdminClient::newTag();
            m_askedId = task->id;
            m_client->tasks()->loadTask(m_tag, m_queue, task->id);
        }
    } else if (!table->hasCurrentSelected() && !m_details->showsFinished()) {
        // Nothing selected: an old task left in the pane would look like the target of the
        // actions, which are off. A selected row whose page is loading keeps the pane, and
        // so does a finished task's history that Find id showed (nothing can act on it).
        m_details->clear();
        m_fullTaskId.clear();
    }
}

void DetailsFollower::onTaskHistoryLoaded(const TaskHistoryResult& result)
{
    if (result.tag == m_historyTag)
        m_details->showHistory(result);
}

void DetailsFollower::onTaskLoaded(const TaskResult& result)
{
    const TaskRow* current = m_tabs->current()->currentTask();
    if (result.tag != m_tag || !result.found || !current || current->id != m_askedId)
        return;
    m_fullTaskId = result.task.id;
    m_details->showTask(result.task, result.set);
}

} // namespace delayq::ui
