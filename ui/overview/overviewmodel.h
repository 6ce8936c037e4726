#pragma once

#include "client/overviewtypes.h"
#include "queue/thresholds.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QDateTime>
#include <QFontMetricsF>

namespace delayq::ui {

// The overview's rows: one per queue and plain key, with the figures of the last snapshot.
// Rows above their thresholds carry a light background colour and a tooltip saying which
// limit; the cell of each figure above its limit is marked too (bold, a stronger colour), so
// which limit it is shows without hovering.
class OverviewModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Name,
        Server, // the watched server a row is from (WatchedServersView)
        Node,
        State,
        Pending,
        DueNow,
        OldestOverdue,
        ForecastPeak, // "11m at 09:04": the lateness forecast's peak (issue 54)
        Active,
        Dead,
        Consumers, // live workers; "none" when tasks wait for one
        Acked,     // "last minute / last hour"; sorts by the hour
        Failed,    // died + retried, the same way
        Groups,    // fair order's busiest groups, due and running each (shown when a row has them)
        LastHour,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole,
        AckedSeriesRole,
        FailedSeriesRole,
        BreachedRole,     // bool: the row is above a threshold
        BreachedCellRole, // bool: this cell's figure is above its threshold
        BusyGroupsRole,   // QList<GroupRow>: the Groups cell's busiest groups (none: no list)
    };
    static const QColor& warningColor();
    // The cell whose figure crossed its limit, stronger than the row's warningColor().
    static const QColor& breachColor();
    // The State cell of a queue its flow limit holds back (issue 51): seen, but not a warning.
    static const QColor& limitedColor();
    // From this much of its dead bound (the fuller of count and bytes) the Dead cell says the
    // bound ("95,000 / 100,000"); from nearDeadBound it is coloured too: the oldest dead tasks
    // are dropped next (`delayq stats` says NEAR THE BOUND from there).
    static constexpr double kShownDeadBound = 0.5;
    static constexpr double kNearDeadBound = 0.9;

    explicit OverviewModel(QObject* parent = nullptr);

    // Replaces the rows; the view's selection is kept by the proxy where names stay.
    void setRows(const QList<OverviewRow>& rows);
    // Thresholds changed: every row's colour is computed again.
    void reloadThresholds();
    // The server can no longer be read (since `since`): every row looks the same way, greyed
    // and in italics, its tooltip saying when the figures were live; no threshold colour or
    // bold cell passes for live. An invalid `since` makes the rows live again.
    void setStale(const QDateTime& since);
    bool isStale() const { return m_staleSince.isValid(); }
    const QDateTime& staleSince() const { return m_staleSince; }
    const QList<OverviewRow>& rows() const { return m_rows; }
    const OverviewRow* rowNamed(const QString& name) const;
    // Why the row is coloured, one line per limit; empty when it is fine.
    QStringList breaches(int row) const;
    bool showsNodes() const { return m_anyNode; }
    bool showsServers() const { return m_anyServer; }
    // A queue in fair order is among the rows: the Groups column is shown.
    bool showsGroups() const { return m_anyFair; }
    // A row's busiest groups: "big 4 due, 1 running; small 2 due, 0 running" ("—": none
    // busy; "" for a queue not in fair order).
    static QString groupsText(const OverviewRow& row);
    // One group: "big 4 due, 1 running", and whether its cap or rate holds it.
    static QString groupText(const GroupRow& g);
    // The busiest groups as the Groups cell draws them in `width` px of `metrics`' font, no
    // figure ever cut: as many whole groups as fit and how many are left out ("big 4 due, 1
    // running; +2 more"); else the busiest alone, its name cut before its figures
    // ("tenant-00… 4 due, 1 running; +2 more"), then without its running tasks ("big 4 due",
    // "… 4 due"); "…" when not even that fits. The tooltip has them all, whole.
    static QString groupsText(const QList<GroupRow>& groups, const QFontMetricsF& metrics,
                              qreal width);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVariant display(const OverviewRow& row, int column) const;
    QVariant sortValue(const OverviewRow& row, int column) const;
    // The breach of the figure in `column`, if that figure is above its limit.
    const Thresholds::Breach* breachIn(int row, int column) const;
    QVariant toolTip(const QModelIndex& index) const;
    // The forecast peak is above the queue's oldest-overdue threshold.
    static bool forecastAbove(const OverviewRow& row);
    // How much of a group the Groups cell says, from the most to the least.
    enum class GroupForm
    {
        Whole,  // "big 4 due, 1 running (at its group cap)"
        Counts, // "big 4 due, 1 running"
        Busiest // "big 4 due", or "big 1 running" when none is due
    };
    // A group's name as the cells say it: "(no group)" for the ungrouped.
    static QString groupName(const GroupRow& g);
    // A group in one of those forms, its name as given (`name` may be cut already).
    static QString groupText(const GroupRow& g, const QString& name, GroupForm form);
    // The dead bound in words, for the Dead cell's tooltip.
    static QString deadBoundText(const OverviewRow& row);

    QList<OverviewRow> m_rows;
    QList<QList<Thresholds::Breach>> m_breaches;
    QDateTime m_staleSince;
    bool m_anyNode = false;
    bool m_anyServer = false;
    bool m_anyFair = false;
};

} // namespace delayq::ui
