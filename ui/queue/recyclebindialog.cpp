#include "queue/recyclebindialog.h"

#include "client/adminclient.h"
#include "client/binclient.h"
#include "queue/recyclebinactions.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace delayq::ui {

namespace {

// Tags of this dialog's requests: apart from the Undo's (RecycleBinActions).
constexpr quint64 kDialogTagBase = 0x0b1b000000000000ULL;

QString kindText(const QString& kind)
{
    if (kind == QLatin1String("cancel"))
        return RecycleBinDialog::tr("Cancel");
    if (kind == QLatin1String("purge"))
        return RecycleBinDialog::tr("Purge");
    if (kind == QLatin1String("delete"))
        return RecycleBinDialog::tr("Delete dead tasks");
    return kind;
}

} // namespace

RecycleBinDialog::RecycleBinDialog(AdminClient* client, const QString& queue, bool readOnly,
                                   QWidget* parent)
    : QDialog(parent), m_client(client), m_queue(queue), m_readOnly(readOnly),
      m_note(new QLabel(this)), m_table(new QTableWidget(0, 5, this)),
      m_restore(new QPushButton(tr("&Restore"), this)),
      m_restoreAll(new QPushButton(tr("Restore &all"), this)),
      m_refresh(new QPushButton(tr("Re&fresh"), this))
{
    setWindowTitle(tr("Recycle bin of %1").arg(queue));
    m_note->setWordWrap(true);
    m_note->setText(tr("Tasks removed by cancel, purge and delete of dead tasks stay here for the "
                       "queue's bin_keep (24 hours by default). A restored task comes back as it "
                       "was: payload, attempts, history and due time."));
    m_table->setHorizontalHeaderLabels(
        {tr("Removed"), tr("Action"), tr("Tasks"), tr("Audit entry"), tr("Bin id")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_restore, QDialogButtonBox::ActionRole);
    buttons->addButton(m_restoreAll, QDialogButtonBox::ActionRole);
    buttons->addButton(m_refresh, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_restore, &QPushButton::clicked, this, [this] { restoreChosen(false); });
    connect(m_restoreAll, &QPushButton::clicked, this, [this] { restoreChosen(true); });
    connect(m_refresh, &QPushButton::clicked, this, &RecycleBinDialog::reload);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &RecycleBinDialog::updateButtons);
    connect(m_client->bin(), &BinClient::loaded, this, &RecycleBinDialog::onLoaded);
    connect(m_client->bin(), &BinClient::restored, this, &RecycleBinDialog::onRestored);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_note);
    layout->addWidget(m_table);
    layout->addWidget(buttons);
    resize(720, 360);
    reload();
}

void RecycleBinDialog::reload()
{
    m_busy = true;
    updateButtons();
    m_client->bin()->load(kDialogTagBase + ++m_tag, m_queue);
}

void RecycleBinDialog::onLoaded(const BinListResult& result)
{
    if (result.tag != kDialogTagBase + m_tag)
        return;
    m_busy = false;
    m_table->setRowCount(0);
    if (!result.error.isEmpty()) {
        m_note->setText(result.error.text());
        updateButtons();
        return;
    }
    for (const BinRow& row : result.rows) {
        const int r = m_table->rowCount();
        m_table->insertRow(r);
        auto* when = new QTableWidgetItem(QDateTime::fromMSecsSinceEpoch(row.removedMs)
                                              .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        when->setData(Qt::UserRole, row.action);
        m_table->setItem(r, 0, when);
        m_table->setItem(r, 1, new QTableWidgetItem(kindText(row.kind)));
        m_table->setItem(r, 2, new QTableWidgetItem(QString::number(row.tasks)));
        m_table->setItem(
            r, 3,
            new QTableWidgetItem(row.auditEntry.isEmpty() ? QStringLiteral("–") : row.auditEntry));
        m_table->setItem(r, 4, new QTableWidgetItem(row.action));
    }
    if (result.rows.isEmpty())
        m_note->setText(tr("The recycle bin of %1 is empty.").arg(m_queue));
    updateButtons();
}

void RecycleBinDialog::restoreChosen(bool all)
{
    QString action;
    if (!all) {
        const auto chosen = m_table->selectedItems();
        if (chosen.isEmpty())
            return;
        action = m_table->item(chosen.first()->row(), 0)->data(Qt::UserRole).toString();
    }
    m_busy = true;
    updateButtons();
    m_client->bin()->restore(kDialogTagBase + ++m_tag, m_queue, action);
}

void RecycleBinDialog::onRestored(const BinRestoreResult& result)
{
    if (result.tag != kDialogTagBase + m_tag)
        return;
    m_busy = false;
    if (!result.error.isEmpty())
        emit resultReported(result.error.text(), false);
    else
        emit resultReported(restoreSummary(result), result.exists.isEmpty() && result.gone == 0);
    emit restored();
    reload();
}

void RecycleBinDialog::updateButtons()
{
    const bool any = m_table->rowCount() > 0;
    m_restore->setEnabled(!m_busy && !m_readOnly && !m_table->selectedItems().isEmpty());
    m_restoreAll->setEnabled(!m_busy && !m_readOnly && any);
    m_refresh->setEnabled(!m_busy);
}

} // namespace delayq::ui
