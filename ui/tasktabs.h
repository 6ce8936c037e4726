#pragma once

#include "admintypes.h"
#include "matchtypes.h"

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

    TaskTable* table(TaskSetKind set) const;
    TaskTable* current() const;
    FindBar* findBar() const { return m_findBar; }
    // The stepped searches and bulk actions on "all tasks that match" of native queues.
    MatchClient* matchClient() const { return m_matchClient; }
    // What the last text search of a native queue looked for (its set, text and field).
    MatchFilter lastSearch() const { return m_lastSearch; }
    QString queue() const { return m_queue; }
    void setCurrentSet(TaskSetKind set);

    void setQueue(const QString& queue);
    // A plain sorted set has no leases, attempts or dead letters: only the pending table,
    // without the columns that do not apply.
    void setPlain(bool plain);
    // Refreshes the visible table only; the others refresh when shown.
    void refresh();
    void setCounts(const CountsResult& counts);
    void setUtc(bool utc);
    void setClockOffset(qint64 ms);
    void showFind();
    void findId(const QString& id);
    // Selects the task (pending, active or dead) once located; a miss goes to the status bar.
    void selectTask(const QString& id);
    // Tasks (of a native queue: the current tab's payloads or last errors) or plain members
    // containing the text, listed in the find bar as found.
    void findText(const QString& text);

signals:
    void currentTaskChanged();
    void statusMessage(const QString& message);
    // "Act on all matches" of the find bar: every task the last search's filter matches.
    void actOnMatchesRequested(const delayq::ui::MatchFilter& filter);

private:
    void onLocated(const LocateResult& result);

    AdminClient* m_client;
    QString m_queue;
    FindBar* m_findBar;
    QTabWidget* m_tabs;
    QList<TaskTable*> m_tables;
    quint64 m_findTag = 0;
    bool m_findQuietly = false; // selectTask: no find bar error
    quint64 m_scanTag = 0;
    MatchClient* m_matchClient;
    MatchFilter m_lastSearch;
    bool m_plain = false;
};

} // namespace delayq::ui
