#pragma once

#include "client/grouptypes.h"
#include "widgets/queuetab.h"

class QLabel;
class QStandardItemModel;
class QTableView;

namespace delayq::ui {

class AdminClient;
class ColumnFit;

// The open queue's groups in fair order (docs/design/flow.md): how many take turns, wait at
// their cap or for their rate, and the busiest ones with their due and running tasks, so an
// operator sees which tenant holds the queue. Loaded on the I/O thread, only while shown.
class GroupsTab : public QueueTab
{
    Q_OBJECT

public:
    enum Column
    {
        Group,
        DueWaiting,
        Active,
        HeldBy,
        ColumnCount
    };

    // The busiest groups loaded at each refresh.
    static constexpr int kLimit = 20;

    explicit GroupsTab(AdminClient* client, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    QLabel* summary() const { return m_summary; }
    QLabel* footer() const { return m_footer; }
    QLabel* note() const { return m_note; }

signals:
    void loaded();

private:
    quint64 request() override;
    void forget() override;
    // A plain sorted set has no groups, a queue in due order no turns: a note says so.
    void updateNote() override;
    void onLoaded(const GroupsResult& result);
    void fill();

    AdminClient* m_client;
    QLabel* m_summary;
    QTableView* m_view;
    ColumnFit* m_fit;
    QStandardItemModel* m_model;
    QLabel* m_footer;
    GroupsResult m_result;
    bool m_loaded = false; // m_result is the open queue's
};

} // namespace delayq::ui
