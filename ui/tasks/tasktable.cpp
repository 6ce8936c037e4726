#include "tasks/tasktable.h"

#include "client/adminclient.h"
#include "client/taskclient.h"
#include "tasks/taskmodel.h"
#include "widgets/columnfit.h"
#include "widgets/duetext.h"
#include "widgets/elidedelegate.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace delayq::ui {

namespace {

constexpr int kPad = 14; // a cell's margins and a little air

} // namespace

TaskTable::TaskTable(AdminClient* client, TaskSet set, QWidget* parent)
    : QWidget(parent), m_client(client), m_set(set)
{
    m_model = new TaskModel(client, set, this);
    m_view = new QTableView(this);
    m_view->setObjectName(set == TaskSet::Pending  ? QStringLiteral("pendingTable")
                          : set == TaskSet::Active ? QStringLiteral("activeTable")
                                                   : QStringLiteral("deadTable"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Per-row sizing would ask for every row of a million-row queue.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    // Every column on screen at a laptop's width: the others give up room down to a least
    // width (eliding), the last one (the payload) takes what is left but never less than a
    // readable width: past that the table scrolls sideways instead of cutting it to "Pa".
    m_fit = new ColumnFit(m_view);
    // A narrow time keeps its clock, a narrow id both its ends.
    if (const int time = m_model->columnOf(TaskModel::Field::Time); time >= 0)
        m_view->setItemDelegateForColumn(time, new ElideDelegate(Qt::ElideLeft, m_view));
    m_view->setItemDelegateForColumn(m_model->columnOf(TaskModel::Field::Id),
                                     new ElideDelegate(Qt::ElideMiddle, m_view));
    sizeColumns();

    // The bar that spans the whole set; the view's own spans its window of rows.
    m_view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_bar = new QScrollBar(Qt::Vertical, this);
    m_bar->setObjectName(QStringLiteral("taskScrollBar"));
    m_bar->setSingleStep(1);
    m_bar->hide();
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_view);
    layout->addWidget(m_bar);
    connect(m_bar, &QScrollBar::valueChanged, this, &TaskTable::onBarMoved);
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this,
            &TaskTable::onViewScrolled);
    // The view's range follows its height and its rows: so does the bar's.
    connect(m_view->verticalScrollBar(), &QScrollBar::rangeChanged, this, &TaskTable::updateBar);
    connect(m_model, &QAbstractItemModel::modelReset, this, &TaskTable::updateBar);
    connect(m_model, &QAbstractItemModel::layoutChanged, this, &TaskTable::updateBar);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &TaskTable::updateBar);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &TaskTable::updateBar);
    m_view->installEventFilter(this);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { emit currentTaskChanged(); });
    // Ctrl+click on the only selected row keeps it current but unselected: the details and
    // the actions must follow the selection, not the focus frame.
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { emit currentTaskChanged(); });
    connect(m_model, &TaskModel::pageLoaded, this, &TaskTable::onPageLoaded);
    // A refresh may have new data for the current task (attempts, due time).
    connect(m_model, &TaskModel::refreshed, this, [this] {
        if (m_fitIdColumn) {
            // Ids chosen by callers are often short: give the room to the next columns. The
            // view measures the rows on screen only, so this is cheap on any queue size.
            m_fitIdColumn = false;
            const int column = m_model->columnOf(TaskModel::Field::Id);
            const int wide = idWidth();
            const int wanted = qBound(80, ColumnFit::contentWidth(m_view, column) + 8, wide);
            m_fit->setWidths(column, wanted, qMin(wanted, leastIdWidth()));
            // The room an id does not need goes to the errors on screen, up to 60
            // characters: "smtp: 550 mailbox unavailable", not "smtp: 550 ma…".
            if (const int error = m_model->columnOf(TaskModel::Field::LastError); error >= 0) {
                const int x = m_view->fontMetrics().horizontalAdvance(QLatin1Char('x'));
                const int errors =
                    qBound(x * 24 + kPad, ColumnFit::contentWidth(m_view, error), x * 60 + kPad);
                m_fit->setWidths(error, errors, x * 10 + kPad);
            }
            fitLastColumn(); // a plain key's message column is the last one
        }
        emit currentTaskChanged();
    });
    connect(client->tasks(), &TaskClient::located, this, &TaskTable::onLocated);
    connect(m_model, &QAbstractItemModel::layoutAboutToBeChanged, this, &TaskTable::rememberPlace);
    connect(m_model, &QAbstractItemModel::layoutChanged, this, &TaskTable::restorePlace);
}

void TaskTable::rememberPlace()
{
    if (m_moving)
        return; // the window moves over the same tasks: moveWindowTo keeps the place
    m_anchor = QPersistentModelIndex();
    m_anchorRow = -1;
    m_selectedBefore = selectedIds();
    const int top = m_view->rowAt(0);
    if (top < 0)
        return;
    int bottom = m_view->rowAt(m_view->viewport()->height() - 1);
    if (bottom < 0)
        bottom = m_model->rowCount() - 1;
    // The selected task the operator sees, else the one at the top.
    int row = top;
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (hasCurrentSelected() && current.row() >= top && current.row() <= bottom)
        row = current.row();
    if (m_model->idAt(row).isEmpty())
        return; // its page is not loaded: it names no task to follow
    m_anchor = QPersistentModelIndex(m_model->index(row, 0));
    m_anchorRow = row;
}

void TaskTable::restorePlace()
{
    if (m_moving)
        return;
    if (m_anchor.isValid() && m_anchorRow >= 0 && m_anchor.row() != m_anchorRow) {
        // The scroll bar's range follows the new row count first.
        m_view->doItemsLayout();
        const int rows = m_anchor.row() - m_anchorRow;
        QScrollBar* bar = m_view->verticalScrollBar();
        const int step = m_view->verticalScrollMode() == QAbstractItemView::ScrollPerItem
                             ? 1
                             : m_view->verticalHeader()->defaultSectionSize();
        bar->setValue(bar->value() + rows * step);
    }
    m_anchor = QPersistentModelIndex();
    m_anchorRow = -1;
    if (m_selectedBefore.isEmpty())
        return;
    const QStringList now = selectedIds();
    QStringList left;
    for (const QString& id : std::as_const(m_selectedBefore))
        if (!now.contains(id))
            left.append(id);
    m_selectedBefore.clear();
    if (!left.isEmpty())
        emit selectionLeft(left);
}

int TaskTable::idWidth() const
{
    // Generated ids are 26 characters of Crockford base32; size for a wide mix.
    const QFontMetrics fm = m_view->fontMetrics();
    return fm.horizontalAdvance(QStringLiteral("0123456789ABCDEFGHJKMNPQRSTVWXYZ")) * 26 * 11 /
               (32 * 10) +
           kPad;
}

int TaskTable::leastIdWidth() const
{
    return m_view->fontMetrics().horizontalAdvance(QStringLiteral("0123456789")) + kPad;
}

void TaskTable::sizeColumns()
{
    const QFontMetrics fm = m_view->fontMetrics();
    auto text = [&fm](const QString& t) { return fm.horizontalAdvance(t) + kPad; };
    const int x = fm.horizontalAdvance(QLatin1Char('x'));
    m_fit->reset();
    for (int c = 0; c < m_model->columnCount(); ++c) {
        int natural = 120;
        int least = 120;
        switch (m_model->fieldOf(c)) {
        case TaskModel::Field::Time:
            // With the UTC "Z": a UTC time must not lose its milliseconds to an ellipsis.
            // Narrow, it loses the date first (ElideDelegate), the clock last.
            natural = text(QStringLiteral("2026-12-01 09:30:00.000Z"));
            least = text(QStringLiteral("…09:30:00.000Z"));
            break;
        case TaskModel::Field::Relative:
            natural = text(DueText::relative(0, 3599000)); // "59m 59s overdue"
            least = text(DueText::duration(3599000));      // "59m 59s", red when overdue
            break;
        case TaskModel::Field::Id:
            natural = idWidth();
            least = leastIdWidth();
            break;
        case TaskModel::Field::Attempts:
            natural = text(tr("Attempts"));
            least = text(QStringLiteral("99/99"));
            break;
        case TaskModel::Field::Worker:
            natural = text(QStringLiteral("worker-0123456789ab"));
            least = x * 8 + kPad;
            break;
        case TaskModel::Field::LastError:
            natural = x * 24 + kPad;
            least = x * 10 + kPad;
            break;
        case TaskModel::Field::Payload:
            natural = least = minimumLastWidth();
            break;
        }
        m_fit->setWidths(c, natural, least);
    }
    fitLastColumn();
}

int TaskTable::minimumLastWidth() const
{
    return m_view->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 14;
}

void TaskTable::fitLastColumn()
{
    m_fit->fit();
}

void TaskTable::setQueue(const QString& queue)
{
    m_pendingJump = -1;
    m_wantedId.clear();
    m_fitIdColumn = true;
    sizeColumns();
    m_model->setQueue(queue);
}

void TaskTable::refresh()
{
    m_model->refresh();
}

void TaskTable::setUtc(bool utc)
{
    m_model->setUtc(utc);
}

QStringList TaskTable::selectedIds() const
{
    QStringList ids;
    const auto rows = m_view->selectionModel()->selectedRows();
    for (const auto& index : rows) {
        const QString id = m_model->idAt(index.row());
        if (!id.isEmpty())
            ids.append(id);
    }
    return ids;
}

QList<TaskRow> TaskTable::selectedTasks() const
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QList<TaskRow> tasks;
    for (const auto& index : rows)
        if (const TaskRow* task = m_model->taskAt(index.row()))
            tasks.append(*task);
    return tasks;
}

const TaskRow* TaskTable::currentTask() const
{
    return hasCurrentSelected() ? m_model->taskAt(m_view->selectionModel()->currentIndex().row())
                                : nullptr;
}

bool TaskTable::hasCurrentSelected() const
{
    const QItemSelectionModel* selection = m_view->selectionModel();
    const QModelIndex current = selection->currentIndex();
    return current.isValid() && selection->isRowSelected(current.row(), QModelIndex());
}

void TaskTable::clearSelection()
{
    m_pendingJump = -1;
    m_wantedId.clear();
    m_view->selectionModel()->clearSelection();
    // No current row either: after a refresh the next task must not slide under the cursor.
    m_view->selectionModel()->setCurrentIndex(QModelIndex(), QItemSelectionModel::NoUpdate);
}

void TaskTable::jumpToRow(qint64 row)
{
    if (row < 0 || row >= m_model->total()) {
        emit jumpFailed(tr("row %1 is outside the table").arg(row + 1));
        return;
    }
    showRank(row);
    const QModelIndex index = m_model->index(m_model->rowOf(row), 0);
    if (!m_selectOnJump) {
        // Scrolling only: a click on the chart must not aim the next action at a task.
        m_view->scrollTo(index, QAbstractItemView::PositionAtTop);
        m_model->ensureLoaded(row);
        emit rowShown(row);
        return;
    }
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                         QItemSelectionModel::Rows);
    if (m_model->taskAtRank(row)) {
        m_pendingJump = -1;
        emit rowShown(row);
        emit currentTaskChanged();
    } else {
        m_pendingJump = row;
        m_model->ensureLoaded(row);
    }
}

void TaskTable::selectTask(const QString& id, qint64 row)
{
    clearSelection();
    emit currentTaskChanged();
    m_wantedId = id;
    m_wantedRow = row;
    if (row >= 0 && row < m_model->total()) {
        showRank(row);
        m_view->scrollTo(m_model->index(m_model->rowOf(row), 0),
                         QAbstractItemView::PositionAtCenter);
    }
    m_model->reload(row);
}

void TaskTable::selectRank(qint64 rank)
{
    showRank(rank);
    const QModelIndex index = m_model->index(m_model->rowOf(rank), 0);
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                         QItemSelectionModel::Rows);
    emit rowShown(rank);
    emit currentTaskChanged();
}

void TaskTable::resolveWanted(qint64 firstRank, int rows)
{
    const qint64 page = m_wantedRow / m_model->pageSize();
    if (page != firstRank / m_model->pageSize())
        return;
    const bool older = m_model->isReloading(m_wantedRow);
    const QString id = m_wantedId;
    m_wantedId.clear();
    // Where the server ranked it first, else wherever this fresh page shows it.
    if (m_model->idAtRank(m_wantedRow) == id) {
        selectRank(m_wantedRow);
        return;
    }
    for (qint64 rank = firstRank; rank < firstRank + rows; ++rank) {
        if (m_model->idAtRank(rank) == id) {
            selectRank(rank);
            return;
        }
    }
    if (older) { // a read sent before the rank: the page asked for decides
        m_wantedId = id;
        return;
    }
    emit taskMissed(id);
}

void TaskTable::jumpToTime(qint64 ms)
{
    m_selectOnJump = true;
    m_locateTag = AdminClient::newTag();
    m_client->tasks()->locateTime(m_locateTag, m_model->queue(), m_set, ms);
}

void TaskTable::scrollToTime(qint64 ms)
{
    m_selectOnJump = false;
    m_locateTag = AdminClient::newTag();
    m_client->tasks()->locateTime(m_locateTag, m_model->queue(), m_set, ms);
}

void TaskTable::onLocated(const LocateResult& result)
{
    if (result.tag != m_locateTag)
        return;
    m_locateTag = 0;
    if (!result.error.isEmpty()) {
        emit jumpFailed(result.error.message);
        return;
    }
    if (result.row < 0) {
        emit jumpFailed(tr("the table is empty"));
        return;
    }
    jumpToRow(result.row);
    m_selectOnJump = true;
}

void TaskTable::onPageLoaded(qint64 firstRank, int rows)
{
    if (!m_wantedId.isEmpty()) {
        resolveWanted(firstRank, rows);
        return;
    }
    if (m_pendingJump >= firstRank && m_pendingJump < firstRank + rows) {
        const qint64 rank = m_pendingJump;
        m_pendingJump = -1;
        emit rowShown(rank);
        emit currentTaskChanged();
        return;
    }
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    const qint64 rank = current.isValid() ? m_model->rankOf(current.row()) : -1;
    if (rank >= firstRank && rank < firstRank + rows)
        emit currentTaskChanged();
}

int TaskTable::visibleRows() const
{
    return qMax(1, m_view->viewport()->height() / m_view->verticalHeader()->defaultSectionSize());
}

int TaskTable::viewTop() const
{
    const int value = m_view->verticalScrollBar()->value();
    return m_view->verticalScrollMode() == QAbstractItemView::ScrollPerItem
               ? value
               : value / m_view->verticalHeader()->defaultSectionSize();
}

void TaskTable::setViewTop(int row)
{
    const bool perItem = m_view->verticalScrollMode() == QAbstractItemView::ScrollPerItem;
    // The view's range may lag a change of its rows: it follows them first.
    m_view->doItemsLayout();
    m_view->verticalScrollBar()->setValue(
        perItem ? row : row * m_view->verticalHeader()->defaultSectionSize());
}

void TaskTable::showRank(qint64 rank)
{
    if (m_model->rowOf(rank) < 0)
        moveWindowTo(rank - visibleRows() / 2);
}

TaskTable::~TaskTable()
{
    // The view and the model are children, deleted after this body: their signals while they
    // go (a scroll bar's range, a reset) must not reach a table that is half destroyed.
    m_view->verticalScrollBar()->disconnect(this);
    m_view->disconnect(this);
    if (m_view->selectionModel())
        m_view->selectionModel()->disconnect(this);
    m_model->disconnect(this);
    m_bar->disconnect(this);
}

void TaskTable::moveWindowTo(qint64 top)
{
    const qint64 total = m_model->total();
    top = std::clamp<qint64>(top, 0, qMax<qint64>(0, total - 1));
    // The top row in the window's middle: the window moves again only after half of it.
    const QStringList selected = selectedIds();
    m_moving = true;
    m_model->setBase(top - (m_model->windowRows() - visibleRows()) / 2);
    m_moving = false;
    if (!selected.isEmpty()) {
        const QStringList kept = selectedIds();
        QStringList dropped;
        for (const QString& id : selected)
            if (!kept.contains(id))
                dropped.append(id);
        if (!dropped.isEmpty())
            emit selectionOutOfWindow(dropped);
    }
    m_syncing = true;
    setViewTop(static_cast<int>(top - m_model->base()));
    m_syncing = false;
    updateBar();
}

void TaskTable::onBarMoved(int value)
{
    if (m_syncing)
        return;
    const qint64 row = value - m_model->base();
    if (row < 0 || row + visibleRows() > m_model->rowCount()) {
        moveWindowTo(value);
        return;
    }
    m_syncing = true;
    setViewTop(static_cast<int>(row));
    m_syncing = false;
}

void TaskTable::onViewScrolled()
{
    if (m_syncing || m_moving)
        return;
    updateBar();
    if (!m_model->isWindowed() || m_recentreQueued)
        return;
    // Near an edge of the window with more of the set beyond it (the wheel or the keys
    // went there): the window moves, after this scroll is done, with the same tasks shown.
    const int margin = m_model->windowRows() / 4;
    const int top = viewTop();
    const qint64 base = m_model->base();
    if ((top < margin && base > 0) || (top + visibleRows() > m_model->rowCount() - margin &&
                                       base + m_model->rowCount() < m_model->total())) {
        m_recentreQueued = true;
        QTimer::singleShot(0, this, [this] {
            m_recentreQueued = false;
            moveWindowTo(m_model->base() + viewTop());
        });
    }
}

void TaskTable::updateBar()
{
    const qint64 total = m_model->total();
    const int visible = visibleRows();
    const int maximum = static_cast<int>(std::clamp<qint64>(total - visible, 0, INT_MAX));
    m_syncing = true;
    m_bar->setRange(0, maximum);
    m_bar->setPageStep(visible);
    m_bar->setValue(static_cast<int>(qMin<qint64>(m_model->base() + viewTop(), maximum)));
    m_syncing = false;
    m_bar->setVisible(maximum > 0);
}

bool TaskTable::eventFilter(QObject* watched, QEvent* event)
{
    // Ctrl+Home and Ctrl+End go to the ends of the set, not of the window.
    if (watched == m_view && event->type() == QEvent::KeyPress && m_model->isWindowed()) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->modifiers() == Qt::ControlModifier &&
            (key->key() == Qt::Key_Home || key->key() == Qt::Key_End)) {
            jumpToRow(key->key() == Qt::Key_Home ? 0 : m_model->total() - 1);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace delayq::ui
