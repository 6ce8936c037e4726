#include "tasks/taskmodel.h"

#include "client/adminclient.h"
#include "client/membertext.h"
#include "client/taskclient.h"
#include "widgets/duetext.h"
#include "widgets/errortext.h"
#include <delayq/timeparse.h>

#include <QColor>
#include <QDateTime>
#include <QTimer>

#include <algorithm>

namespace delayq::ui {

namespace {

constexpr int kMaxCachedPages = 40;
constexpr int kMaxWantedPages = 6;
constexpr int kPagesPerRequest = 3;
constexpr int kRefreshPages = 3;
constexpr int kSelectionPages = 3;
constexpr int kPreviewChars = 160;

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

TaskModel::TaskModel(AdminClient* client, TaskSet set, QObject* parent)
    : QAbstractTableModel(parent), m_client(client), m_set(set)
{
    switch (set) {
    case TaskSet::Pending:
        m_fields = {Field::Time, Field::Relative, Field::Id, Field::Attempts, Field::Payload};
        break;
    case TaskSet::Active:
        m_fields = {Field::Time,   Field::Relative, Field::Id,
                    Field::Worker, Field::Attempts, Field::Payload};
        break;
    case TaskSet::Dead:
        m_fields = {Field::Time, Field::Id, Field::Attempts, Field::LastError, Field::Payload};
        break;
    }
    connect(client->tasks(), &TaskClient::pagesLoaded, this, &TaskModel::onPagesLoaded);
}

void TaskModel::setQueue(const QString& queue)
{
    beginResetModel();
    m_queue = queue;
    m_total = 0;
    m_base = 0;
    m_rows = 0;
    m_pages.clear();
    m_recent.clear();
    m_wanted.clear();
    m_stale.clear();
    // An answer for the previous queue is ignored by its tag.
    m_inFlight = false;
    m_tag = 0;
    m_refreshQueued = false;
    endResetModel();
    if (!queue.isEmpty())
        refresh();
}

void TaskModel::setUtc(bool utc)
{
    if (m_utc == utc)
        return;
    m_utc = utc;
    if (m_rows > 0)
        emit dataChanged(index(0, 0), index(m_rows - 1, columnCount() - 1));
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
}

void TaskModel::setPlain(bool plain)
{
    m_plain = plain;
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
}

void TaskModel::refresh()
{
    if (m_queue.isEmpty())
        return;
    if (m_inFlight) {
        m_refreshQueued = true;
        return;
    }
    QList<qint64> offsets;
    for (auto it = m_recent.crbegin(); it != m_recent.crend() && offsets.size() < kRefreshPages;
         ++it)
        offsets.append(*it * m_pageSize);
    // The selected and current rows' pages too: a selection scrolled out of sight must not
    // be dropped for want of its page.
    for (const QModelIndex& index : persistentIndexList()) {
        const qint64 offset = (m_base + index.row()) / m_pageSize * m_pageSize;
        if (index.isValid() && !offsets.contains(offset) &&
            offsets.size() < kRefreshPages + kSelectionPages)
            offsets.append(offset);
    }
    if (offsets.isEmpty())
        offsets.append(0);
    m_refreshQueued = false;
    m_inFlight = true;
    m_inFlightIsRefresh = true;
    m_tag = AdminClient::newTag();
    m_client->tasks()->loadPages(m_tag, m_queue, m_set, offsets, m_pageSize);
}

const TaskRow* TaskModel::taskAt(int row) const
{
    if (row < 0 || row >= m_rows)
        return nullptr;
    return taskAtRank(m_base + row);
}

const TaskRow* TaskModel::taskAtRank(qint64 rank) const
{
    if (rank < 0 || rank >= m_total)
        return nullptr;
    auto it = m_pages.constFind(rank / m_pageSize);
    if (it == m_pages.constEnd())
        return nullptr;
    const qint64 inPage = rank % m_pageSize;
    return inPage < it->size() ? &it->at(inPage) : nullptr;
}

QString TaskModel::idAtRank(qint64 rank) const
{
    const TaskRow* task = taskAtRank(rank);
    return task ? task->id : QString();
}

int TaskModel::rowOf(qint64 rank) const
{
    return rank >= m_base && rank < m_base + m_rows ? static_cast<int>(rank - m_base) : -1;
}

int TaskModel::rowsFor(qint64 total, qint64 base) const
{
    return static_cast<int>(std::clamp<qint64>(total - base, 0, m_windowRows));
}

void TaskModel::setBase(qint64 base)
{
    base = std::clamp<qint64>(base, 0, qMax<qint64>(0, m_total - m_windowRows));
    if (base == m_base)
        return;
    // The row count stays: a window that moves is full, or it starts at 0.
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& old : before) {
        const qint64 row = m_base + old.row() - base;
        after.append(row >= 0 && row < m_rows ? index(static_cast<int>(row), old.column())
                                              : QModelIndex());
    }
    m_base = base;
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

const TaskRow* TaskModel::findTask(const QString& id) const
{
    for (auto page = m_pages.cbegin(); page != m_pages.cend(); ++page)
        for (const TaskRow& task : page.value())
            if (task.id == id)
                return &task;
    return nullptr;
}

QString TaskModel::idAt(int row) const
{
    const TaskRow* task = taskAt(row);
    return task ? task->id : QString();
}

void TaskModel::ensureLoaded(qint64 rank)
{
    if (rank >= 0 && !m_pages.contains(rank / m_pageSize))
        requestPage(rank / m_pageSize);
}

void TaskModel::reload(qint64 rank)
{
    if (rank < 0)
        return;
    m_stale.insert(rank / m_pageSize);
    requestPage(rank / m_pageSize);
}

void TaskModel::touch(qint64 page) const
{
    if (!m_recent.isEmpty() && m_recent.constLast() == page)
        return;
    m_recent.removeOne(page);
    m_recent.append(page);
}

void TaskModel::requestPage(qint64 page) const
{
    m_wanted.removeOne(page);
    m_wanted.append(page);
    // Scrolling fast asks for many pages; only the latest few are still on screen.
    while (m_wanted.size() > kMaxWantedPages)
        m_wanted.removeFirst();
    if (!m_pumpScheduled) {
        m_pumpScheduled = true;
        // After the paint that asked: the pages of one paint go out as one request.
        QTimer::singleShot(0, const_cast<TaskModel*>(this), &TaskModel::pump);
    }
}

void TaskModel::pump()
{
    m_pumpScheduled = false;
    if (m_inFlight || m_queue.isEmpty())
        return;
    if (m_refreshQueued) {
        refresh();
        return;
    }
    QList<qint64> offsets;
    while (!m_wanted.isEmpty() && offsets.size() < kPagesPerRequest) {
        const qint64 page = m_wanted.takeLast();
        if (!m_pages.contains(page) || m_stale.remove(page))
            offsets.append(page * m_pageSize);
    }
    if (offsets.isEmpty())
        return;
    m_inFlight = true;
    m_inFlightIsRefresh = false;
    m_tag = AdminClient::newTag();
    m_client->tasks()->loadPages(m_tag, m_queue, m_set, offsets, m_pageSize);
}

void TaskModel::onPagesLoaded(const PageResult& result)
{
    if (!m_inFlight || result.tag != m_tag)
        return;
    m_inFlight = false;
    const bool wasRefresh = m_inFlightIsRefresh;
    if (!result.error.isEmpty()) {
        emit loadFailed(result.error.message);
        if (wasRefresh)
            emit refreshed();
        return;
    }

    const qint64 oldTotal = m_total;
    const qint64 newTotal = result.total;
    const bool layoutChange = wasRefresh || newTotal != oldTotal;
    // A window past the new end moves back so it stays full.
    const qint64 newBase = qMin(m_base, qMax<qint64>(0, newTotal - m_windowRows));
    const int oldRows = m_rows;
    const int newRows = rowsFor(newTotal, newBase);

    if (oldRows == 0 && newRows > 0) {
        // A reset is cheaper for the view than inserting the rows (its headers then size
        // all sections at once), and nothing can be selected in an empty table.
        beginResetModel();
        m_total = newTotal;
        m_base = newBase;
        m_rows = newRows;
        endResetModel();
    } else if (newRows > oldRows) {
        beginInsertRows({}, oldRows, newRows - 1);
        m_rows = newRows;
        endInsertRows();
    }
    // The rows are what the view counts; the total only says which ranks hold tasks.
    m_total = newTotal;

    if (layoutChange) {
        keepRowsOf(result, wasRefresh, newBase);
    } else {
        storePages(result);
        for (qsizetype i = 0; i < result.pages.size(); ++i) {
            const qint64 first = qMax(m_base, result.offsets.at(i));
            const qint64 last =
                qMin<qint64>(m_base + m_rows, result.offsets.at(i) + m_pageSize) - 1;
            if (last >= first)
                emit dataChanged(index(static_cast<int>(first - m_base), 0),
                                 index(static_cast<int>(last - m_base), columnCount() - 1));
        }
    }

    if (newRows < m_rows) {
        beginRemoveRows({}, newRows, m_rows - 1);
        m_rows = newRows;
        endRemoveRows();
    }

    while (m_recent.size() > kMaxCachedPages)
        m_pages.remove(m_recent.takeFirst());

    for (qsizetype i = 0; i < result.offsets.size(); ++i)
        emit pageLoaded(result.offsets.at(i), static_cast<int>(result.pages.at(i).size()));
    if (wasRefresh)
        emit refreshed();
    if (m_refreshQueued)
        refresh();
    else if (!m_wanted.isEmpty())
        pump();
}

void TaskModel::storePages(const PageResult& result)
{
    for (qsizetype i = 0; i < result.pages.size(); ++i) {
        m_pages.insert(result.offsets.at(i) / m_pageSize, result.pages.at(i));
        touch(result.offsets.at(i) / m_pageSize);
    }
}

void TaskModel::keepRowsOf(const PageResult& result, bool wasRefresh, qint64 newBase)
{
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QStringList ids;
    ids.reserve(before.size());
    for (const auto& index : before)
        ids.append(idAt(index.row()));
    const qint64 oldBase = m_base;
    m_base = newBase;
    if (wasRefresh) {
        m_pages.clear();
        m_recent.clear();
    }
    QHash<QString, qint64> rankOfId;
    for (qsizetype i = 0; i < result.pages.size(); ++i) {
        const qint64 first = result.offsets.at(i);
        const auto& rows = result.pages.at(i);
        for (qsizetype k = 0; k < rows.size(); ++k)
            rankOfId.insert(rows.at(k).id, first + k);
    }
    storePages(result);
    // A rank's index in the window as it is now (m_rows is the larger of the old and the
    // new count until the rows past the end are removed), or none outside it.
    auto at = [this](qint64 rank, int column) {
        return rank >= m_base && rank < m_base + m_rows
                   ? index(static_cast<int>(rank - m_base), column)
                   : QModelIndex();
    };
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i) {
        const QModelIndex& old = before.at(i);
        const qint64 oldRank = oldBase + old.row();
        const QString& id = ids.at(i);
        auto found = rankOfId.constFind(id);
        if (id.isEmpty()) // a row whose page was not loaded: it named no task yet
            after.append(at(oldRank, old.column()));
        else if (found != rankOfId.constEnd())
            after.append(at(found.value(), old.column()));
        else if (idAtRank(oldRank) == id) // a cached page not re-read
            after.append(at(oldRank, old.column()));
        else // consumed, removed or moved out of the pages read: select nothing, not its row
            after.append(QModelIndex());
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

int TaskModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int TaskModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_fields.size());
}

QString TaskModel::text(const TaskRow& task, Field field) const
{
    switch (field) {
    case Field::Time:
        return fromStd(delayq::formatTime(task.score, m_utc));
    case Field::Relative: {
        const qint64 now = QDateTime::currentMSecsSinceEpoch() + m_clockOffsetMs;
        if (m_set == TaskSet::Active)
            return DueText::lease(task.score, now);
        return DueText::relative(task.score, now);
    }
    case Field::Id:
        // A plain member is the whole message: a cell shows its start, escaped.
        return MemberText::displayText(task.id.left(kPreviewChars * 2));
    case Field::Attempts:
        return task.maxAttempts > 0
                   ? QStringLiteral("%1/%2").arg(task.attempts).arg(task.maxAttempts)
                   : QString::number(task.attempts);
    case Field::Worker:
        return task.worker;
    case Field::LastError:
        return ErrorText::causeFirst(task.lastError.left(kPreviewChars * 2).simplified())
            .left(kPreviewChars);
    case Field::Payload: {
        if (task.broken)
            return tr("(broken: %1)").arg(task.lastError);
        // One line: newlines and tabs of a pretty-printed payload would hide the next rows.
        QString preview =
            MemberText::displayBytes(task.payload.left(kPreviewChars * 4).toStdString());
        preview = preview.left(kPreviewChars).simplified();
        if (task.payload.size() > kPreviewChars)
            preview += QChar(0x2026);
        return preview;
    }
    }
    return {};
}

QVariant TaskModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows || index.column() >= m_fields.size())
        return {};
    const qint64 page = (m_base + index.row()) / m_pageSize;
    const TaskRow* task = taskAt(index.row());
    if (!task) {
        if (!m_pages.contains(page))
            requestPage(page);
        if (role == LoadedRole)
            return false;
        if (role == Qt::DisplayRole && m_fields.at(index.column()) == Field::Id)
            return tr("loading…");
        if (role == Qt::ForegroundRole)
            return QColor(Qt::gray);
        return {};
    }
    touch(page);
    const Field field = m_fields.at(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return text(*task, field);
    case IdRole:
        return task->id;
    case ScoreRole:
        return task->score;
    case LoadedRole:
        return true;
    case Qt::ToolTipRole:
        // The whole error as the handler wrote it (a cell shows its start).
        if (field == Field::LastError && !task->lastError.isEmpty())
            return task->lastError.left(2000);
        return {};
    case Qt::TextAlignmentRole:
        if (field == Field::Attempts)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (task->broken)
            return QColor(Qt::darkRed);
        if (field == Field::Relative && m_set != TaskSet::Dead &&
            task->score <= QDateTime::currentMSecsSinceEpoch() + m_clockOffsetMs)
            return QColor(0xc0, 0x39, 0x2b);
        return {};
    default:
        return {};
    }
}

QVariant TaskModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return m_base + section + 1;
    if (section < 0 || section >= m_fields.size())
        return {};
    // Local times say their zone: "Due (CET, UTC+1)".
    const QString zone = QStringLiteral(" (%1)").arg(DueText::zoneName(m_utc));
    switch (m_fields.at(section)) {
    case Field::Time:
        return (m_set == TaskSet::Pending  ? tr("Due")
                : m_set == TaskSet::Active ? tr("Lease until")
                                           : tr("Died")) +
               zone;
    case Field::Relative:
        return tr("When");
    case Field::Id:
        return m_plain ? tr("Message") : tr("Id");
    case Field::Attempts:
        return tr("Attempts");
    case Field::Worker:
        return tr("Worker");
    case Field::LastError:
        return tr("Last error");
    case Field::Payload:
        return tr("Payload");
    }
    return {};
}

} // namespace delayq::ui
