#pragma once

#include "client/queuetypes.h"
#include "widgets/queuetab.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace delayq::ui {

class AdminClient;
class ColumnFit;

// The open queue's audit trail: who changed what through delayq or delayq-admin, newest
// first, with a filter over every column. Loaded on the I/O thread, only while shown.
class AuditTab : public QueueTab
{
    Q_OBJECT

public:
    // The newest entries loaded at each refresh.
    static constexpr int kLimit = 500;

    explicit AuditTab(AdminClient* client, QWidget* parent = nullptr);

    void setUtc(bool utc);
    QTableView* view() const { return m_view; }
    QLineEdit* filter() const { return m_filter; }
    QLabel* footer() const { return m_footer; }

signals:
    void loaded();

private:
    quint64 request() override;
    void forget() override;
    // A plain sorted set has no audit trail: a note says so.
    void updateNote() override;
    void onLoaded(const AuditResult& result);
    void fill();
    // "Entries shown: 3 of 40": what the filter lets through, of what was loaded.
    void updateFooter();
    // The detail as an operator reads it: a reschedule's "due=MS" as a time in the zone of
    // the Time column; any other detail as it is.
    QString detailText(const AuditRow& row) const;

    AdminClient* m_client;
    QLineEdit* m_filter;
    QTableView* m_view;
    ColumnFit* m_fit;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLabel* m_footer;
    QList<AuditRow> m_rows;
    bool m_utc = false;
};

} // namespace delayq::ui
