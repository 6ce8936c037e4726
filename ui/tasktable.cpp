#include "tasktable.h"

#include "adminclient.h"
#include "taskmodel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QTableView>
#include <QVBoxLayout>

namespace delayq::ui {

TaskTable::TaskTable(AdminClient* client, TaskSetKind set, QWidget* parent)
    : QWidget(parent), m_client(client), m_set(set)
{
    m_model = new TaskModel(client, set, this);
    m_view = new QTableView(this);
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
    m_view->horizontalHeader()->setStretchLastSection(true);
    sizeColumns();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { emit currentTaskChanged(); });
    connect(m_model, &TaskModel::pageLoaded, this, &TaskTable::onPageLoaded);
    // A refresh may have new data for the current task (attempts, due time).
    connect(m_model, &TaskModel::refreshed, this, [this] {
        if (m_fitIdColumn) {
            // Ids chosen by callers are often short: give the room to the next columns. The
            // view measures the rows on screen only, so this is cheap on any queue size.
            m_fitIdColumn = false;
            const int column = m_model->columnOf(TaskModel::Field::Id);
            const int wide = m_view->columnWidth(column);
            m_view->resizeColumnToContents(column);
            m_view->setColumnWidth(column, qBound(80, m_view->columnWidth(column) + 8, wide));
        }
        emit currentTaskChanged();
    });
    connect(client, &AdminClient::located, this, &TaskTable::onLocated);
}

void TaskTable::sizeColumns()
{
    const QFontMetrics fm = m_view->fontMetrics();
    const int pad = 14;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        int width = 120;
        switch (m_model->fieldOf(c)) {
        case TaskModel::Field::Time:
            width = fm.horizontalAdvance(QStringLiteral("2026-12-01 09:30:00.000")) + pad;
            break;
        case TaskModel::Field::Relative:
            width = fm.horizontalAdvance(QStringLiteral("59m 59s overdue")) + pad;
            break;
        case TaskModel::Field::Id:
            // Generated ids are 26 characters of Crockford base32; size for a wide mix.
            width = fm.horizontalAdvance(QStringLiteral("0123456789ABCDEFGHJKMNPQRSTVWXYZ")) * 26 *
                        11 / (32 * 10) +
                    pad;
            break;
        case TaskModel::Field::Attempts:
            width = fm.horizontalAdvance(tr("Attempts")) + pad;
            break;
        case TaskModel::Field::Worker:
            width = fm.horizontalAdvance(QStringLiteral("worker-0123456789ab")) + pad;
            break;
        case TaskModel::Field::LastError:
            width = fm.horizontalAdvance(QLatin1Char('x')) * 32 + pad;
            break;
        case TaskModel::Field::Payload:
            width = 300;
            break;
        }
        m_view->setColumnWidth(c, width);
    }
}

void TaskTable::setQueue(const QString& queue)
{
    m_pendingJump = -1;
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

const TaskRow* TaskTable::currentTask() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    return current.isValid() ? m_model->taskAt(current.row()) : nullptr;
}

void TaskTable::jumpToRow(qint64 row)
{
    if (row < 0 || row >= m_model->total()) {
        emit jumpFailed(tr("row %1 is outside the table").arg(row + 1));
        return;
    }
    const QModelIndex index = m_model->index(static_cast<int>(row), 0);
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                         QItemSelectionModel::Rows);
    if (m_model->taskAt(static_cast<int>(row))) {
        m_pendingJump = -1;
        emit rowShown(static_cast<int>(row));
        emit currentTaskChanged();
    } else {
        m_pendingJump = row;
        m_model->ensureLoaded(static_cast<int>(row));
    }
}

void TaskTable::jumpToTime(qint64 ms)
{
    m_locateTag = AdminClient::newTag();
    m_client->locateTime(m_locateTag, m_model->queue(), m_set, ms);
}

void TaskTable::onLocated(const LocateResult& result)
{
    if (result.tag != m_locateTag)
        return;
    m_locateTag = 0;
    if (!result.error.isEmpty()) {
        emit jumpFailed(result.error);
        return;
    }
    if (result.row < 0) {
        emit jumpFailed(tr("the table is empty"));
        return;
    }
    jumpToRow(result.row);
}

void TaskTable::onPageLoaded(int firstRow, int rows)
{
    if (m_pendingJump >= firstRow && m_pendingJump < firstRow + rows) {
        const int row = static_cast<int>(m_pendingJump);
        m_pendingJump = -1;
        emit rowShown(row);
        emit currentTaskChanged();
        return;
    }
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (current.isValid() && current.row() >= firstRow && current.row() < firstRow + rows)
        emit currentTaskChanged();
}

} // namespace delayq::ui
