#pragma once

#include "client/grouptypes.h"

#include <QWidget>

class QLabel;
class QStandardItemModel;
class QTableView;

namespace delayq::ui {

class AdminClient;
class ColumnFit;

// The open queue's groups in fair order (docs/design/flow.md): how many take turns, wait at
// their cap or for their rate, and the busiest ones with their due and running tasks, so an
// operator sees which tenant holds the queue. Loaded on the I/O thread, only while shown.
class GroupsTab : public QWidget
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

    void setQueue(const QString& queue);
    // A plain sorted set has no groups: a note says so.
    void setPlain(bool plain);
    void refresh();
    QTableView* view() const { return m_view; }
    QLabel* summary() const { return m_summary; }
    QLabel* footer() const { return m_footer; }
    QLabel* note() const { return m_note; }
    bool isNoteShown() const;

signals:
    void loaded();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void onLoaded(const GroupsResult& result);
    void fill();
    void updateNote();

    AdminClient* m_client;
    QLabel* m_summary;
    QTableView* m_view;
    ColumnFit* m_fit;
    QStandardItemModel* m_model;
    QLabel* m_note;
    QLabel* m_footer;
    GroupsResult m_result;
    bool m_loaded = false; // m_result is the open queue's
    QString m_queue;
    bool m_plain = false;
    bool m_inFlight = false;
    quint64 m_tag = 0;
};

} // namespace delayq::ui
