#pragma once

#include "client/plaintypes.h"
#include "client/queuetypes.h"

#include <QElapsedTimer>
#include <QSet>
#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItem;
class QStandardItemModel;
class QTableView;

namespace delayq::ui {

class AdminClient;
class FieldError;

// The queues found under the prefix with their counts, filterable. Enter in the filter
// opens the queue of that exact name even when it is not listed yet.
class QueueList : public QWidget
{
    Q_OBJECT

public:
    explicit QueueList(AdminClient* client, QWidget* parent = nullptr);

    void refresh();
    // Scans for plain keys now instead of at the next 30 s mark (keys were just made); a scan
    // under way is superseded and its answer ignored.
    void rediscover();
    void setCurrentQueue(const QString& name);
    QStringList names() const;
    // Plain sorted sets found by the last discovery, as "key" (unit, size in the view).
    QStringList plainKeys() const;
    QTableView* plainView() const { return m_plainView; }
    QTableView* view() const { return m_view; }
    // The node shown for a queue (on a cluster), empty when none.
    QString nodeOf(const QString& name) const;
    QLineEdit* filter() const { return m_filter; }
    // The plain keys of the last discovery, for the overview.
    QList<PlainKeyRow> plainRows() const;
    // Marks these queues paused (an icon and a tooltip), as the overview last read them.
    void setPausedQueues(const QSet<QString>& names);
    bool isMarkedPaused(const QString& name) const;

signals:
    void queueOpened(const QString& name);
    void listed();
    // The Node column appeared (a cluster) or went: the list wants more or less room.
    void nodeColumnShown(bool shown);
    void plainKeysListed();
    // unit: "ms" | "s", as detected from the scores.
    void plainKeyOpened(const QString& key, const QString& unit);

private:
    // The count columns fitted to their header and figures (after each listing).
    void fitCountColumns();
    // A sorted table of `model` through `proxy` (filtered on the first column), one row
    // selected at a time.
    QTableView* makeTable(QStandardItemModel* model, QSortFilterProxyModel* proxy);
    // Opening a queue or plain key from the tables or the filter; the client's answers.
    void connectViews();
    void onListed(const QueueListResult& result);
    void onPlainDiscovered(const PlainDiscoveryResult& result);
    void openTyped();
    void markPaused(QStandardItem* nameItem);

    AdminClient* m_client;
    QLineEdit* m_filter;
    FieldError* m_error;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QStandardItemModel* m_plainModel;
    QSortFilterProxyModel* m_plainProxy;
    QTableView* m_plainView;
    QLabel* m_plainLabel;
    QElapsedTimer m_sinceDiscovery;
    bool m_discovering = false;
    quint64 m_plainTag = 0;
    QString m_current;
    QSet<QString> m_paused;
    bool m_inFlight = false;
    bool m_showsListError = false; // m_error holds a failed listing's message, not a name's
    quint64 m_tag = 0;
};

} // namespace delayq::ui
