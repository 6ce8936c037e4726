#include "overview/serverview.h"

#include "client/adminclient.h"
#include "client/overviewclient.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace delayq::ui {

ServerView::ServerView(AdminClient* client, const QString& queue, QWidget* parent)
    : QDialog(parent), m_client(client), m_queue(queue)
{
    setWindowTitle(tr("Server"));
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_table = new QTableWidget(0, 5, this);
    m_table->setHorizontalHeaderLabels(
        {tr("Node"), tr("Role"), tr("Replica of"), tr("Slots"), tr("State")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    m_shardsTitle = new QLabel(this);
    m_shardsTitle->setTextFormat(Qt::PlainText);
    m_shardsTitle->setWordWrap(true);
    m_moveLine = new QLabel(this);
    m_moveLine->setTextFormat(Qt::PlainText);
    m_moveLine->setWordWrap(true);
    m_shards = new QTableWidget(0, 7, this);
    m_shards->setHorizontalHeaderLabels(
        {tr("Shard"), tr("Tag"), tr("Node"), tr("Pending"), tr("Active"), tr("Dead"), tr("State")});
    m_shards->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_shards->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_shards->verticalHeader()->setVisible(false);
    m_shards->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_checksTitle = new QLabel(tr("Configuration checks (as delayq doctor makes them)"), this);
    m_checks = new QTableWidget(0, 5, this);
    m_checks->setHorizontalHeaderLabels(
        {tr("Level"), tr("Check"), tr("Server"), tr("Found"), tr("Risk and fix")});
    m_checks->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_checks->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_checks->setWordWrap(true);
    m_checks->verticalHeader()->setVisible(false);
    m_checks->horizontalHeader()->setSectionResizeMode(4, QHeaderView::Stretch);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* refresh = buttons->addButton(tr("Refresh"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(refresh, &QPushButton::clicked, this, &ServerView::reload);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_shardsTitle);
    layout->addWidget(m_moveLine);
    layout->addWidget(m_shards, 1);
    layout->addWidget(m_checksTitle);
    layout->addWidget(m_checks, 1);
    layout->addWidget(buttons);
    connect(m_client->overview(), &OverviewClient::serverLoaded, this, &ServerView::onLoaded);
    resize(820, 600);
    reload();
}

void ServerView::reload()
{
    m_summary->setText(tr("Asking the server…"));
    m_tag = AdminClient::newTag();
    m_client->overview()->loadServer(m_tag, m_queue);
}

void ServerView::setQueue(const QString& queue)
{
    m_queue = queue;
}

void ServerView::onLoaded(const ServerResult& result)
{
    if (result.tag != m_tag)
        return;
    m_table->setRowCount(0);
    if (!result.error.isEmpty()) {
        m_summary->setText(
            tr("Could not %1: %2").arg(result.error.operation, result.error.message));
    } else if (!result.cluster) {
        m_summary->setText(tr("%1 is one server, not a Redis Cluster.").arg(result.displayUrl));
    } else {
        int masters = 0;
        int down = 0;
        for (const auto& n : result.nodes) {
            masters += n.master ? 1 : 0;
            down += n.reachable ? 0 : 1;
            const int row = m_table->rowCount();
            m_table->insertRow(row);
            const QStringList cells{
                n.address, n.master ? tr("master") : tr("replica"), n.masterAddress,
                n.master ? tr("%1 (%2 slots)").arg(n.slotRanges).arg(n.slotCount) : QString(),
                n.reachable ? tr("up") : tr("unreachable")};
            for (int c = 0; c < cells.size(); ++c)
                m_table->setItem(row, c, new QTableWidgetItem(cells.at(c)));
            if (!n.reachable)
                m_table->item(row, 4)->setForeground(QColor(0xc0, 0x39, 0x2b));
        }
        m_summary->setText(
            tr("%1: a Redis Cluster of %2 masters").arg(result.displayUrl).arg(masters) +
            (down > 0 ? tr(", %1 unreachable").arg(down) : QString()));
        m_table->resizeColumnsToContents();
    }
    m_table->setVisible(result.cluster);
    showShards(result);
    showChecks(result);
    emit loaded();
}

void ServerView::showShards(const ServerResult& result)
{
    m_shards->setRowCount(0);
    const bool shown = !result.queue.isEmpty() && result.error.isEmpty();
    m_shardsTitle->setVisible(shown);
    m_shards->setVisible(shown && result.shardsError.isEmpty());
    m_moveLine->setVisible(shown && result.move.moving);
    if (!shown)
        return;
    if (!result.shardsError.isEmpty()) {
        m_shardsTitle->setText(
            tr("Shards of %1 could not be read: %2").arg(result.queue, result.shardsError));
        return;
    }
    const QLocale locale;
    m_shardsTitle->setText(tr("Shards of %1").arg(result.queue));
    const ShardMoveRow& move = result.move;
    if (move.moving)
        m_moveLine->setText(
            tr("Moving tasks from %1 to %2 shards: %3 moved; looking at shard %4 (shards 0–%5), "
               "pass %6")
                .arg(move.from)
                .arg(move.to)
                .arg(locale.toString(move.moved))
                .arg(move.shard)
                .arg(move.shards - 1)
                .arg(move.pass));
    const auto count = [&](qint64 n) { return n < 0 ? QStringLiteral("?") : locale.toString(n); };
    const QColor retiredColor = palette().color(QPalette::Disabled, QPalette::Text);
    for (const auto& s : result.shards) {
        const int row = m_shards->rowCount();
        m_shards->insertRow(row);
        const QStringList cells{QString::number(s.index),
                                s.tag,
                                s.node,
                                count(s.pending),
                                count(s.active),
                                count(s.dead),
                                s.retired ? tr("retired") : tr("in use")};
        for (int col = 0; col < cells.size(); ++col) {
            auto* item = new QTableWidgetItem(cells.at(col)); // plain text: tags and nodes
            item->setToolTip(cells.at(col));
            if (col == 0 || (col >= 3 && col <= 5))
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (s.retired)
                item->setForeground(retiredColor);
            m_shards->setItem(row, col, item);
        }
    }
    // The tag takes what is left, elided (its tooltip has it whole).
    for (int col = 0; col < m_shards->columnCount(); ++col)
        if (col != 1)
            m_shards->resizeColumnToContents(col);
}

void ServerView::showChecks(const ServerResult& result)
{
    m_checks->setRowCount(0);
    if (!result.checksError.isEmpty()) {
        m_checksTitle->setText(
            tr("Configuration checks could not run: %1").arg(result.checksError));
        return;
    }
    m_checksTitle->setText(tr("Configuration checks (as delayq doctor makes them)"));
    QList<ServerCheckRow> rows = result.checks;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.level > b.level; });
    for (const auto& c : rows) {
        const int row = m_checks->rowCount();
        m_checks->insertRow(row);
        const QString level = c.level == ServerCheckRow::Problem   ? tr("problem")
                              : c.level == ServerCheckRow::Warning ? tr("warning")
                                                                   : tr("ok");
        QString advice = c.risk;
        if (!c.fix.isEmpty())
            advice +=
                (advice.isEmpty() ? QString() : QStringLiteral("\n")) + tr("Fix: %1").arg(c.fix);
        const QStringList cells{level, c.check, c.server, c.what, advice};
        for (int col = 0; col < cells.size(); ++col) {
            auto* item = new QTableWidgetItem(cells.at(col)); // plain text: it quotes the server
            item->setToolTip(cells.at(col));
            m_checks->setItem(row, col, item);
        }
        if (c.level != ServerCheckRow::Ok)
            m_checks->item(row, 0)->setForeground(c.level == ServerCheckRow::Problem
                                                      ? QColor(0xc0, 0x39, 0x2b)
                                                      : QColor(0xd3, 0x54, 0x00));
    }
    // The short columns fit their text; what was found gets a bounded width and the risk and
    // its fix the rest, wrapped, so the advice is read without scrolling sideways.
    for (int col = 0; col < 4; ++col)
        m_checks->resizeColumnToContents(col);
    m_checks->setColumnWidth(3, std::min(m_checks->columnWidth(3), 260));
    m_checks->resizeRowsToContents();
}

} // namespace delayq::ui
