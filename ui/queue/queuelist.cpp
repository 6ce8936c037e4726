#include "queue/queuelist.h"

#include "client/adminclient.h"
#include "client/plainclient.h"
#include "client/queueclient.h"
#include "widgets/columnfit.h"
#include "widgets/fielderror.h"
#include <delayq/keys.h>

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace delayq::ui {

namespace {

QStandardItem* numberItem(qint64 value)
{
    auto* item = new QStandardItem;
    // -1: the key exists with another type; shown, not hidden.
    item->setData(value < 0 ? QVariant(QStringLiteral("?")) : QVariant(value), Qt::DisplayRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setEditable(false);
    return item;
}

// Counts grouped as the tabs and the Overview write them ("1,000,000"): a view draws a number
// with its locale's group separator left out.
QString countText(const QVariant& value)
{
    return value.typeId() == QMetaType::LongLong ? QLocale().toString(value.toLongLong())
                                                 : value.toString();
}

class CountDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QString displayText(const QVariant& value, const QLocale& locale) const override
    {
        return value.typeId() == QMetaType::LongLong
                   ? countText(value)
                   : QStyledItemDelegate::displayText(value, locale);
    }
};

// A full discovery walks the keyspace; every refresh (2 s) would be too much for a big one.
constexpr qint64 kRediscoverMs = 30000;
constexpr int kNodeColumn = 5;

} // namespace

QueueList::QueueList(AdminClient* client, QWidget* parent) : QWidget(parent), m_client(client)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter, or Enter to open a queue by name"));
    m_filter->setClearButtonEnabled(true);
    layout->addWidget(m_filter);
    m_error = new FieldError(this);
    layout->addWidget(m_error);

    m_model = new QStandardItemModel(0, 6, this);
    m_model->setHorizontalHeaderLabels(
        {tr("Queue"), tr("Pending"), tr("Due"), tr("Active"), tr("Dead"), tr("Node")});
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSortRole(Qt::DisplayRole);
    m_view = makeTable(m_model, m_proxy);
    m_view->horizontalHeader()->setMinimumSectionSize(24);
    // Counts up to a million fit; the name takes what is left.
    const int numberWidth =
        m_view->fontMetrics().horizontalAdvance(QStringLiteral("1,000,000")) + 6;
    for (int c = 1; c < 5; ++c) {
        m_view->horizontalHeader()->setSectionResizeMode(c, QHeaderView::Interactive);
        m_view->setColumnWidth(c, c == 1 ? numberWidth : numberWidth * 2 / 3);
    }
    // The node column only on a Redis Cluster, where queues live on different masters.
    m_view->setColumnHidden(kNodeColumn, true);
    layout->addWidget(m_view, 1);

    m_plainLabel = new QLabel(tr("Plain sorted sets"), this);
    m_plainLabel->setTextFormat(Qt::PlainText);
    layout->addWidget(m_plainLabel);
    m_plainModel = new QStandardItemModel(0, 3, this);
    m_plainModel->setHorizontalHeaderLabels({tr("Key"), tr("Unit"), tr("Size")});
    m_plainProxy = new QSortFilterProxyModel(this);
    m_plainView = makeTable(m_plainModel, m_plainProxy);
    m_plainView->setColumnWidth(1, numberWidth * 2 / 3);
    m_plainView->setColumnWidth(2, numberWidth);
    layout->addWidget(m_plainView, 1);
    connectViews();
}

QTableView* QueueList::makeTable(QStandardItemModel* model, QSortFilterProxyModel* proxy)
{
    proxy->setSourceModel(model);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(0);
    auto* view = new QTableView(this);
    view->setModel(proxy);
    view->setItemDelegate(new CountDelegate(view));
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setSortingEnabled(true);
    view->sortByColumn(0, Qt::AscendingOrder);
    view->verticalHeader()->setVisible(false);
    view->setWordWrap(false);
    view->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    return view;
}

void QueueList::connectViews()
{
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_error->setError({});
        m_showsListError = false;
        m_proxy->setFilterFixedString(text);
        m_plainProxy->setFilterFixedString(text);
    });
    connect(m_filter, &QLineEdit::returnPressed, this, &QueueList::openTyped);
    // A click (or Enter, or a double click) opens the queue; the open one is not reopened,
    // which would lose the table's selection and scroll position.
    auto open = [this](const QModelIndex& index) {
        const QString name = m_proxy->index(index.row(), 0).data().toString();
        if (name != m_current)
            emit queueOpened(name);
    };
    connect(m_view, &QTableView::activated, this, open);
    connect(m_view, &QTableView::clicked, this, open);
    connect(m_client->queues(), &QueueClient::queuesListed, this, &QueueList::onListed);
    auto openPlain = [this](const QModelIndex& index) {
        const QString key = m_plainProxy->index(index.row(), 0).data().toString();
        if (key != m_current)
            emit plainKeyOpened(key, m_plainProxy->index(index.row(), 1).data().toString());
    };
    connect(m_plainView, &QTableView::activated, this, openPlain);
    connect(m_plainView, &QTableView::clicked, this, openPlain);
    connect(m_client->plain(), &PlainClient::plainKeysDiscovered, this,
            &QueueList::onPlainDiscovered);
    // Another server (or the same one back): its keys, found afresh, not the last ones.
    connect(m_client, &AdminClient::connected, this, [this] {
        m_plainModel->removeRows(0, m_plainModel->rowCount());
        m_discovering = false;
        m_plainTag = 0;
        m_sinceDiscovery.invalidate();
    });
}

void QueueList::openTyped()
{
    m_showsListError = false; // what is shown from here on is about the typed name
    const QString name = m_filter->text().trimmed();
    if (name.isEmpty()) {
        m_error->setError(tr("type a queue name to open it"));
        return;
    }
    if (m_error->passes([&name] { delayq::Keys::validateQueueName(name.toStdString()); }))
        emit queueOpened(name);
}

void QueueList::refresh()
{
    if (!m_discovering &&
        (!m_sinceDiscovery.isValid() || m_sinceDiscovery.elapsed() >= kRediscoverMs)) {
        m_discovering = true;
        m_plainTag = AdminClient::newTag();
        m_sinceDiscovery.start();
        m_client->plain()->discoverPlain(m_plainTag);
    }
    if (m_inFlight)
        return;
    m_inFlight = true;
    m_tag = AdminClient::newTag();
    m_client->queues()->listQueues(m_tag);
}

void QueueList::rediscover()
{
    m_discovering = false;
    m_sinceDiscovery.invalidate();
    refresh();
}

QString QueueList::nodeOf(const QString& name) const
{
    const auto matches = m_model->findItems(name, Qt::MatchExactly, 0);
    return matches.isEmpty() ? QString()
                             : m_model->item(matches.first()->row(), kNodeColumn)->text();
}

void QueueList::setCurrentQueue(const QString& name)
{
    m_current = name;
    // The open queue or plain key is marked in its own list; the other list marks none.
    auto mark = [&name](QTableView* view, QSortFilterProxyModel* proxy, QStandardItemModel* model) {
        const auto matches = model->findItems(name, Qt::MatchExactly, 0);
        if (matches.isEmpty() || name.isEmpty()) {
            view->selectionModel()->clear();
            return;
        }
        const QModelIndex index = proxy->mapFromSource(matches.first()->index());
        view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                           QItemSelectionModel::Rows);
    };
    mark(m_view, m_proxy, m_model);
    mark(m_plainView, m_plainProxy, m_plainModel);
}

QStringList QueueList::names() const
{
    QStringList out;
    for (int r = 0; r < m_model->rowCount(); ++r)
        out.append(m_model->item(r, 0)->text());
    return out;
}

QStringList QueueList::plainKeys() const
{
    QStringList out;
    for (int r = 0; r < m_plainModel->rowCount(); ++r)
        out.append(m_plainModel->item(r, 0)->text());
    return out;
}

QList<PlainKeyRow> QueueList::plainRows() const
{
    QList<PlainKeyRow> out;
    for (int r = 0; r < m_plainModel->rowCount(); ++r)
        out.append({m_plainModel->item(r, 0)->text(), m_plainModel->item(r, 1)->text(),
                    m_plainModel->item(r, 2)->data(Qt::DisplayRole).toLongLong()});
    return out;
}

void QueueList::setPausedQueues(const QSet<QString>& names)
{
    if (names == m_paused)
        return;
    m_paused = names;
    for (int r = 0; r < m_model->rowCount(); ++r)
        markPaused(m_model->item(r, 0));
}

bool QueueList::isMarkedPaused(const QString& name) const
{
    const auto matches = m_model->findItems(name, Qt::MatchExactly, 0);
    return !matches.isEmpty() && !matches.first()->icon().isNull();
}

void QueueList::markPaused(QStandardItem* nameItem)
{
    // An icon, not a changed name: the name is what opens the queue and what the filter matches.
    const bool paused = m_paused.contains(nameItem->text());
    nameItem->setIcon(paused ? style()->standardIcon(QStyle::SP_MediaPause) : QIcon());
    const QString name = nameItem->text();
    const QString node = m_model->item(nameItem->row(), kNodeColumn)
                             ? m_model->item(nameItem->row(), kNodeColumn)->text()
                             : QString();
    QStringList tip;
    if (paused)
        tip.append(tr("%1 is paused: workers claim nothing from it").arg(name));
    if (!node.isEmpty())
        tip.append(tr("%1 is on %2").arg(name, node));
    nameItem->setToolTip(tip.join(QLatin1Char('\n')));
}

void QueueList::onPlainDiscovered(const PlainDiscoveryResult& result)
{
    if (result.tag != m_plainTag)
        return;
    m_discovering = false;
    if (!result.error.isEmpty()) {
        m_plainLabel->setText(tr("Plain sorted sets (%1)").arg(result.error.message));
        return;
    }
    m_plainLabel->setText(result.complete ? tr("Plain sorted sets")
                                          : tr("Plain sorted sets (first part of the keyspace)"));
    // Replaced as a whole: the list is small and a key is opened by name, not by row.
    m_plainModel->removeRows(0, m_plainModel->rowCount());
    for (const auto& k : result.keys) {
        auto* key = new QStandardItem(k.key);
        key->setEditable(false);
        auto* unit = new QStandardItem(k.unit);
        unit->setEditable(false);
        m_plainModel->appendRow({key, unit, numberItem(k.size)});
    }
    setCurrentQueue(m_current);
    emit plainKeysListed();
}

void QueueList::onListed(const QueueListResult& result)
{
    if (result.tag != m_tag)
        return;
    m_inFlight = false;
    if (!result.error.isEmpty()) {
        m_error->setError(result.error.message);
        m_showsListError = true;
        return;
    }
    // The listing works again: its old error goes (a typed name's stays until edited).
    if (m_showsListError)
        m_error->setError({});
    m_showsListError = false;
    // Update rows in place so the selection and the scroll position stay.
    QSet<QString> seen;
    bool anyNode = false;
    for (const auto& q : result.queues) {
        anyNode = anyNode || !q.node.isEmpty();
        seen.insert(q.name);
        const auto matches = m_model->findItems(q.name, Qt::MatchExactly, 0);
        const qint64 values[] = {q.pending, q.dueNow, q.active, q.dead};
        if (matches.isEmpty()) {
            auto* name = new QStandardItem(q.name);
            name->setEditable(false);
            name->setToolTip(q.name); // a long name is elided in the dock
            QList<QStandardItem*> row{name};
            for (qint64 v : values)
                row.append(numberItem(v));
            auto* node = new QStandardItem(q.node);
            node->setEditable(false);
            row.append(node);
            m_model->appendRow(row);
            markPaused(name);
        } else {
            const int r = matches.first()->row();
            for (int c = 0; c < 4; ++c)
                m_model->item(r, c + 1)->setData(values[c] < 0 ? QVariant(QStringLiteral("?"))
                                                               : QVariant(values[c]),
                                                 Qt::DisplayRole);
            m_model->item(r, kNodeColumn)->setText(q.node);
            markPaused(m_model->item(r, 0));
        }
    }
    if (m_view->isColumnHidden(kNodeColumn) == anyNode) {
        m_view->setColumnHidden(kNodeColumn, !anyNode);
        if (anyNode)
            m_view->resizeColumnToContents(kNodeColumn);
        emit nodeColumnShown(anyNode);
    }
    for (int r = m_model->rowCount() - 1; r >= 0; --r)
        if (!seen.contains(m_model->item(r, 0)->text()))
            m_model->removeRow(r);
    fitCountColumns();
    setCurrentQueue(m_current);
    emit listed();
}

void QueueList::fitCountColumns()
{
    // The counts as wide as their header's text or their widest figure, not a million's
    // width each: the names get the rest ("webhooks", not "webho…", in a 270 px dock).
    QHeaderView* header = m_view->horizontalHeader();
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    for (int c = 1; c < 5; ++c) {
        int width = header->fontMetrics().horizontalAdvance(
                        m_model->headerData(c, Qt::Horizontal).toString()) +
                    2 * margin + 4;
        if (c == header->sortIndicatorSection())
            width += header->height() / 2 + margin;
        // Measured as drawn, separators and all.
        int widest = 0;
        for (int r = 0; r < m_proxy->rowCount(); ++r)
            widest = qMax(widest, m_view->fontMetrics().horizontalAdvance(
                                      countText(m_proxy->index(r, c).data())));
        m_view->setColumnWidth(c,
                               std::max({width, ColumnFit::contentWidth(m_view, c), widest + 14}));
    }
}

} // namespace delayq::ui
