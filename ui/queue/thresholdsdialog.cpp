#include "queue/thresholdsdialog.h"

#include "widgets/dialogbuttons.h"
#include "widgets/fielderror.h"
#include <delayq/error.h>
#include <delayq/timeparse.h>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace delayq::ui {

ThresholdsDialog::ThresholdsDialog(const QString& queue, QWidget* parent)
    : QDialog(parent), m_queue(queue)
{
    setWindowTitle(queue.isEmpty() ? tr("Thresholds for all queues")
                                   : tr("Thresholds of %1").arg(queue));
    auto* form = new QFormLayout(this);
    auto* note = new QLabel(
        tr("A queue's row is coloured when a figure is above its limit. Leave a field empty "
           "to turn that limit off."),
        this);
    note->setWordWrap(true);
    form->addRow(note);
    if (!queue.isEmpty()) {
        m_own = new QCheckBox(tr("Own thresholds for this queue (else those of all queues)"), this);
        form->addRow(m_own);
    }
    const QString labels[] = {tr("Oldest overdue above"), tr("Dead above"), tr("Due now above"),
                              tr("Failed in the last hour above")};
    for (int i = 0; i < 4; ++i) {
        m_fields[i] = new QLineEdit(this);
        m_errors[i] = new FieldError(this);
        form->addRow(labels[i], FieldError::below(m_fields[i], m_errors[i], this));
        connect(m_fields[i], &QLineEdit::textChanged, this, &ThresholdsDialog::validate);
    }
    m_fields[0]->setPlaceholderText(tr("e.g. 1m, 30s; empty: off"));
    for (int i = 1; i < 4; ++i)
        m_fields[i]->setPlaceholderText(tr("a count; empty: off"));
    m_buttons = DialogButtons::okCancel(this);
    form->addRow(m_buttons);
    const auto own = queue.isEmpty() ? std::nullopt : Thresholds::queueOverride(queue);
    showLimits(own.value_or(Thresholds::defaults()));
    if (m_own) {
        m_own->setChecked(own.has_value());
        auto follow = [this](bool on) {
            for (auto* field : m_fields)
                field->setEnabled(on);
            validate();
        };
        connect(m_own, &QCheckBox::toggled, this, follow);
        follow(m_own->isChecked());
    }
}

void ThresholdsDialog::showLimits(const Thresholds::Limits& limits)
{
    const qint64 values[] = {limits.overdueMs, limits.dead, limits.dueNow, limits.failedHour};
    for (int i = 0; i < 4; ++i) {
        if (values[i] < 0)
            m_fields[i]->clear();
        else if (i == 0)
            m_fields[i]->setText(QString::fromStdString(delayq::formatDuration(values[i])));
        else
            m_fields[i]->setText(QString::number(values[i]));
    }
}

std::optional<Thresholds::Limits> ThresholdsDialog::limits()
{
    qint64 values[4];
    bool fine = true;
    for (int i = 0; i < 4; ++i) {
        const QString text = m_fields[i]->text().trimmed();
        QString error;
        values[i] = -1;
        if (!text.isEmpty() && i == 0) {
            try {
                values[i] = delayq::parseDuration(text.toStdString());
            } catch (const delayq::Error& e) {
                error = QString::fromUtf8(e.what());
            }
        } else if (!text.isEmpty()) {
            bool ok = false;
            values[i] = text.toLongLong(&ok);
            if (!ok || values[i] < 0)
                error = tr("a whole number from 0, or empty for no limit");
        }
        m_errors[i]->setError(m_fields[i]->isEnabled() ? error : QString());
        fine = fine && (error.isEmpty() || !m_fields[i]->isEnabled());
    }
    if (!fine)
        return std::nullopt;
    return Thresholds::Limits{values[0], values[1], values[2], values[3]};
}

void ThresholdsDialog::validate()
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(limits().has_value());
}

void ThresholdsDialog::accept()
{
    const auto typed = limits();
    if (!typed)
        return;
    if (m_queue.isEmpty())
        Thresholds::setDefaults(*typed);
    else
        Thresholds::setQueueOverride(
            m_queue, m_own->isChecked() ? typed : std::optional<Thresholds::Limits>());
    QDialog::accept();
}

} // namespace delayq::ui
