#include "overview/watchedserversview.h"

#include "overview/busygroupsdelegate.h"
#include "overview/overviewmodel.h"
#include "overview/overviewpage.h"
#include "overview/sparklinedelegate.h"
#include "widgets/columnfit.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace delayq::ui {

WatchedServersView::WatchedServersView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("watchedServers"));
    m_title = new QLabel(tr("Watched servers (read-only: File → Connect… to act on one of "
                            "their queues)"),
                         this);
    m_title->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true);
    m_model = new OverviewModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(OverviewModel::SortRole);
    m_view = new QTableView(this);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(OverviewModel::Server, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::NoSelection);
    m_view->setFocusPolicy(Qt::NoFocus);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_fit = new ColumnFit(m_view);
    m_view->setItemDelegateForColumn(OverviewModel::LastHour, new SparklineDelegate(m_view));
    m_view->setItemDelegateForColumn(OverviewModel::Groups, new BusyGroupsDelegate(m_view));
    m_problems = new QLabel(this);
    m_problems->setObjectName(QStringLiteral("watchedProblems"));
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #a93226; font-weight: bold"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_problems);
    rebuild();
}

void WatchedServersView::setReading(const QString& server, const QList<OverviewRow>& rows)
{
    QList<OverviewRow> named = rows;
    for (OverviewRow& row : named)
        row.server = server;
    m_rows.insert(server, named);
    m_unreachable.remove(server);
    rebuild();
}

void WatchedServersView::setUnreachable(const QString& server, const QString& reason)
{
    // Its last figures would read as today's: they go, and the line says why.
    m_rows.remove(server);
    m_unreachable.insert(server, reason);
    rebuild();
}

void WatchedServersView::remove(const QString& server)
{
    m_rows.remove(server);
    m_unreachable.remove(server);
    rebuild();
}

void WatchedServersView::rebuild()
{
    QList<OverviewRow> all;
    for (const auto& rows : std::as_const(m_rows))
        all.append(rows);
    m_model->setRows(all);
    m_view->setColumnHidden(OverviewModel::Node, !m_model->showsNodes());
    m_view->setColumnHidden(OverviewModel::Groups, !m_model->showsGroups());
    OverviewPage::fitColumns(m_view, m_fit);
    QStringList lines = OverviewPage::consumerAlarms(all);
    for (auto it = m_unreachable.cbegin(); it != m_unreachable.cend(); ++it)
        lines.append(tr("%1: cannot be reached: %2").arg(it.key(), it.value()));
    m_problems->setText(lines.join(QLatin1Char('\n')));
    m_problems->setVisible(!lines.isEmpty());
    setVisible(!m_rows.isEmpty() || !m_unreachable.isEmpty());
}

} // namespace delayq::ui
