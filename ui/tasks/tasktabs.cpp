#include "tasks/tasktabs.h"

#include "client/adminclient.h"
#include "client/matchclient.h"
#include "client/membertext.h"
#include "client/plainclient.h"
#include "client/taskclient.h"
#include "find/findbar.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include <delayq/timeparse.h>

#include <QLocale>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace delayq::ui {

namespace {

QString setName(TaskSet set)
{
    return set == TaskSet::Dead     ? TaskTabs::tr("dead")
           : set == TaskSet::Active ? TaskTabs::tr("active")
                                    : TaskTabs::tr("pending");
}

} // namespace

TaskTabs::TaskTabs(AdminClient* client, QWidget* parent) : QWidget(parent), m_client(client)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_matchClient = client->matches();
    m_findBar = new FindBar(this);
    m_findBar->hide();
    layout->addWidget(m_findBar);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    layout->addWidget(m_tabs, 1);

    for (auto set : {TaskSet::Pending, TaskSet::Active, TaskSet::Dead}) {
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
        connect(table, &TaskTable::selectionOutOfWindow, this, [this](const QStringList& ids) {
            emit statusMessage(
                tr("%n selected task(s), %1 among them, no longer selected: the list moved far "
                   "from them (Find id selects one again)",
                   nullptr, static_cast<int>(ids.size()))
                    .arg(MemberText::displayText(ids.first().left(200))));
        });
        connect(table, &TaskTable::taskMissed, this, &TaskTabs::onMissed);
        // Said where the operator looks, so a selection does not vanish silently.
        connect(table, &TaskTable::selectionLeft, this, [this, table](const QStringList& ids) {
            const QString first = MemberText::displayText(ids.first().left(200));
            const QString message =
                ids.size() == 1
                    ? tr("Task %1 left the %2 tasks of %3 (consumed, cancelled or moved): it "
                         "is no longer selected")
                          .arg(first, setName(table->set()), m_queue)
                    : tr("%1 selected tasks left the %2 tasks of %3 (consumed, cancelled or "
                         "moved), %4 among them: they are no longer selected")
                          .arg(ids.size())
                          .arg(setName(table->set()), m_queue, first);
            emit statusMessage(message);
        });
    }
    setCounts({});
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        m_findBar->setSet(current()->set());
        current()->refresh();
        emit currentTaskChanged();
    });
    connect(m_findBar, &FindBar::findIdRequested, this, &TaskTabs::findId);
    connect(m_findBar, &FindBar::memberChosen, this, &TaskTabs::chooseMatch);
    connect(m_matchClient, &MatchClient::checked, this, [this](const MatchCheckResult& result) {
        if (result.tag != m_checkTag)
            return;
        m_checkTag = 0;
        if (m_checkAgain) // an action ended while this check ran: its answer may predate it
            QTimer::singleShot(0, this, &TaskTabs::checkMatches);
        for (const QString& id : result.gone)
            m_findBar->markGone(id, tr("gone"));
        for (qsizetype i = 0; i < result.moved.size(); ++i)
            m_findBar->markGone(result.moved.at(i),
                                tr("now %1").arg(setName(result.movedTo.at(i))));
        for (qsizetype i = 0; i < result.still.size(); ++i)
            m_findBar->setMatchScore(result.still.at(i), result.scores.at(i));
    });
    connect(m_findBar, &FindBar::findTextRequested, this, &TaskTabs::findText);
    connect(m_findBar, &FindBar::searchCancelled, client->plain(), &PlainClient::cancelScan);
    connect(m_findBar, &FindBar::searchCancelled, m_matchClient, &MatchClient::cancelSearch);
    connect(m_matchClient, &MatchClient::searched, this, [this](const MatchScanResult& step) {
        if (step.tag == m_scanTag)
            m_findBar->addTaskStep(step);
    });
    connect(m_findBar, &FindBar::actOnMatchesRequested, this,
            [this] { emit actOnMatchesRequested(m_lastSearch); });
    connect(client->plain(), &PlainClient::plainScanned, this, [this](const PlainScanResult& step) {
        if (step.tag == m_scanTag)
            m_findBar->addSearchStep(step);
    });
    connect(m_findBar, &FindBar::jumpToTimeRequested, this,
            [this](qint64 ms) { current()->jumpToTime(ms); });
    connect(client->tasks(), &TaskClient::located, this, &TaskTabs::onLocated);
    connect(client->tasks(), &TaskClient::taskHistoryLoaded, this, &TaskTabs::onMissHistory);
}

TaskTable* TaskTabs::table(TaskSet set) const
{
    return m_tables.at(static_cast<int>(set));
}

TaskTable* TaskTabs::current() const
{
    return m_tables.at(qMax(0, m_tabs->currentIndex()));
}

void TaskTabs::setCurrentSet(TaskSet set)
{
    m_tabs->setCurrentIndex(static_cast<int>(set));
}

void TaskTabs::setPlain(bool plain)
{
    m_plain = plain;
    m_scanTag = 0;
    m_client->plain()->cancelScan();
    m_matchClient->cancelSearch();
    m_findBar->setPlain(plain);
    if (plain)
        setCurrentSet(TaskSet::Pending);
    for (int i = 0; i < m_tables.size(); ++i) {
        TaskTable* table = m_tables.at(i);
        table->model()->setPlain(plain);
        // A plain key's dead set is the members a forwarder parked (read-only here: the CLI's
        // requeue/rm-dead --plain act on them); its members show a forwarder's failures.
        m_tabs->setTabVisible(i, !plain || table->set() != TaskSet::Active);
        for (auto field : {TaskModel::Field::Worker, TaskModel::Field::Payload}) {
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
    m_client->plain()->cancelScan();
    m_matchClient->cancelSearch();
    m_checkTag = 0;
    m_checkAgain = false;
    m_findTag = 0;
    m_historyTag = 0;
    m_findBar->setPlain(m_plain);
    m_findBar->setQueue(queue);
    for (auto* table : m_tables)
        table->setQueue(queue);
}

void TaskTabs::refresh()
{
    current()->refresh();
    constexpr qint64 kCheckEveryMs = 10000;
    if (!m_lastCheck.isValid() || m_lastCheck.elapsed() >= kCheckEveryMs)
        checkMatches();
}

void TaskTabs::checkMatches()
{
    m_checkAgain = m_checkTag != 0;
    if (m_plain || m_checkTag != 0 || m_queue.isEmpty() || m_findBar->isHidden())
        return;
    const QStringList ids = m_findBar->liveMatches();
    if (ids.isEmpty())
        return;
    m_lastCheck.start();
    m_checkTag = AdminClient::newTag();
    m_matchClient->check(m_checkTag, m_queue, m_lastSearch.set, ids);
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
    m_utc = utc;
    for (auto* table : m_tables)
        table->setUtc(utc);
}

void TaskTabs::setClockOffset(qint64 ms)
{
    for (auto* table : m_tables)
        table->model()->setClockOffset(ms);
}

void TaskTabs::findHeldBy(const QString& worker)
{
    setCurrentSet(TaskSet::Active);
    m_findBar->findInField(delayq::ScanField::Worker, worker);
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
    locate(id, Find::Id);
}

void TaskTabs::selectTask(const QString& id)
{
    if (m_queue.isEmpty())
        return;
    locate(id, Find::Quietly);
}

void TaskTabs::chooseMatch(const QString& id)
{
    if (m_queue.isEmpty())
        return;
    m_findBar->setError({});
    locate(id, Find::Match);
}

void TaskTabs::locate(const QString& id, Find kind, bool again)
{
    // Until the task is found, nothing is the target: not the task selected before.
    clearSelections();
    if (!again)
        m_findTries = 0;
    m_findKind = kind;
    m_findingId = id;
    m_historyTag = 0;
    ++m_findTries;
    m_findTag = AdminClient::newTag();
    m_client->tasks()->locateId(m_findTag, m_queue, id);
}

void TaskTabs::clearSelections()
{
    for (auto* table : m_tables)
        table->clearSelection();
    emit currentTaskChanged();
}

void TaskTabs::onMissed(const QString& id)
{
    if (id != m_findingId || m_findTag != 0)
        return;
    // Ranked, then moved before its page was read: ask again, a few times.
    constexpr int kMaxTries = 3;
    if (m_findTries < kMaxTries) {
        locate(id, m_findKind, true);
        return;
    }
    const QString message =
        tr("task %1 keeps moving in queue %2: nothing is selected; choose it again")
            .arg(MemberText::displayText(id.left(200)), m_queue);
    if (m_findKind != Find::Quietly)
        m_findBar->setError(message);
    emit statusMessage(message);
}

void TaskTabs::onMissHistory(const TaskHistoryResult& result)
{
    if (result.tag != m_historyTag || m_historyTag == 0)
        return;
    m_historyTag = 0;
    if (!result.error.isEmpty() || !result.finished || result.events.isEmpty()) {
        m_findBar->setError(m_missMessage);
        return;
    }
    const TaskEventRow& last = result.events.constLast();
    const QString id = MemberText::displayText(result.id.left(200));
    const QString when = QString::fromStdString(delayq::formatTime(last.at, m_utc));
    const QString how = last.kind == QLatin1String("acked")       ? tr("acked at %1").arg(when)
                        : last.kind == QLatin1String("cancelled") ? tr("cancelled at %1").arg(when)
                                                                  : tr("finished at %1").arg(when);
    m_findBar->setError({});
    m_findBar->setNote(tr("task %1 has left queue %2 (%3): its %n kept event(s) are in the "
                          "details pane; nothing is selected",
                          nullptr, int(result.events.size()))
                           .arg(id, m_queue, how));
    emit finishedTaskFound(result);
}

void TaskTabs::findText(const QString& text)
{
    if (m_queue.isEmpty()) {
        m_findBar->setError(tr("open a queue first"));
        return;
    }
    m_scanTag = AdminClient::newTag();
    if (m_plain) {
        m_client->plain()->scanPlain(m_scanTag, m_queue, text);
        return;
    }
    m_lastSearch = MatchFilter{current()->set(), text, m_findBar->field(), -1, -1};
    m_matchClient->search(m_scanTag, m_queue, m_lastSearch);
}

void TaskTabs::onLocated(const LocateResult& result)
{
    if (result.tag != m_findTag)
        return;
    m_findTag = 0;
    const QString id = MemberText::displayText(result.id.left(200));
    if (!result.error.isEmpty() || result.row < 0) {
        QString message = !result.error.isEmpty() ? result.error.message
                          : m_plain ? tr("that message is no longer in %1").arg(m_queue)
                                    : tr("no task with id %1 in queue %2").arg(id, m_queue);
        if (m_findKind == Find::Match && result.error.isEmpty()) {
            m_findBar->markGone(result.id, tr("gone"));
            message = m_plain
                          ? tr("that message is no longer in %1: nothing is selected").arg(m_queue)
                          : tr("task %1 is no longer in queue %2 (acked, cancelled or "
                               "deleted since the search): nothing is selected")
                                .arg(id, m_queue);
        }
        // A pushed task already taken by a worker is no error: the push's report stays.
        if (m_findKind == Find::Id && !m_plain && result.error.isEmpty()) {
            // Acked or cancelled tasks keep their last events a while: "did order 42 run?"
            // has an answer. Asked on the I/O thread; the miss is said if there is none.
            m_missMessage = message;
            m_historyTag = AdminClient::newTag();
            m_client->tasks()->loadTaskHistory(m_historyTag, m_queue, result.id);
            return;
        }
        if (m_findKind != Find::Quietly)
            m_findBar->setError(message);
        return;
    }
    if (m_findKind == Find::Match && !m_plain && result.set != m_lastSearch.set) {
        // No longer a match of the search (requeued, claimed, died): not selected there.
        m_findBar->markGone(result.id, tr("now %1").arg(setName(result.set)));
        m_findBar->setError(tr("task %1 is no longer %2: it is %3 now; nothing is selected")
                                .arg(id, setName(m_lastSearch.set), setName(result.set)));
        return;
    }
    setCurrentSet(result.set);
    table(result.set)->selectTask(result.id, result.row);
}

} // namespace delayq::ui
