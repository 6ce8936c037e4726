#pragma once

#include "client/overviewtypes.h"

#include <QElapsedTimer>
#include <QHash>
#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace delayq::ui {

class AdminClient;
class ColumnFit;
class OverviewModel;
class WatchedServersView;

// Every queue of the server at a glance: counts, how late the most overdue task is, pause,
// the last minute and hour of acks and failures with a sparkline, the node on a cluster, the
// busiest groups of a queue in fair order, and
// the plain sorted sets the queue list found; under them, the queues of the watched servers. One
// pipelined snapshot per refresh, read on the I/O thread. Sortable, filterable; a double click
// opens the queue; a context menu acts on it.
class OverviewPage : public QWidget
{
    Q_OBJECT

public:
    // How often a refresh also reads every queue's forecast peak (issue 54): a bounded read
    // a queue, yet 120 ZCOUNTs each are more than the counts, so not at every refresh.
    static constexpr int kForecastEveryMs = 30000;

    explicit OverviewPage(AdminClient* client, QWidget* parent = nullptr);

    // A snapshot now, unless one is in flight (then its answer is the fresh one).
    void refresh();
    // The next refresh reads the forecast peaks again, however recent the last ones.
    void forecastNow() { m_forecastAge.invalidate(); }
    // The plain keys to show beside the queues (as the queue list discovered them).
    void setPlainKeys(const QList<PlainKeyRow>& keys);
    void setReadOnly(bool readOnly);
    // Thresholds changed: rows are coloured again and the legend says the new limits.
    void reloadThresholds();

    OverviewModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    QLineEdit* filter() const { return m_filter; }
    QLabel* legend() const { return m_legend; }
    QLabel* consumerAlarms() const { return m_consumers; }
    // The queues of the watched servers, under the window's own.
    WatchedServersView* watched() const { return m_watched; }
    bool isRefreshing() const { return m_inFlight; }
    // The row of the window's own server selected in the table (nullptr: none), as the last
    // snapshot shows it: the target of the queue-wide actions while the page is shown.
    const OverviewRow* selectedRow() const;
    // Widths of an overview table from the rows it shows now, its sparkline last: every column
    // on screen at a laptop's width (the watched servers' table too).
    static void fitColumns(QTableView* view, ColumnFit* fit);
    // A line per queue with no consumer or a stalled one ("orders on production: …" for a
    // watched server's), the first five and how many more.
    static QStringList consumerAlarms(const QList<OverviewRow>& rows);
    // The context menu's actions for a row (built anew each time, owned by `parent`).
    QList<QAction*> contextActions(const QString& name, QObject* parent);

signals:
    void queueOpened(const QString& name);
    void plainKeyOpened(const QString& key, const QString& unit);
    void pauseRequested(const QString& queue, bool pause);
    void settingsRequested(const QString& queue);
    void thresholdsRequested(const QString& queue);
    // Another row (or none) is selected: the queue-wide actions aim at it.
    void selectedRowChanged();
    // A snapshot was shown (or its error).
    void refreshed(const delayq::ui::OverviewResult& result);

private:
    void onLoaded(const OverviewResult& result);
    void open(const QModelIndex& proxyIndex);
    void showMenu(const QPoint& pos);
    void updateLegend();
    // A line per queue with no consumer or a stalled one, under the table.
    void showConsumerAlarms();
    // Disabled (the server can no longer be read) or enabled again: the rows say so.
    void changeEvent(QEvent* event) override;
    // Widths from the rows shown now (ColumnFit keeps them fitting as the page resizes).
    void fitColumns();

    AdminClient* m_client;
    OverviewModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    ColumnFit* m_fit;
    QLineEdit* m_filter;
    QLabel* m_legend;
    QLabel* m_consumers;
    WatchedServersView* m_watched;
    QLabel* m_status;
    QList<PlainKeyRow> m_plainKeys;
    quint64 m_tag = 0;
    bool m_inFlight = false;
    // The last forecast peak read of each queue, shown (and alerted on) between the readings
    // that read it again; m_forecastAge runs from the last reading that did.
    QHash<QString, OverviewRow> m_forecasts;
    QElapsedTimer m_forecastAge;
    bool m_forecastAsked = false;
    bool m_readOnly = false;
};

} // namespace delayq::ui
