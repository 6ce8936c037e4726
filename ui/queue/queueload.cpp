#include "queue/queueload.h"

#include "charts/timelinechart.h"
#include "client/adminclient.h"
#include "client/taskclient.h"
#include "connection/layoutnotice.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"

#include <QItemSelectionModel>
#include <QTableView>

#include <utility>

namespace delayq::ui {

QueueLoad::QueueLoad(AdminClient* client, TaskTabs* tabs, TimelineChart* timeline,
                     LayoutNotice* notice, QObject* parent)
    : QObject(parent), m_client(client), m_tabs(tabs), m_timeline(timeline), m_notice(notice)
{
    connect(client->tasks(), &TaskClient::countsLoaded, this, &QueueLoad::onCounts);
    connect(tabs->table(TaskSet::Pending)->model(), &TaskModel::refreshed, this,
            &QueueLoad::onFirstPage);
    connect(timeline, &TimelineChart::loaded, this, [this] {
        m_timelineShown = true;
        checkLoaded();
    });
}

void QueueLoad::start(const QString& queue)
{
    m_queue = queue;
    m_firstPageShown = false;
    m_timelineShown = false;
    m_waitingForLoad = !queue.isEmpty();
    m_countsInFlight = false;
    m_countsTag = 0;
}

void QueueLoad::refreshCounts()
{
    if (m_countsInFlight)
        return;
    m_countsInFlight = true;
    m_countsTag = AdminClient::newTag();
    m_client->tasks()->loadCounts(m_countsTag, m_queue);
}

void QueueLoad::onFirstPage()
{
    // A freshly opened queue selects nothing: a selected first row would be what Delete
    // offers to cancel, and the operator chose no task yet.
    m_firstPageShown = true;
    checkLoaded();
}

void QueueLoad::onCounts(const CountsResult& result)
{
    if (result.tag != m_countsTag)
        return;
    m_countsInFlight = false;
    if (result.error.code == delayq::ErrorCode::OldLayout) {
        m_notice->showFor(result.error.message);
        // What there is to see is the notice: a --screenshot waiting for the queue takes it.
        if (m_waitingForLoad) {
            m_waitingForLoad = false;
            emit loaded();
        }
        return;
    }
    m_notice->hide();
    if (!result.error.isEmpty()) {
        m_countsFailed = true;
        emit countsFailed(result.error.text());
        return;
    }
    if (std::exchange(m_countsFailed, false))
        emit countsRecovered();
    m_tabs->setCounts(result);
    m_timeline->setEarliest(result.earliest, result.serverNow);
    m_timeline->refresh();
}

void QueueLoad::checkLoaded()
{
    if (m_waitingForLoad && m_firstPageShown && m_timelineShown) {
        m_waitingForLoad = false;
        emit loaded();
    }
}

} // namespace delayq::ui
