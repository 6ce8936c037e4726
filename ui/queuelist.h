#pragma once

#include "admintypes.h"

#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
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
    void setCurrentQueue(const QString& name);
    QStringList names() const;
    QLineEdit* filter() const { return m_filter; }

signals:
    void queueOpened(const QString& name);
    void listed();

private:
    void onListed(const QueueListResult& result);
    void openTyped();

    AdminClient* m_client;
    QLineEdit* m_filter;
    FieldError* m_error;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QString m_current;
    bool m_inFlight = false;
    quint64 m_tag = 0;
};

} // namespace delayq::ui
