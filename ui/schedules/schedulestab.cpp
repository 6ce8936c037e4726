#include "schedules/schedulestab.h"

#include "client/adminclient.h"
#include "client/scheduleclient.h"
#include "schedules/backfilldialog.h"
#include "schedules/scheduledialog.h"
#include "widgets/columnfit.h"
#include "widgets/duetext.h"
#include <delayq/timeparse.h>

#include <QAction>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QStandardItemModel>
#include <QTableView>
#include <QToolBar>
#include <QUuid>
#include <QVBoxLayout>

namespace delayq::ui {

SchedulesTab::SchedulesTab(AdminClient* client, QWidget* parent) : QWidget(parent), m_client(client)
{
    m_confirm = [this](const Confirmation& confirmation) { return confirmation.ask(this); };
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    // A tool bar, not a row of buttons: it folds into its menu when the dock is narrow, so
    // the tab does not widen the docks it shares a place with.
    m_bar = new QToolBar(this);
    m_bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_add = m_bar->addAction(tr("Add…"));
    m_add->setToolTip(tr("A new schedule: a task pushed at each fire of a cron rule or interval"));
    m_edit = m_bar->addAction(tr("Edit…"));
    m_pause = m_bar->addAction(tr("Pause"));
    m_delete = m_bar->addAction(tr("Delete"));
    m_runNow = m_bar->addAction(tr("Run now"));
    m_backfill = m_bar->addAction(tr("Backfill…"));
    layout->addWidget(m_bar);

    // Item views show text as it is, never as markup.
    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setHorizontalHeaderLabels({tr("Name"), tr("Rule"), tr("State"), tr("Next fire"),
                                        tr("Last fire"), tr("Fired"), tr("Skipped")});
    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    // Every column on screen in the dock's width: the figures and the fires first, the rule
    // (often the longest) last, taking what is left.
    QHeaderView* header = m_view->horizontalHeader();
    header->moveSection(header->visualIndex(Rule), ColumnCount - 1);
    m_fit = new ColumnFit(m_view);
    layout->addWidget(m_view, 1);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setAlignment(Qt::AlignCenter);
    m_note->setEnabled(false);
    layout->addWidget(m_note, 1);
    m_message = new QLabel(this);
    m_message->setTextFormat(Qt::PlainText); // it quotes the server's and the core's words
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);

    connect(m_add, &QAction::triggered, this, &SchedulesTab::addSchedule);
    connect(m_edit, &QAction::triggered, this, &SchedulesTab::editSelected);
    connect(m_pause, &QAction::triggered, this, &SchedulesTab::togglePauseSelected);
    connect(m_delete, &QAction::triggered, this, &SchedulesTab::deleteSelected);
    connect(m_runNow, &QAction::triggered, this, &SchedulesTab::runNowSelected);
    connect(m_backfill, &QAction::triggered, this, &SchedulesTab::backfillSelected);
    connect(m_view, &QTableView::doubleClicked, this, &SchedulesTab::editSelected);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SchedulesTab::onSelectionChanged);
    connect(client->schedules(), &ScheduleClient::schedulesListed, this, &SchedulesTab::onListed);
    connect(client->schedules(), &ScheduleClient::scheduleChanged, this, &SchedulesTab::onChanged);
    updateNote();
    updateActions();
}

void SchedulesTab::setQueue(const QString& queue)
{
    m_queue = queue;
    m_inFlight = false;
    m_dirty = false;
    m_tag = 0;
    m_changeTags.clear();
    m_rows.clear();
    m_selected.clear();
    m_message->clear();
    if (m_dialog)
        m_dialog->reject(); // it was about the queue before
    if (m_backfillDialog)
        m_backfillDialog->reject();
    fill();
    updateNote();
}

void SchedulesTab::setPlain(bool plain)
{
    m_plain = plain;
    updateNote();
    updateActions();
}

void SchedulesTab::setReadOnly(bool readOnly, const QString& reason)
{
    m_readOnly = readOnly;
    m_readOnlyReason = reason;
    updateActions();
}

void SchedulesTab::setServer(const QString& server)
{
    m_server = server;
}

void SchedulesTab::setUtc(bool utc)
{
    m_utc = utc;
    fill();
}

bool SchedulesTab::isNoteShown() const
{
    return !m_note->isHidden();
}

void SchedulesTab::updateNote()
{
    const bool note = m_plain || m_queue.isEmpty();
    m_note->setText(m_plain ? tr("A plain sorted set has no schedules: only delayq queues do.")
                            : tr("Open a queue to see its recurring schedules."));
    m_note->setVisible(note);
    m_view->setVisible(!note);
    m_message->setVisible(!note);
    m_bar->setVisible(!note);
    updateActions();
}

void SchedulesTab::updateActions()
{
    const bool writable = !m_queue.isEmpty() && !m_plain && !m_readOnly;
    const delayq::ScheduleInfo* info = selected();
    m_add->setEnabled(writable);
    for (QAction* action : {m_edit, m_pause, m_delete, m_runNow, m_backfill})
        action->setEnabled(writable && info);
    const bool paused = info && info->rule.paused;
    m_pause->setText(paused ? tr("Resume") : tr("Pause"));
    if (m_readOnly) {
        const QString why = tr("Not in a read-only session: %1").arg(m_readOnlyReason);
        for (QAction* action : {m_add, m_edit, m_pause, m_delete, m_runNow, m_backfill})
            action->setToolTip(why);
        return;
    }
    const QString pick = tr("Select a schedule first");
    m_edit->setToolTip(info ? tr("Change the rule, payload or task settings") : pick);
    m_pause->setToolTip(!info    ? pick
                        : paused ? tr("Fire again from the next fire after now")
                                 : tr("Make no tasks until resumed; the fires meanwhile are "
                                      "not made"));
    m_delete->setToolTip(info ? tr("Delete the rule; the tasks it already made stay") : pick);
    m_runNow->setToolTip(info ? tr("Push one task now; the rule and its next fire stay") : pick);
    m_backfill->setToolTip(info ? tr("Make the rule's fires of a past window that the schedule "
                                     "did not make")
                                : pick);
}

void SchedulesTab::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refresh();
}

void SchedulesTab::refresh()
{
    // Hidden behind another tab it costs nothing; it loads when shown.
    if (m_queue.isEmpty() || m_plain || !isVisible())
        return;
    request();
}

void SchedulesTab::request()
{
    if (m_queue.isEmpty() || m_plain)
        return;
    if (m_inFlight) {
        m_dirty = true; // once more when the answer comes: it may predate a change
        return;
    }
    m_inFlight = true;
    m_dirty = false;
    m_tag = AdminClient::newTag();
    m_client->schedules()->listSchedules(m_tag, m_queue);
}

void SchedulesTab::onListed(const ScheduleListResult& result)
{
    if (result.tag != m_tag)
        return;
    m_inFlight = false;
    if (!result.error.isEmpty()) {
        showMessage(result.error.text(), true);
    } else {
        m_rows = result.schedules;
        m_serverNow = result.serverNow;
        fill();
        emit loaded();
    }
    if (m_dirty)
        request();
}

void SchedulesTab::fill()
{
    m_filling = true;
    m_view->selectionModel()->clearSelection();
    m_model->removeRows(0, m_model->rowCount());
    const QLocale locale;
    int keep = -1;
    for (const delayq::ScheduleInfo& info : m_rows) {
        const delayq::ScheduleRule& rule = info.rule;
        const QString name = QString::fromStdString(rule.name);
        if (name == m_selected)
            keep = m_model->rowCount();
        const QString next = info.nextFire ? DueText::describe(*info.nextFire, m_serverNow, m_utc)
                                           : tr("none", "a paused schedule's next fire");
        const QString last = info.lastFire > 0
                                 ? DueText::describePast(info.lastFire, m_serverNow, m_utc)
                                 : tr("never", "a schedule that has not fired yet");
        QList<QStandardItem*> cells;
        for (const QString& cell :
             {name, ruleText(rule), rule.paused ? tr("paused") : tr("active"), next, last,
              locale.toString(info.fired), locale.toString(info.skipped)})
            cells.append(new QStandardItem(cell));
        cells[Fired]->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        cells[Skipped]->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_model->appendRow(cells);
    }
    // The selection follows the name; a schedule gone (deleted elsewhere) takes it along.
    if (keep >= 0)
        m_view->selectRow(keep);
    else
        m_selected.clear();
    if (keep < 0)
        m_view->selectionModel()->clearCurrentIndex();
    // A name or a fire may be cut (the fires keep their start: "in 12s", "3m ago"); the
    // state and the counts never are.
    m_fit->fitContents({{Name, 8}, {Rule, 12}, {NextFire, 10}, {LastFire, 10}});
    m_filling = false;
    updateActions();
}

void SchedulesTab::onSelectionChanged()
{
    if (m_filling)
        return;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    m_selected = rows.isEmpty() ? QString() : m_model->item(rows.first().row(), Name)->text();
    updateActions();
}

bool SchedulesTab::selectSchedule(const QString& name)
{
    for (int row = 0; row < m_model->rowCount(); ++row)
        if (m_model->item(row, Name)->text() == name) {
            m_view->selectRow(row);
            return true;
        }
    return false;
}

const delayq::ScheduleInfo* SchedulesTab::selected() const
{
    if (m_selected.isEmpty())
        return nullptr;
    for (const delayq::ScheduleInfo& info : m_rows)
        if (QString::fromStdString(info.rule.name) == m_selected)
            return &info;
    return nullptr;
}

void SchedulesTab::addSchedule()
{
    if (!m_add->isEnabled())
        return;
    auto* dialog = new ScheduleDialog(m_queue, std::nullopt, m_utc, this);
    const QString queue = m_queue;
    connect(dialog, &QDialog::accepted, this, [this, dialog, queue] {
        if (queue != m_queue)
            return;
        const quint64 tag = AdminClient::newTag();
        m_changeTags.append(tag);
        m_client->schedules()->addSchedule(tag, queue, dialog->rule());
    });
    openDialog(dialog);
}

void SchedulesTab::editSelected()
{
    const delayq::ScheduleInfo* info = selected();
    if (!info || !m_edit->isEnabled())
        return;
    // The version read with the list goes with the edit: a change made meanwhile by anyone
    // else makes it refuse instead of overwriting.
    auto* dialog = new ScheduleDialog(m_queue, *info, m_utc, this);
    const QString queue = m_queue;
    connect(dialog, &QDialog::accepted, this, [this, dialog, queue] {
        if (queue != m_queue)
            return;
        const quint64 tag = AdminClient::newTag();
        m_changeTags.append(tag);
        m_client->schedules()->replaceSchedule(tag, queue, dialog->rule(), dialog->version());
    });
    openDialog(dialog);
}

ScheduleDialog* SchedulesTab::activeDialog() const
{
    return m_dialog;
}

BackfillDialog* SchedulesTab::activeBackfill() const
{
    return m_backfillDialog;
}

void SchedulesTab::openDialog(ScheduleDialog* dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    dialog->open();
    emit dialogOpened(dialog);
}

void SchedulesTab::togglePauseSelected()
{
    const delayq::ScheduleInfo* info = selected();
    if (!info || !m_pause->isEnabled())
        return;
    const QString name = QString::fromStdString(info->rule.name);
    const bool pause = !info->rule.paused;
    if (pause) {
        Confirmation c;
        c.title = tr("Pause schedule");
        c.text = tr("Pause schedule '%1' of queue '%2'? It makes no tasks until it is resumed, "
                    "and the fires meanwhile are not made later.")
                     .arg(name, m_queue);
        c.acceptText = tr("Pause %1").arg(name);
        c.rejectText = tr("Keep running");
        if (!confirm(c))
            return;
    }
    const quint64 tag = AdminClient::newTag();
    m_changeTags.append(tag);
    m_client->schedules()->setSchedulePaused(tag, m_queue, name, pause);
}

void SchedulesTab::deleteSelected()
{
    const delayq::ScheduleInfo* info = selected();
    if (!info || !m_delete->isEnabled())
        return;
    const QString name = QString::fromStdString(info->rule.name);
    Confirmation c;
    c.title = tr("Delete schedule");
    c.text = tr("Delete schedule '%1' of queue '%2'? The tasks it already made stay.")
                 .arg(name, m_queue);
    c.acceptText = tr("Delete %1").arg(name);
    c.rejectText = tr("Keep");
    c.icon = QMessageBox::Warning;
    if (!confirm(c))
        return;
    const quint64 tag = AdminClient::newTag();
    m_changeTags.append(tag);
    m_client->schedules()->removeSchedule(tag, m_queue, name);
}

bool SchedulesTab::confirm(const Confirmation& confirmation)
{
    // Every question names the server too: the same queue name on another server is another
    // queue (as WriteActions::confirm does).
    Confirmation asked = confirmation;
    if (!m_server.isEmpty())
        asked.text += QStringLiteral("\n\n") + tr("Server: %1").arg(m_server);
    return m_confirm ? m_confirm(asked) : false;
}

void SchedulesTab::runNowSelected()
{
    const delayq::ScheduleInfo* info = selected();
    if (!info || !m_runNow->isEnabled())
        return;
    const QString name = QString::fromStdString(info->rule.name);
    Confirmation c;
    c.title = tr("Run schedule now");
    c.text = tr("Run schedule '%1' of queue '%2' now? One task is pushed at once, due now; the "
                "rule and its next fire stay as they are.")
                 .arg(name, m_queue);
    c.acceptText = tr("Run %1 now").arg(name);
    c.rejectText = tr("Don't run");
    if (!confirm(c))
        return;
    // One id per confirmed click: a retry of this request after a lost answer makes nothing.
    const QString request = QStringLiteral("app-") + QUuid::createUuid().toString(QUuid::Id128);
    const quint64 tag = AdminClient::newTag();
    m_changeTags.append(tag);
    m_client->schedules()->runScheduleNow(tag, m_queue, name, request);
}

void SchedulesTab::backfillSelected()
{
    const delayq::ScheduleInfo* info = selected();
    if (!info || !m_backfill->isEnabled())
        return;
    const QString name = QString::fromStdString(info->rule.name);
    const QString target =
        m_server.isEmpty() ? tr("Schedule '%1' of queue '%2'.").arg(name, m_queue)
                           : tr("Schedule '%1' of queue '%2' on %3.").arg(name, m_queue, m_server);
    auto* dialog = new BackfillDialog(info->rule, target, m_serverNow, m_utc, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString queue = m_queue;
    connect(dialog, &QDialog::accepted, this, [this, dialog, queue, name] {
        if (queue != m_queue)
            return;
        const QString from = QString::fromStdString(delayq::formatTime(dialog->fromMs(), m_utc));
        const QString to = QString::fromStdString(delayq::formatTime(dialog->toMs(), m_utc));
        Confirmation c;
        c.title = tr("Backfill schedule");
        c.text = tr("Make the fires of schedule '%1' of queue '%2' from %3 to %4 (%n fire(s))? "
                    "Each is made as the rule's own fire would have made it; fires the "
                    "schedule made already are not made again.",
                    nullptr, dialog->fires())
                     .arg(name, queue, from, to);
        c.acceptText = tr("Backfill %1").arg(name);
        c.rejectText = tr("Don't backfill");
        if (!confirm(c))
            return;
        const quint64 tag = AdminClient::newTag();
        m_changeTags.append(tag);
        m_client->schedules()->backfillSchedule(tag, queue, name, dialog->fromMs(), dialog->toMs());
    });
    m_backfillDialog = dialog;
    dialog->open();
    emit backfillOpened(dialog);
}

QString SchedulesTab::ruleText(const delayq::ScheduleRule& rule) const
{
    QString text = QString::fromStdString(rule.describe());
    if (rule.overlap == delayq::ScheduleRule::Overlap::Skip)
        text += tr(", skips a fire while the last one runs");
    if (rule.jitterMs > 0)
        text +=
            tr(", jitter %1").arg(QString::fromStdString(delayq::formatDuration(rule.jitterMs)));
    return text;
}

void SchedulesTab::onChanged(const ScheduleChangeResult& result)
{
    if (!m_changeTags.removeOne(result.tag))
        return;
    const bool ok = result.error.isEmpty() && !result.conflict && !result.missing;
    // A schedule just added is selected once listed: the operator sees what was made.
    if (ok && result.change == ScheduleChange::Add && result.queue == m_queue)
        m_selected = result.name;
    const QString summary = changeText(result);
    showMessage(summary, !ok);
    emit resultReported(summary);
    emit changeFinished(result.queue, ok);
    if (result.queue == m_queue)
        request(); // the list as it is now, whatever happened
}

QString SchedulesTab::changeText(const ScheduleChangeResult& r) const
{
    if (!r.error.isEmpty())
        return tr("Schedule '%1' of queue '%2' was not changed: %3")
            .arg(r.name, r.queue, r.error.text());
    if (r.conflict)
        return tr("Schedule '%1' of queue '%2' was changed by someone else after you opened it: "
                  "nothing was saved. The list shows it as it is now; edit it again to change "
                  "it.")
            .arg(r.name, r.queue);
    if (r.missing)
        return tr("Schedule '%1' of queue '%2' was already deleted.").arg(r.name, r.queue);
    switch (r.change) {
    case ScheduleChange::Add:
        return tr("Schedule '%1' added to queue '%2'.").arg(r.name, r.queue);
    case ScheduleChange::Edit:
        return tr("Schedule '%1' of queue '%2' saved.").arg(r.name, r.queue);
    case ScheduleChange::Pause:
        return tr("Schedule '%1' of queue '%2' paused.").arg(r.name, r.queue);
    case ScheduleChange::Resume:
        return tr("Schedule '%1' of queue '%2' resumed.").arg(r.name, r.queue);
    case ScheduleChange::Remove:
        return tr("Schedule '%1' deleted from queue '%2'; the tasks it made stay.")
            .arg(r.name, r.queue);
    case ScheduleChange::RunNow:
        return r.made ? tr("Schedule '%1' of queue '%2' ran now: task %3.")
                            .arg(r.name, r.queue, r.taskId)
                      : tr("Schedule '%1' of queue '%2': that request had run already (task "
                           "%3); nothing was made.")
                            .arg(r.name, r.queue, r.taskId);
    case ScheduleChange::Backfill:
        return tr("Schedule '%1' of queue '%2' backfilled: %3 of %4 fires made, %5 made before.")
            .arg(r.name, r.queue)
            .arg(r.made)
            .arg(r.fires)
            .arg(r.already);
    }
    return {};
}

void SchedulesTab::showMessage(const QString& message, bool error)
{
    m_message->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
    m_message->setText(message);
}

} // namespace delayq::ui
