#include "overview/overviewpage.h"

#include "client/adminclient.h"
#include "client/overviewclient.h"
#include "overview/busygroupsdelegate.h"
#include "overview/overviewmodel.h"
#include "overview/sparklinedelegate.h"
#include "overview/watchedserversview.h"
#include "queue/thresholds.h"
#include "widgets/columnfit.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

namespace delayq::ui {

OverviewPage::OverviewPage(AdminClient* client, QWidget* parent) : QWidget(parent), m_client(client)
{
    setObjectName(QStringLiteral("overview"));
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter queues by name"));
    m_filter->setClearButtonEnabled(true);
    m_model = new OverviewModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(OverviewModel::SortRole);
    m_proxy->setFilterKeyColumn(OverviewModel::Name);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filter, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);
    m_view = new QTableView(this);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(OverviewModel::Name, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    // Rows as tall as the task tables' (the style's default is a third more): with the
    // timeline docked below, 8 rows and their two-line headers fit a 700 px window.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->setItemDelegateForColumn(OverviewModel::LastHour, new SparklineDelegate(m_view));
    m_view->setItemDelegateForColumn(OverviewModel::Groups, new BusyGroupsDelegate(m_view));
    // Every column on screen at a laptop's width: the figures take what their text and
    // header need while there is room and elide their headers when there is not; the
    // sparkline, last, takes the room left.
    m_fit = new ColumnFit(m_view);
    m_view->setColumnHidden(OverviewModel::Node, true);
    m_view->setColumnHidden(OverviewModel::Server, true); // the watched servers' table has it
    // Fair order's busiest groups (read with the snapshot): shown while a queue is in it.
    m_view->setColumnHidden(OverviewModel::Groups, true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTableView::doubleClicked, this, &OverviewPage::open);
    connect(m_view, &QTableView::activated, this, &OverviewPage::open);
    connect(m_view, &QWidget::customContextMenuRequested, this, &OverviewPage::showMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &OverviewPage::selectedRowChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &OverviewPage::selectedRowChanged);
    m_legend = new QLabel(this);
    m_legend->setTextFormat(Qt::PlainText);
    m_legend->setWordWrap(true);
    // The queues whose consumers need a look, said in words and not only by a colour.
    m_consumers = new QLabel(this);
    m_consumers->setObjectName(QStringLiteral("consumerAlarms"));
    m_consumers->setTextFormat(Qt::PlainText);
    m_consumers->setWordWrap(true);
    m_consumers->setStyleSheet(QStringLiteral("color: #a93226; font-weight: bold"));
    m_consumers->setVisible(false);
    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4); // the rows, not the frame, get a laptop's height
    layout->setSpacing(4);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_consumers);
    m_watched = new WatchedServersView(this);
    layout->addWidget(m_watched, 1);
    layout->addWidget(m_legend);
    layout->addWidget(m_status);
    connect(client->overview(), &OverviewClient::overviewLoaded, this, &OverviewPage::onLoaded);
    // Another server: its queues, not the last ones, and a snapshot not held by an old one.
    connect(client, &AdminClient::connected, this, [this] {
        m_inFlight = false;
        m_plainKeys.clear();
        m_forecasts.clear();
        m_forecastAge.invalidate();
        m_model->setRows({});
    });
    updateLegend();
}

void OverviewPage::refresh()
{
    if (m_inFlight || !m_client->isConnected())
        return;
    m_inFlight = true;
    m_tag = AdminClient::newTag();
    // The forecast peaks feed the alerts too, so they are read whether the page is seen or not.
    m_forecastAsked = !m_forecastAge.isValid() || m_forecastAge.elapsed() >= kForecastEveryMs;
    // The minute counters (60 HMGETs a queue) only while the page is seen: the hidden page
    // still refreshes for the pause markers of the queue list and the title.
    m_client->overview()->loadOverview(m_tag, m_plainKeys, isVisible(), m_forecastAsked);
}

void OverviewPage::setPlainKeys(const QList<PlainKeyRow>& keys)
{
    m_plainKeys = keys;
}

void OverviewPage::setReadOnly(bool readOnly)
{
    m_readOnly = readOnly;
}

void OverviewPage::reloadThresholds()
{
    m_model->reloadThresholds();
    updateLegend();
}

void OverviewPage::onLoaded(const OverviewResult& result)
{
    if (result.tag != m_tag)
        return;
    m_inFlight = false;
    if (!result.error.isEmpty()) {
        m_status->setText(result.error.text());
        emit refreshed(result);
        return;
    }
    const QString selected =
        m_view->currentIndex().siblingAtColumn(OverviewModel::Name).data().toString();
    OverviewResult shown = result;
    if (m_forecastAsked) {
        m_forecastAge.start();
        m_forecasts.clear();
        for (const OverviewRow& row : result.rows)
            if (!row.plain)
                m_forecasts.insert(row.name, row);
    } else {
        // Between forecast readings, the last one read.
        for (OverviewRow& row : shown.rows) {
            const auto it = m_forecasts.constFind(row.name);
            if (row.plain || it == m_forecasts.constEnd())
                continue;
            row.forecastKnown = it->forecastKnown;
            row.forecastPeakMs = it->forecastPeakMs;
            row.forecastPeakAtMs = it->forecastPeakAtMs;
        }
    }
    m_model->setRows(shown.rows);
    m_view->setColumnHidden(OverviewModel::Node, !m_model->showsNodes());
    m_view->setColumnHidden(OverviewModel::Groups, !m_model->showsGroups());
    fitColumns();
    if (!selected.isEmpty()) {
        const auto hits = m_proxy->match(m_proxy->index(0, OverviewModel::Name), Qt::DisplayRole,
                                         selected, 1, Qt::MatchExactly);
        if (!hits.isEmpty())
            m_view->setCurrentIndex(hits.first());
    }
    emit selectedRowChanged(); // its pause state may be new
    showConsumerAlarms();
    m_status->setText(result.skipped > 0
                          ? tr("%1 registered names left out: not a queue, or keys of another type")
                                .arg(result.skipped)
                          : QString());
    emit refreshed(shown);
}

const OverviewRow* OverviewPage::selectedRow() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows(OverviewModel::Name);
    if (rows.size() != 1)
        return nullptr;
    const QModelIndex source = m_proxy->mapToSource(rows.first());
    if (!source.isValid() || source.row() >= m_model->rows().size())
        return nullptr;
    return &m_model->rows().at(source.row());
}

void OverviewPage::open(const QModelIndex& proxyIndex)
{
    const QModelIndex source = m_proxy->mapToSource(proxyIndex);
    if (!source.isValid())
        return;
    const OverviewRow& row = m_model->rows().at(source.row());
    if (row.plain)
        emit plainKeyOpened(row.name, row.unit);
    else
        emit queueOpened(row.name);
}

QList<QAction*> OverviewPage::contextActions(const QString& name, QObject* parent)
{
    const OverviewRow* row = m_model->rowNamed(name);
    if (!row)
        return {};
    const OverviewRow copy = *row;
    QList<QAction*> out;
    auto add = [&](const QString& text, auto&& slot) {
        auto* action = new QAction(text, parent);
        connect(action, &QAction::triggered, this, slot);
        out.append(action);
        return action;
    };
    add(tr("Open"), [this, copy] {
        if (copy.plain)
            emit plainKeyOpened(copy.name, copy.unit);
        else
            emit queueOpened(copy.name);
    });
    if (!copy.plain) {
        auto* pause = add(copy.paused ? tr("Resume") : tr("Pause"),
                          [this, copy] { emit pauseRequested(copy.name, !copy.paused); });
        pause->setEnabled(!m_readOnly);
        add(tr("Settings…"), [this, copy] { emit settingsRequested(copy.name); });
    }
    add(tr("Thresholds…"), [this, copy] { emit thresholdsRequested(copy.name); });
    add(tr("Copy name"), [copy] { QApplication::clipboard()->setText(copy.name); });
    return out;
}

void OverviewPage::showMenu(const QPoint& pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid())
        return;
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addActions(
        contextActions(index.siblingAtColumn(OverviewModel::Name).data().toString(), menu));
    menu->popup(m_view->viewport()->mapToGlobal(pos));
}

void OverviewPage::fitColumns()
{
    fitColumns(m_view, m_fit);
}

void OverviewPage::fitColumns(QTableView* view, ColumnFit* fit)
{
    const QHeaderView* header = view->horizontalHeader();
    const int least = view->fontMetrics().averageCharWidth() * 4;
    for (int c = 0; c < OverviewModel::ColumnCount; ++c) {
        if (c == OverviewModel::LastHour) {
            fit->setWidths(c, 100, 64); // a sparkline of 60 minutes stays readable
            continue;
        }
        const int content = qMax(least, ColumnFit::contentWidth(view, c));
        // A figure's header is never cut (a name may be). Its text and margins, and the sort
        // arrow's room only where the arrow is: sectionSizeHint keeps that room in every
        // column, 20 px x 11 more than a laptop's width has.
        const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
        int title = header->fontMetrics()
                        .size(0, view->model()->headerData(c, Qt::Horizontal).toString())
                        .width() +
                    2 * margin + 4;
        if (c == header->sortIndicatorSection())
            title += header->height() / 2 + margin;
        // A name may be cut, and the busy groups' long line down to its header (its delegate
        // then draws whole groups, or the busiest with its name cut, never a cut count; the
        // cell's tooltip has the groups one a line); the figures never are.
        // The busy groups take at most about 40 characters, so the sparkline keeps its room.
        int fewest = qMax(content, title);
        int wanted = qMax(content, title);
        if (c == OverviewModel::Name) {
            fewest = qMin(content, least * 3);
        } else if (c == OverviewModel::Groups) {
            fewest = qMin(content, title);
            wanted = qMax(title, qMin(content, least * 10));
        }
        fit->setWidths(c, wanted, fewest);
    }
    fit->fit();
}

QStringList OverviewPage::consumerAlarms(const QList<OverviewRow>& rows)
{
    constexpr int kShown = 5;
    QStringList lines;
    int more = 0;
    for (const OverviewRow& row : rows)
        for (const auto& b : Thresholds::breaches(row, {-1, -1, -1, -1})) {
            if (b.figure != Thresholds::Figure::Consumers)
                continue;
            const QString queue =
                row.server.isEmpty() ? row.name : tr("%1 on %2").arg(row.name, row.server);
            if (lines.size() < kShown)
                lines.append(tr("%1: %2").arg(queue, b.text));
            else
                ++more;
        }
    if (more > 0)
        lines.append(tr("and %n more queue(s) whose consumers need a look", nullptr, more));
    return lines;
}

void OverviewPage::showConsumerAlarms()
{
    const QStringList lines = consumerAlarms(m_model->rows());
    QString text = lines.join(QLatin1Char('\n'));
    // Red and bold only while live: an old server's alarm must look as old as its rows.
    if (m_model->isStale() && !text.isEmpty())
        text = tr("Not live, as of %1:\n%2")
                   .arg(m_model->staleSince().toString(QStringLiteral("HH:mm:ss")), text);
    m_consumers->setStyleSheet(m_model->isStale()
                                   ? QStringLiteral("font-style: italic")
                                   : QStringLiteral("color: #a93226; font-weight: bold"));
    m_consumers->setText(text);
    m_consumers->setVisible(!lines.isEmpty());
}

void OverviewPage::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // Disabled by the connection notice: the server shown can no longer be read.
    if (event->type() != QEvent::EnabledChange || isEnabled() == !m_model->isStale())
        return;
    m_model->setStale(isEnabled() ? QDateTime() : QDateTime::currentDateTime());
    showConsumerAlarms();
}

void OverviewPage::updateLegend()
{
    m_legend->setText(tr("Coloured rows are above their thresholds (for all queues: %1; "
                         "queues may have their own); the figure above its limit is in bold "
                         "on a stronger colour. Failed = died + retried. Hover a cell for the "
                         "reason.")
                          .arg(Thresholds::describe(Thresholds::defaults())));
}

} // namespace delayq::ui
