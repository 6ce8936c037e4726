#pragma once

#include "admintypes.h"

#include <QWidget>

class QTableView;

namespace delayq::ui {

class AdminClient;
class TaskModel;

// One set's table: a lazily paged TaskModel in a view tuned for millions of rows (fixed
// row heights, no per-row sizing), with jump to a row or a time.
class TaskTable : public QWidget
{
    Q_OBJECT

public:
    TaskTable(AdminClient* client, TaskSetKind set, QWidget* parent = nullptr);

    TaskModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    TaskSetKind set() const { return m_set; }

    void setQueue(const QString& queue);
    void refresh();
    void setUtc(bool utc);

    // Ids of the selected rows whose page is loaded (a selection is at most what is loaded).
    QStringList selectedIds() const;
    // The current task, or nullptr when none is selected or its page is not loaded yet.
    const TaskRow* currentTask() const;

    // Scrolls to the row, makes it current, and says rowShown once its page is loaded.
    void jumpToRow(qint64 row);
    // First task due (scored) at or after ms.
    void jumpToTime(qint64 ms);

signals:
    void currentTaskChanged();
    void rowShown(int row);
    void jumpFailed(const QString& message);

private:
    void onPageLoaded(int firstRow, int rows);
    void onLocated(const LocateResult& result);
    void sizeColumns();

    AdminClient* m_client;
    TaskSetKind m_set;
    TaskModel* m_model;
    QTableView* m_view;
    qint64 m_pendingJump = -1;
    bool m_fitIdColumn = false;
    quint64 m_locateTag = 0;
};

} // namespace delayq::ui
