#pragma once

#include "client/overviewtypes.h"

#include <QMap>
#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace delayq::ui {

class ColumnFit;
class OverviewModel;

// Under the overview: the queues of the watched servers (Alerts → Watch servers), side by side,
// each row naming its server, from the readings the alerts take every 10 s. Read-only, with no
// selection and no actions: a queue named as one of the window's own server must never be
// taken for it. Hidden while no server is watched.
class WatchedServersView : public QWidget
{
    Q_OBJECT

public:
    explicit WatchedServersView(QWidget* parent = nullptr);

    void setReading(const QString& server, const QList<OverviewRow>& rows);
    void setUnreachable(const QString& server, const QString& reason);
    // No longer watched: its rows and its line go.
    void remove(const QString& server);

    OverviewModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    // A line per watched queue whose consumers need a look, and per watched server that could
    // not be read.
    QLabel* problems() const { return m_problems; }

private:
    void rebuild();

    QMap<QString, QList<OverviewRow>> m_rows;
    QMap<QString, QString> m_unreachable;
    QLabel* m_title;
    OverviewModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    ColumnFit* m_fit;
    QLabel* m_problems;
};

} // namespace delayq::ui
