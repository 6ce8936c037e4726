#pragma once

#include "client/queuetypes.h"

#include <QWidget>

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
class AuditTab : public QWidget
{
    Q_OBJECT

public:
    // The newest entries loaded at each refresh.
    static constexpr int kLimit = 500;

    explicit AuditTab(AdminClient* client, QWidget* parent = nullptr);

    void setQueue(const QString& queue);
    // A plain sorted set has no audit trail: a note says so.
    void setPlain(bool plain);
    void refresh();
    void setUtc(bool utc);
    QTableView* view() const { return m_view; }
    QLineEdit* filter() const { return m_filter; }
    QLabel* footer() const { return m_footer; }
    bool isNoteShown() const;

signals:
    void loaded();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void onLoaded(const AuditResult& result);
    void fill();
    void updateNote();
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
    QLabel* m_note;
    QLabel* m_footer;
    QList<AuditRow> m_rows;
    QString m_queue;
    bool m_plain = false;
    bool m_utc = false;
    bool m_inFlight = false;
    quint64 m_tag = 0;
};

} // namespace delayq::ui
