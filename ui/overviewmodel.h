#pragma once

#include "overviewtypes.h"
#include "thresholds.h"

#include <QAbstractTableModel>
#include <QColor>

namespace delayq::ui {

// The overview's rows: one per queue and plain key, with the figures of the last snapshot.
// Rows above their thresholds carry a background colour and a tooltip saying which limit.
class OverviewModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Name,
        Node,
        State,
        Pending,
        DueNow,
        OldestOverdue,
        Active,
        Dead,
        Acked,  // "last minute / last hour"; sorts by the hour
        Failed, // died + retried, the same way
        LastHour,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole,
        AckedSeriesRole,
        FailedSeriesRole,
        BreachedRole, // bool: above a threshold
    };
    static const QColor& warningColor();

    explicit OverviewModel(QObject* parent = nullptr);

    // Replaces the rows; the view's selection is kept by the proxy where names stay.
    void setRows(const QList<OverviewRow>& rows);
    // Thresholds changed: every row's colour is computed again.
    void reloadThresholds();
    const QList<OverviewRow>& rows() const { return m_rows; }
    const OverviewRow* rowNamed(const QString& name) const;
    // Why the row is coloured, one line per limit; empty when it is fine.
    QStringList breaches(int row) const { return m_breaches.value(row); }
    bool showsNodes() const { return m_anyNode; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVariant display(const OverviewRow& row, int column) const;
    QVariant sortValue(const OverviewRow& row, int column) const;

    QList<OverviewRow> m_rows;
    QList<QStringList> m_breaches;
    bool m_anyNode = false;
};

} // namespace delayq::ui
