#pragma once

#include "client/tasktypes.h"

#include <QPersistentModelIndex>
#include <QWidget>

class QScrollBar;
class QTableView;

namespace delayq::ui {

class AdminClient;
class ColumnFit;
class TaskModel;

// One set's table: a lazily paged TaskModel in a view tuned for millions of rows (fixed
// row heights, no per-row sizing), with jump to a row or a time. The view holds a window of
// the model's rows (TaskModel::windowRows), so nothing the GUI thread does grows with the
// queue; the table's own scroll bar spans every rank and moves the window when the view
// nears its edge (by the bar, the wheel or the keys). It keeps its place by task,
// not by row number: when a refresh moves the tasks (workers consume the head), the selected
// task stays selected where it was on the screen (or, with none in view, the top row's task
// stays at the top); a selected task that leaves the table is unselected and said
// (selectionLeft), never replaced by the task that slid into its row.
class TaskTable : public QWidget
{
    Q_OBJECT

public:
    TaskTable(AdminClient* client, TaskSet set, QWidget* parent = nullptr);
    ~TaskTable() override;

    TaskModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    // The vertical scroll bar: its value is the rank of the top row, over the whole set
    // (the view's own bar, hidden, spans only the window).
    QScrollBar* scrollBar() const { return m_bar; }
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

    // Scrolls to the row (a rank in the whole set), makes it current, and says rowShown
    // once its page is loaded.
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
    // The row jumped to or selected is shown and loaded: its rank in the whole set.
    void rowShown(qint64 row);
    void jumpFailed(const QString& message);
    void taskMissed(const QString& id);
    // Selected tasks left the table since the last read (consumed, cancelled, moved): they
    // are unselected; `ids` are those that left.
    void selectionLeft(const QStringList& ids);
    // The rows shown moved so far from selected tasks that they left the view's window of
    // rows: they are unselected (never replaced by other tasks); `ids` are those.
    void selectionOutOfWindow(const QStringList& ids);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onPageLoaded(qint64 firstRank, int rows);
    void onLocated(const LocateResult& result);
    // The page of the task selectTask waits for was read: select it there, or say missed.
    void resolveWanted(qint64 firstRank, int rows);
    void selectRank(qint64 rank);
    // The window (the model's base) and the two scroll bars.
    int visibleRows() const;
    int viewTop() const;           // the view's top row in the window
    void setViewTop(int row);      // scrolls the view so that row is at its top
    void showRank(qint64 rank);    // moves the window when rank is outside it
    void moveWindowTo(qint64 top); // the window around rank top, kept at the top
    void onBarMoved(int value);
    void onViewScrolled();
    void updateBar();
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
    QScrollBar* m_bar;
    ColumnFit* m_fit;
    bool m_syncing = false; // one bar being set from the other
    bool m_moving = false;  // the window moves: not a refresh, the tasks stay
    bool m_recentreQueued = false;
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
