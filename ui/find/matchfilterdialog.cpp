#include "find/matchfilterdialog.h"

#include "find/findbar.h"
#include "widgets/dialogbuttons.h"
#include "widgets/fielderror.h"
#include <delayq/error.h>

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace delayq::ui {

MatchFilterDialog::MatchFilterDialog(const MatchFilter& initial, QWidget* parent)
    : QDialog(parent), m_set(initial.set), m_filter(initial)
{
    setWindowTitle(tr("Act on matching tasks"));
    setObjectName(QStringLiteral("matchFilterDialog"));
    auto* form = new QFormLayout(this);
    auto* which = new QLabel(initial.set == TaskSet::Dead     ? tr("Dead tasks")
                             : initial.set == TaskSet::Active ? tr("Active tasks")
                                                              : tr("Pending tasks"),
                             this);
    m_text = new QLineEdit(initial.text, this);
    m_text->setPlaceholderText(tr("Any text (empty: every task of the set)"));
    m_field = new QComboBox(this);
    m_field->addItems({tr("in the payload"), tr("in the last error"), tr("in the worker's name")});
    m_field->setCurrentIndex(initial.field == delayq::ScanField::Error    ? 1
                             : initial.field == delayq::ScanField::Worker ? 2
                                                                          : 0);
    m_timeMode = new QComboBox(this);
    m_timeMode->addItems({tr("at any time"), tr("before"), tr("after")});
    m_time = new QLineEdit(this);
    m_time->setPlaceholderText(tr("2026-12-01 09:30, now, +10m, -1h"));
    m_action = new QComboBox(this);
    // Each names what it does to the tasks: "Cancel" alone read as the dismiss button.
    if (m_set == TaskSet::Dead)
        m_action->addItems({tr("Requeue the matching tasks"), tr("Delete the matching tasks")});
    else if (m_set == TaskSet::Pending)
        m_action->addItems({tr("Cancel the matching tasks"), tr("Reschedule the matching tasks"),
                            tr("Run the matching tasks now")});
    m_action->setObjectName(QStringLiteral("matchAction"));
    m_due = new QLineEdit(this);
    m_due->setPlaceholderText(tr("New due time: 2026-12-01 09:30, +10m"));
    m_error = new FieldError(this);
    // "Close", not "Cancel": the dialog may well be about cancelling tasks. The count comes
    // next, and its confirmation names the action and the number ("Cancel 15 tasks").
    auto* buttons = DialogButtons::wired(new QDialogButtonBox(QDialogButtonBox::Close, this), this);
    buttons->addButton(tr("Count matches…"), QDialogButtonBox::AcceptRole);
    form->addRow(tr("Tasks:"), which);
    form->addRow(tr("Containing:"), m_text);
    form->addRow(QString(), m_field);
    form->addRow(m_set == TaskSet::Dead ? tr("Died:") : tr("Due:"), m_timeMode);
    form->addRow(QString(), m_time);
    form->addRow(tr("Action:"), m_action);
    form->addRow(tr("Reschedule to:"), m_due);
    form->addRow(m_error);
    form->addRow(buttons);
    // Room for the placeholders and the errors: not the 242 px the form alone asks for.
    setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 80);
    connect(m_timeMode, &QComboBox::currentIndexChanged, this, &MatchFilterDialog::updateFields);
    connect(m_action, &QComboBox::currentIndexChanged, this, &MatchFilterDialog::updateFields);
    updateFields();
}

TaskAction MatchFilterDialog::action() const
{
    if (m_set == TaskSet::Dead)
        return m_action->currentIndex() == 0 ? TaskAction::Requeue : TaskAction::DeleteDead;
    const TaskAction pending[] = {TaskAction::Cancel, TaskAction::Reschedule, TaskAction::RunNow};
    return pending[qBound(0, m_action->currentIndex(), 2)];
}

void MatchFilterDialog::updateFields()
{
    m_time->setEnabled(m_timeMode->currentIndex() != 0);
    m_due->setEnabled(m_set == TaskSet::Pending && action() == TaskAction::Reschedule);
}

void MatchFilterDialog::accept()
{
    if (m_action->count() == 0) {
        m_error->setError(tr("no bulk action applies to active tasks"));
        return;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch() + m_clockOffsetMs;
    MatchFilter filter;
    filter.set = m_set;
    filter.text = m_text->text();
    const int field = m_field->currentIndex();
    filter.field = field == 1   ? delayq::ScanField::Error
                   : field == 2 ? delayq::ScanField::Worker
                                : delayq::ScanField::Payload;
    try {
        if (m_timeMode->currentIndex() != 0) {
            const qint64 at = FindBar::parseWhen(m_time->text(), now);
            if (m_timeMode->currentIndex() == 1)
                filter.toMs = qMax<qint64>(0, at - 1);
            else
                filter.fromMs = qMax<qint64>(0, at);
        }
    } catch (const delayq::Error& e) {
        m_error->setError(tr("the time: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    m_dueAtMs = -1;
    if (m_due->isEnabled()) {
        try {
            m_dueAtMs = FindBar::parseWhen(m_due->text(), now);
        } catch (const delayq::Error& e) {
            m_error->setError(tr("the new due time: %1").arg(QString::fromUtf8(e.what())));
            return;
        }
    }
    m_error->setError({});
    m_filter = filter;
    QDialog::accept();
}

} // namespace delayq::ui
