#pragma once

#include "client/tasktypes.h"

#include <QPersistentModelIndex>
#include <QWidget>

class QTableView;

namespace delayq::ui {

class AdminClient;
class ColumnFit;
class TaskModel;

// One set's table: a lazily paged TaskModel in a view tuned for millions of rows (fixed
// row heights, no per-row sizing), with jump to a row or a time. It keeps its place by task,
// not by row number: when a refresh moves the tasks (workers consume the head), the selected
// task stays selected where it was on the screen (or, with none in view, the top row's task
// stays at the top); a selected task that leaves the table is unselected and said
// (selectionLeft), never replaced by the task that slid into its row.
class TaskTable : public QWidget
{
    Q_OBJECT

public:
    TaskTable(AdminClient* client, TaskSet set, QWidget* parent = nullptr);

    TaskModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    TaskSet set() const { return m_set; }

    void setQueue(const QString& queue);
    void refresh();
    void setUtc(bool utc);

    // Ids of the selected rows whose page is loaded (a selection is at most what is loaded).
    QStringList selectedIds() const;
    // The same rows' tasks, in row order.
    QList<TaskRow> selectedTasks() const;
    // The current task, or nullptr when it is not selected or its page is not loaded yet.
    const TaskRow* currentTask() const;
    // The current row is also selected (its page may still be loading).
    bool hasCurrentSelected() const;
    // Selects nothing and leaves no current row (after a destructive action).
    void clearSelection();

    // Scrolls to the row, makes it current, and says rowShown once its page is loaded.
    void jumpToRow(qint64 row);
    // Selects the task `id` that the server ranked at `row`, by its id: the row's page is
    // read again and the task is selected where that page shows it (rowShown); when the
    // page does not hold it (it moved or went since it was ranked), nothing is selected and
    // taskMissed says so. Never selects a row for its number alone.
    void selectTask(const QString& id, qint64 row);
    // First task due (scored) at or after ms, selected.
    void jumpToTime(qint64 ms);
    // The same row scrolled to the top, with the selection left as it is.
    void scrollToTime(qint64 ms);

    // After columns were hidden or shown: the columns fit the width again (ColumnFit), the
    // last visible one taking the room left.
    void fitLastColumn();

signals:
    void currentTaskChanged();
    void rowShown(int row);
    void jumpFailed(const QString& message);
    void taskMissed(const QString& id);
    // Selected tasks left the table since the last read (consumed, cancelled, moved): they
    // are unselected; `ids` are those that left.
    void selectionLeft(const QStringList& ids);

private:
    void onPageLoaded(int firstRow, int rows);
    void onLocated(const LocateResult& result);
    // The page of the task selectTask waits for was read: select it there, or say missed.
    void resolveWanted(int firstRow, int rows);
    void selectRow(int row);
    // Before and after a refresh moves rows: the task to keep in place, and the selection.
    void rememberPlace();
    void restorePlace();
    void sizeColumns();
    int idWidth() const;
    int leastIdWidth() const;
    int minimumLastWidth() const;

    AdminClient* m_client;
    TaskSet m_set;
    TaskModel* m_model;
    QTableView* m_view;
    ColumnFit* m_fit;
    qint64 m_pendingJump = -1;
    QString m_wantedId; // selectTask: the task to select once its page is read
    qint64 m_wantedRow = -1;
    bool m_fitIdColumn = false;
    bool m_selectOnJump = true;
    quint64 m_locateTag = 0;
    QPersistentModelIndex m_anchor; // the task kept where it was on the screen
    int m_anchorRow = -1;           // its row before the move
    QStringList m_selectedBefore;   // the selected tasks' ids before the move
};

} // namespace delayq::ui
