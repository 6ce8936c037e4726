#include "queue/groupstab.h"

#include "client/adminclient.h"
#include "client/queueclient.h"
#include "widgets/columnfit.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

namespace delayq::ui {

GroupsTab::GroupsTab(AdminClient* client, QWidget* parent) : QueueTab(parent), m_client(client)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    // Item views show text as it is, never as markup: group keys are the producers' text.
    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setHorizontalHeaderLabels(
        {tr("Group"), tr("Due waiting"), tr("Running"), tr("Held by")});
    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->hide();
    m_fit = new ColumnFit(m_view);
    layout->addWidget(m_view, 1);
    layout->addWidget(makeNote(), 1);
    m_footer = new QLabel(this);
    m_footer->setTextFormat(Qt::PlainText);
    layout->addWidget(m_footer);
    connect(client->queues(), &QueueClient::groupsLoaded, this, &GroupsTab::onLoaded);
    updateNote();
}

void GroupsTab::forget()
{
    m_result = GroupsResult();
    m_loaded = false;
    fill();
}

void GroupsTab::updateNote()
{
    // In due order there are no turns to show: say so, and where to turn fair order on.
    const bool dueOrder = m_loaded && !m_result.fair;
    const bool note = m_plain || m_queue.isEmpty() || dueOrder;
    m_note->setText(m_plain ? tr("A plain sorted set has no groups: only delayq queues "
                                 "in fair order do.")
                    : m_queue.isEmpty()
                        ? tr("Open a queue to see its busiest groups.")
                        : tr("This queue hands out its tasks in due order: groups take "
                             "no turns (Queue → Queue settings…, Order: Fair "
                             "turns them on)."));
    m_note->setVisible(note);
    m_view->setVisible(!note);
    m_summary->setVisible(!note);
    m_footer->setVisible(!note);
}

quint64 GroupsTab::request()
{
    const quint64 tag = AdminClient::newTag();
    m_client->queues()->loadGroups(tag, m_queue, kLimit);
    return tag;
}

void GroupsTab::onLoaded(const GroupsResult& result)
{
    if (!isAwaited(result.tag))
        return;
    if (!result.error.isEmpty()) {
        // The last figures stay, with why they are not new.
        m_footer->setText(result.error.message);
        m_footer->show();
        return;
    }
    m_result = result;
    m_loaded = true;
    fill();
    updateNote();
    emit loaded();
}

void GroupsTab::fill()
{
    m_model->removeRows(0, m_model->rowCount());
    const QLocale locale;
    for (const GroupRow& g : m_result.rows) {
        auto* name = new QStandardItem(g.group.isEmpty() ? tr("(no group)") : g.group);
        if (g.group.isEmpty()) {
            QFont italic = name->font();
            italic.setItalic(true);
            name->setFont(italic);
        }
        auto* due = new QStandardItem(locale.toString(g.dueWaiting));
        auto* running = new QStandardItem(locale.toString(g.active));
        for (QStandardItem* number : {due, running})
            number->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* held = new QStandardItem(g.atCap    ? tr("its group cap")
                                       : g.atRate ? tr("its group rate")
                                                  : QString());
        m_model->appendRow({name, due, running, held});
    }
    // The key may be cut (its tooltip-free cell elides); the counts never are.
    m_fit->fitContents({{Group, 10}, {HeldBy, 6}});
    if (!m_loaded) {
        m_summary->clear();
        m_footer->clear();
        return;
    }
    QString settings = tr("Fair order");
    if (m_result.groupCap > 0)
        settings = tr("Fair order, group cap %1").arg(locale.toString(m_result.groupCap));
    // A sharded queue's shards each track their own groups (docs/design/flow.md).
    const QString tracked =
        m_result.shards > 1
            ? tr("%1 tracked in the fullest of %2 shards")
                  .arg(locale.toString(m_result.known), locale.toString(m_result.shards))
            : tr("%1 tracked").arg(locale.toString(m_result.known));
    m_summary->setText(
        tr("%1: %2 groups in turn with due tasks, %3 at their cap, %4 waiting for their rate "
           "(%5).")
            .arg(settings, locale.toString(m_result.ready), locale.toString(m_result.atCap),
                 locale.toString(m_result.atRate), tracked));
    const qsizetype shown = m_result.rows.size();
    m_footer->setText(shown == 0          ? tr("No group has due or running tasks.")
                      : m_result.complete ? tr("The busiest %1 of every group").arg(shown)
                                          : tr("The busiest %1 of the %2 groups looked at")
                                                .arg(shown)
                                                .arg(locale.toString(m_result.examined)));
}

} // namespace delayq::ui
