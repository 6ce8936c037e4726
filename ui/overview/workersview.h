#pragma once

#include "client/overviewtypes.h"

#include <QDialog>

#include <optional>

class QLabel;
class QTableWidget;
class QTimer;

namespace delayq::ui {

class AdminClient;
class ColumnFit;

// Every worker of every queue, from the heartbeats (docs/admin.md, "Workers"): live, gone or
// stalled, where it runs, what it holds and did. Loaded on the I/O thread when opened and
// every few seconds while shown; sortable by any column. A double click (or Show held tasks)
// opens the worker's queue on its Active tab, where the tasks it holds are.
class WorkersView : public QDialog
{
    Q_OBJECT

public:
    WorkersView(AdminClient* client, QWidget* parent = nullptr);

    void reload();
    QTableWidget* table() const { return m_table; }
    QLabel* summary() const { return m_summary; }

signals:
    void loaded();
    // The operator asked for the tasks this worker holds.
    void heldTasksRequested(const QString& queue, const QString& worker);

private:
    enum Column
    {
        Queue,
        Worker,
        State,
        Host,
        Pid,
        Handler,
        Threads,
        Up,
        LastSeen,
        Held,
        Acked,
        Failed,
        LatenessP99,
        ColumnCount
    };
    void onLoaded(const WorkersResult& result);
    void fill(const WorkersResult& result);
    void addRow(const WorkerRow& w, qint64 now);
    void requestHeldTasks();
    // Whether the selected row is a plain key's consumer; empty when nothing is selected.
    std::optional<bool> selectedRowIsPlain() const;

    AdminClient* m_client;
    QLabel* m_summary;
    ColumnFit* m_fit;
    QTableWidget* m_table;
    QTimer* m_timer;
    quint64 m_tag = 0;
    bool m_inFlight = false;
};

} // namespace delayq::ui
