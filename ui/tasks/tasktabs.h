#pragma once

#include "client/matchtypes.h"
#include "client/tasktypes.h"

#include <QElapsedTimer>
#include <QWidget>

class QTabWidget;

namespace delayq::ui {

class AdminClient;
class FindBar;
class MatchClient;
class TaskTable;

// Pending, active and dead tables in tabs, with the find bar above them.
class TaskTabs : public QWidget
{
    Q_OBJECT

public:
    explicit TaskTabs(AdminClient* client, QWidget* parent = nullptr);

    TaskTable* table(TaskSet set) const;
    TaskTable* current() const;
    FindBar* findBar() const { return m_findBar; }
    // The stepped searches and bulk actions on "all tasks that match" of native queues.
    MatchClient* matchClient() const { return m_matchClient; }
    // What the last text search of a native queue looked for (its set, text and field).
    MatchFilter lastSearch() const { return m_lastSearch; }
    QString queue() const { return m_queue; }
    void setCurrentSet(TaskSet set);

    void setQueue(const QString& queue);
    // A plain sorted set has no leases, attempts or dead letters: only the pending table,
    // without the columns that do not apply.
    void setPlain(bool plain);
    // Refreshes the visible table only; the others refresh when shown.
    void refresh();
    void setCounts(const CountsResult& counts);
    void setUtc(bool utc);
    bool utc() const { return m_utc; }
    void setClockOffset(qint64 ms);
    void showFind();
    // The Active tab, searched for the tasks the named worker holds.
    void findHeldBy(const QString& worker);
    void findId(const QString& id);
    // Selects the task (pending, active or dead) once located; a miss goes to the status bar.
    void selectTask(const QString& id);
    // A match of the last text search was chosen: selects exactly that task in the searched
    // set, or selects nothing, says why and marks the match in the list (gone, or moved to
    // another set).
    void chooseMatch(const QString& id);
    // Asks the server which listed matches left the searched set, and marks them in the
    // list: now (after an action; once more when a check is in flight), and at most every
    // 10 s with the live refresh (one rank per match: up to 1,000 round trips).
    void checkMatches();
    // Tasks (of a native queue: the current tab's payloads or last errors) or plain members
    // containing the text, listed in the find bar as found.
    void findText(const QString& text);

signals:
    void currentTaskChanged();
    void statusMessage(const QString& message);
    // "Act on all matches" of the find bar: every task the last search's filter matches.
    void actOnMatchesRequested(const delayq::ui::MatchFilter& filter);
    // Find id met a task that has left the queue but whose last events are kept: its
    // history, for the details pane. Nothing is selected for it.
    void finishedTaskFound(const delayq::ui::TaskHistoryResult& history);

private:
    enum class Find
    {
        Id,      // typed in the find bar: a miss is an error there
        Quietly, // a pushed task: a miss is no error
        Match,   // a match of the text search: must still be in the searched set
    };
    // `again`: the same find once more, after the task moved under it.
    void locate(const QString& id, Find kind, bool again = false);
    void onLocated(const LocateResult& result);
    void onMissed(const QString& id);
    // The answer to "has this missing id a kept history?" (asked on a miss of Find id).
    void onMissHistory(const TaskHistoryResult& result);
    // Nothing selected in any table: the operator's aim moved to the task being found.
    void clearSelections();

    AdminClient* m_client;
    QString m_queue;
    FindBar* m_findBar;
    QTabWidget* m_tabs;
    QList<TaskTable*> m_tables;
    quint64 m_findTag = 0;
    Find m_findKind = Find::Id;
    QString m_findingId;
    int m_findTries = 0; // locates of m_findingId: a task moving fast is given up on
    quint64 m_checkTag = 0;
    quint64 m_historyTag = 0; // Find id missed: its kept history asked for
    QString m_missMessage;    // said if the missing id has no kept history either
    bool m_utc = false;
    bool m_checkAgain = false;
    QElapsedTimer m_lastCheck;
    quint64 m_scanTag = 0;
    MatchClient* m_matchClient;
    MatchFilter m_lastSearch;
    bool m_plain = false;
};

} // namespace delayq::ui
