#include "tasktabs.h"

#include "adminclient.h"
#include "findbar.h"
#include "matchclient.h"
#include "membertext.h"
#include "taskmodel.h"
#include "tasktable.h"

#include <QLocale>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace delayq::ui {

TaskTabs::TaskTabs(AdminClient* client, QWidget* parent) : QWidget(parent), m_client(client)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_matchClient = new MatchClient(client, this);
    m_findBar = new FindBar(this);
    m_findBar->hide();
    layout->addWidget(m_findBar);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    layout->addWidget(m_tabs, 1);

    for (auto set : {TaskSetKind::Pending, TaskSetKind::Active, TaskSetKind::Dead}) {
        auto* table = new TaskTable(client, set, this);
        m_tables.append(table);
        m_tabs->addTab(table, QString());
        connect(table, &TaskTable::currentTaskChanged, this, [this, table] {
            if (table == current())
                emit currentTaskChanged();
        });
        connect(table, &TaskTable::jumpFailed, this, [this](const QString& message) {
            m_findBar->setError(message);
            emit statusMessage(message);
        });
    }
    setCounts({});
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        current()->refresh();
        emit currentTaskChanged();
    });
    connect(m_findBar, &FindBar::findIdRequested, this, &TaskTabs::findId);
    connect(m_findBar, &FindBar::memberChosen, this, &TaskTabs::findId);
    connect(m_findBar, &FindBar::findTextRequested, this, &TaskTabs::findText);
    connect(m_findBar, &FindBar::searchCancelled, client, &AdminClient::cancelScan);
    connect(m_findBar, &FindBar::searchCancelled, m_matchClient, &MatchClient::cancelSearch);
    connect(m_matchClient, &MatchClient::searched, this, [this](const MatchScanResult& step) {
        if (step.tag == m_scanTag)
            m_findBar->addTaskStep(step);
    });
    connect(m_findBar, &FindBar::actOnMatchesRequested, this,
            [this] { emit actOnMatchesRequested(m_lastSearch); });
    connect(client, &AdminClient::plainScanned, this, [this](const PlainScanResult& step) {
        if (step.tag == m_scanTag)
            m_findBar->addSearchStep(step);
    });
    connect(m_findBar, &FindBar::jumpToTimeRequested, this,
            [this](qint64 ms) { current()->jumpToTime(ms); });
    connect(client, &AdminClient::located, this, &TaskTabs::onLocated);
}

TaskTable* TaskTabs::table(TaskSetKind set) const
{
    return m_tables.at(static_cast<int>(set));
}

TaskTable* TaskTabs::current() const
{
    return m_tables.at(qMax(0, m_tabs->currentIndex()));
}

void TaskTabs::setCurrentSet(TaskSetKind set)
{
    m_tabs->setCurrentIndex(static_cast<int>(set));
}

void TaskTabs::setPlain(bool plain)
{
    m_plain = plain;
    m_scanTag = 0;
    m_client->cancelScan();
    m_matchClient->cancelSearch();
    m_findBar->setPlain(plain);
    if (plain)
        setCurrentSet(TaskSetKind::Pending);
    for (int i = 0; i < m_tables.size(); ++i) {
        TaskTable* table = m_tables.at(i);
        table->model()->setPlain(plain);
        m_tabs->setTabVisible(i, !plain || table->set() == TaskSetKind::Pending);
        for (auto field : {TaskModel::Field::Attempts, TaskModel::Field::Worker,
                           TaskModel::Field::LastError, TaskModel::Field::Payload}) {
            const int column = table->model()->columnOf(field);
            if (column >= 0)
                table->view()->setColumnHidden(column, plain);
        }
        table->fitLastColumn();
    }
}

void TaskTabs::setQueue(const QString& queue)
{
    m_queue = queue;
    // Matches of another key would be misleading: a new key starts a new search.
    m_scanTag = 0;
    m_client->cancelScan();
    m_matchClient->cancelSearch();
    m_findBar->setPlain(m_plain);
    for (auto* table : m_tables)
        table->setQueue(queue);
}

void TaskTabs::refresh()
{
    current()->refresh();
}

void TaskTabs::setCounts(const CountsResult& counts)
{
    QLocale locale;
    m_tabs->setTabText(0, tr("Pending (%1)").arg(locale.toString(counts.pending)));
    m_tabs->setTabText(1, tr("Active (%1)").arg(locale.toString(counts.active)));
    m_tabs->setTabText(2, tr("Dead (%1)").arg(locale.toString(counts.dead)));
}

void TaskTabs::setUtc(bool utc)
{
    for (auto* table : m_tables)
        table->setUtc(utc);
}

void TaskTabs::setClockOffset(qint64 ms)
{
    for (auto* table : m_tables)
        table->model()->setClockOffset(ms);
}

void TaskTabs::showFind()
{
    m_findBar->activate();
}

void TaskTabs::findId(const QString& id)
{
    if (m_queue.isEmpty()) {
        m_findBar->setError(tr("open a queue first"));
        return;
    }
    m_findQuietly = false;
    m_findTag = AdminClient::newTag();
    m_client->locateId(m_findTag, m_queue, id);
}

void TaskTabs::selectTask(const QString& id)
{
    if (m_queue.isEmpty())
        return;
    m_findQuietly = true;
    m_findTag = AdminClient::newTag();
    m_client->locateId(m_findTag, m_queue, id);
}

void TaskTabs::findText(const QString& text)
{
    if (m_queue.isEmpty()) {
        m_findBar->setError(tr("open a queue first"));
        return;
    }
    m_scanTag = AdminClient::newTag();
    if (m_plain) {
        m_client->scanPlain(m_scanTag, m_queue, text);
        return;
    }
    m_lastSearch = MatchFilter{current()->set(), text, m_findBar->searchesErrors(), -1, -1};
    m_matchClient->search(m_scanTag, m_queue, m_lastSearch);
}

void TaskTabs::onLocated(const LocateResult& result)
{
    if (result.tag != m_findTag)
        return;
    m_findTag = 0;
    if (!result.error.isEmpty() || result.row < 0) {
        const QString id = MemberText::displayText(result.id.left(200));
        const QString message = !result.error.isEmpty() ? result.error.message
                                : m_plain ? tr("that message is no longer in %1").arg(m_queue)
                                          : tr("no task with id %1 in queue %2").arg(id, m_queue);
        // A pushed task already taken by a worker is no error: the push's report stays.
        if (!m_findQuietly)
            m_findBar->setError(message);
        return;
    }
    setCurrentSet(result.set);
    TaskTable* target = table(result.set);
    // The table may not know the row yet if the task arrived since its last refresh.
    if (result.row >= target->model()->total()) {
        connect(
            target->model(), &TaskModel::refreshed, target,
            [target, row = result.row] { target->jumpToRow(row); }, Qt::SingleShotConnection);
        target->refresh();
    } else {
        target->jumpToRow(result.row);
    }
}

} // namespace delayq::ui
