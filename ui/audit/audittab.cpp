#include "audit/audittab.h"

#include "client/adminclient.h"
#include "client/queueclient.h"
#include "widgets/columnfit.h"
#include "widgets/elidedelegate.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QTimeZone>
#include <QVBoxLayout>

namespace delayq::ui {

AuditTab::AuditTab(AdminClient* client, QWidget* parent) : QueueTab(parent), m_client(client)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by who or what"));
    m_filter->setClearButtonEnabled(true);
    layout->addWidget(m_filter);
    // Item views show text as it is, never as markup: the entries are untrusted text.
    m_model = new QStandardItemModel(0, 7, this);
    m_model->setHorizontalHeaderLabels({tr("Time"), tr("ACL user"), tr("OS user@host"), tr("Tool"),
                                        tr("Action"), tr("Tasks"), tr("Ids / detail")});
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view = new QTableView(this);
    m_view->setModel(m_proxy);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->hide();
    // Every column on screen in the dock's width, what was done first: the time, the action,
    // how many tasks and which; who and with what tool after, cut first when narrow.
    QHeaderView* header = m_view->horizontalHeader();
    header->moveSection(header->visualIndex(4), 1); // Action
    header->moveSection(header->visualIndex(5), 2); // Tasks
    m_fit = new ColumnFit(m_view);
    m_view->setItemDelegateForColumn(0, new ElideDelegate(Qt::ElideLeft, m_view));
    layout->addWidget(m_view, 1);
    layout->addWidget(makeNote(), 1);
    m_footer = new QLabel(this);
    layout->addWidget(m_footer);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        updateFooter();
    });
    connect(client->queues(), &QueueClient::auditLoaded, this, &AuditTab::onLoaded);
    updateNote();
}

void AuditTab::forget()
{
    m_rows.clear();
    fill();
}

void AuditTab::setUtc(bool utc)
{
    m_utc = utc;
    fill();
}

void AuditTab::updateNote()
{
    const bool note = m_plain || m_queue.isEmpty();
    m_note->setText(m_plain ? tr("A plain sorted set keeps no audit trail: only delayq queues "
                                 "do.")
                            : tr("Open a queue to see who changed what in it."));
    m_note->setVisible(note);
    m_view->setVisible(!note);
    m_filter->setVisible(!note);
    m_footer->setVisible(!note);
}

quint64 AuditTab::request()
{
    const quint64 tag = AdminClient::newTag();
    m_client->queues()->loadAudit(tag, m_queue, kLimit);
    return tag;
}

void AuditTab::onLoaded(const AuditResult& result)
{
    if (!isAwaited(result.tag))
        return;
    if (!result.error.isEmpty()) {
        m_footer->setText(result.error.message);
        return;
    }
    m_rows = result.rows;
    fill();
    emit loaded();
}

void AuditTab::fill()
{
    m_model->removeRows(0, m_model->rowCount());
    for (const AuditRow& r : m_rows) {
        const QDateTime time = QDateTime::fromMSecsSinceEpoch(
            r.timeMs, m_utc ? QTimeZone::utc() : QTimeZone::systemTimeZone());
        QString what = r.ids.join(QLatin1Char(' '));
        if (r.count > r.ids.size() && !r.ids.isEmpty())
            what += QStringLiteral(" …");
        if (!r.detail.isEmpty())
            what += (what.isEmpty() ? QString() : QStringLiteral("  ")) + detailText(r);
        QList<QStandardItem*> cells;
        for (const QString& text : {time.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), r.user,
                                    r.osUser + QLatin1Char('@') + r.host, r.tool, r.action,
                                    QString::number(r.count), what})
            cells.append(new QStandardItem(text));
        m_model->appendRow(cells);
    }
    // Time keeps its clock, who and the tool may be cut; action and count never are.
    m_fit->fitContents({{0, 10}, {1, 6}, {2, 8}, {3, 6}, {6, 14}});
    updateFooter();
}

void AuditTab::updateFooter()
{
    const int shown = m_proxy->rowCount();
    m_footer->setText(
        shown == m_rows.size()
            ? tr("Entries shown: %1 (newest first)").arg(shown)
            : tr("Entries shown: %1 of %2 (newest first)").arg(shown).arg(m_rows.size()));
}

QString AuditTab::detailText(const AuditRow& row) const
{
    static const QRegularExpression due(QStringLiteral("^due=(-?\\d{1,16})$"));
    const QRegularExpressionMatch match = due.match(row.detail);
    if (row.action != QLatin1String("reschedule") || !match.hasMatch())
        return row.detail;
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(
        match.captured(1).toLongLong(), m_utc ? QTimeZone::utc() : QTimeZone::systemTimeZone());
    QString text = time.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    if (m_utc)
        text += QStringLiteral(" UTC");
    return tr("due %1", "a reschedule's new due time").arg(text);
}

} // namespace delayq::ui
