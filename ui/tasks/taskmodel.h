#pragma once

#include "client/tasktypes.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QSet>

namespace delayq::ui {

class AdminClient;

// The tasks of one set of one queue in score order, paged lazily by rank: the count comes
// from ZCARD, and a page of a few hundred rows is fetched the first time a view asks for
// one of its rows, so a queue of millions opens at once and scrolls to any row. A refresh
// re-reads the count, the pages last looked at and those of the selected rows, and keeps
// persistent indexes (the selection) on the same task ids: one whose task is no longer on
// the pages read is dropped, never left on the row another task took. At most one request
// is in flight.
//
// The model's rows are a window of at most windowRows() ranks starting at base(), not the
// whole queue: a view keeps a few bytes per row (QHeaderView's sections) and walks them on
// every reset and layout change, which on 10,000,000 rows stalled the GUI thread for over
// 100 ms. With the window, that work is the same on a queue of any size; setBase moves
// the window (TaskTable does, as its scroll bar spans the whole queue). A queue no bigger
// than the window has row == rank.
class TaskModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Role
    {
        IdRole = Qt::UserRole + 1,
        ScoreRole,
        LoadedRole
    };
    enum class Field
    {
        Time,
        Relative,
        Id,
        Attempts,
        Worker,
        LastError,
        Payload
    };

    TaskModel(AdminClient* client, TaskSet set, QObject* parent = nullptr);

    TaskSet set() const { return m_set; }
    QString queue() const { return m_queue; }
    // Empties the model and loads the first page of the new queue.
    void setQueue(const QString& queue);
    // Re-reads the count and the recently viewed pages; coalesced while one is in flight.
    void refresh();
    void setUtc(bool utc);
    // A plain sorted set's rows are messages: the id column is headed so.
    void setPlain(bool plain);
    void setClockOffset(qint64 ms) { m_clockOffsetMs = ms; }
    void setPageSize(int rows) { m_pageSize = qMax(1, rows); }
    int pageSize() const { return m_pageSize; }
    // The most rows a view is given (default kDefaultWindowRows); set before setQueue.
    void setWindowRows(int rows) { m_windowRows = qMax(1, rows); }
    int windowRows() const { return m_windowRows; }

    // Tasks in the set (the queue's count), of which the rows show a window.
    qint64 total() const { return m_total; }
    // The rank of row 0.
    qint64 base() const { return m_base; }
    // The queue holds more tasks than the window: not every rank has a row.
    bool isWindowed() const { return m_total > m_windowRows; }
    // Moves the window to start at rank `base` (clamped so it stays full). A layout change:
    // each persistent index (the selection) keeps its task's rank, and one whose rank left
    // the window is dropped.
    void setBase(qint64 base);
    qint64 rankOf(int row) const { return m_base + row; }
    // The row showing `rank`, or -1 when it is outside the window.
    int rowOf(qint64 rank) const;

    // nullptr when the row's page is not loaded (yet).
    const TaskRow* taskAt(int row) const;
    QString idAt(int row) const;
    // The same by rank in the whole set (equal to the row when base() is 0).
    const TaskRow* taskAtRank(qint64 rank) const;
    QString idAtRank(qint64 rank) const;
    // The task `id` on the pages read (nullptr: not there, or its page not read).
    const TaskRow* findTask(const QString& id) const;
    // Asks for the page holding rank (for jump and find); pageLoaded tells when it is there.
    void ensureLoaded(qint64 rank);
    // Reads the page holding rank again even when it is cached (find: the rank the server
    // gave a task is checked against a page read after that rank).
    void reload(qint64 rank);
    // reload(rank) asked, and its read not sent yet: a page loaded now is an older read.
    bool isReloading(qint64 rank) const { return m_stale.contains(rank / m_pageSize); }
    Field fieldOf(int column) const { return m_fields.value(column, Field::Id); }
    int columnOf(Field field) const { return static_cast<int>(m_fields.indexOf(field)); }
    bool isBusy() const { return m_inFlight; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static constexpr int kDefaultWindowRows = 100000;

signals:
    // A page was stored: its first rank (not row) and its number of tasks.
    void pageLoaded(qint64 firstRank, int rows);
    void refreshed();
    void loadFailed(const QString& error);

private:
    void requestPage(qint64 page) const;
    void pump();
    void onPagesLoaded(const PageResult& result);
    void storePages(const PageResult& result);
    // Stores the pages with the rows moved: a selected or current task stays on its row
    // wherever the pages now put it.
    void keepRowsOf(const PageResult& result, bool wasRefresh, qint64 newBase);
    // Rows the window shows for a count and a base.
    int rowsFor(qint64 total, qint64 base) const;
    void touch(qint64 page) const;
    QString text(const TaskRow& task, Field field) const;

    AdminClient* m_client;
    TaskSet m_set;
    QList<Field> m_fields;
    QString m_queue;
    qint64 m_total = 0;
    qint64 m_base = 0; // rank of row 0
    int m_rows = 0;    // rowCount(): at most m_windowRows
    int m_windowRows = kDefaultWindowRows;
    int m_pageSize = 250;
    bool m_plain = false;
    bool m_utc = false;
    qint64 m_clockOffsetMs = 0;

    // Caches are filled from const data() calls: the view asking is what triggers a fetch.
    mutable QHash<qint64, QList<TaskRow>> m_pages;
    mutable QList<qint64> m_recent; // most recently used page last
    mutable QList<qint64> m_wanted; // pages asked for; the newest are fetched first
    mutable QSet<qint64> m_stale;   // pages to read again although cached
    mutable bool m_pumpScheduled = false;
    bool m_inFlight = false;
    bool m_inFlightIsRefresh = false;
    bool m_refreshQueued = false;
    quint64 m_tag = 0;
};

} // namespace delayq::ui
