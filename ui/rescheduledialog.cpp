#include "rescheduledialog.h"

#include "error.h"
#include "fielderror.h"
#include "timeparse.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace delayq::ui {

RescheduleDialog::RescheduleDialog(int taskCount, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Reschedule"));
    auto* intro = new QLabel(tr("Reschedule %n task(s) to:", nullptr, taskCount), this);
    intro->setTextFormat(Qt::PlainText);

    m_inMode = new QRadioButton(tr("In"), this);
    m_delay = new QLineEdit(QStringLiteral("10m"), this);
    m_delay->setPlaceholderText(tr("30s, 5m, 1h30m (from the server's now)"));
    m_atMode = new QRadioButton(tr("At"), this);
    m_at = new QLineEdit(QString::fromStdString(
                             delayq::formatTime(QDateTime::currentMSecsSinceEpoch() + 3600 * 1000)),
                         this);
    m_at->setPlaceholderText(tr("2026-12-01 09:30 (local) or …Z for UTC"));
    m_nowMode = new QRadioButton(tr("Now (run as soon as a worker is free)"), this);
    m_inMode->setChecked(true);
    m_error = new FieldError(this);

    auto* grid = new QGridLayout;
    grid->addWidget(m_inMode, 0, 0);
    grid->addWidget(m_delay, 0, 1);
    grid->addWidget(m_atMode, 1, 0);
    grid->addWidget(m_at, 1, 1);
    grid->addWidget(m_nowMode, 2, 0, 1, 2);
    grid->addWidget(m_error, 3, 0, 1, 2);
    grid->setColumnStretch(1, 1);

    auto update = [this] {
        m_delay->setEnabled(m_inMode->isChecked());
        m_at->setEnabled(m_atMode->isChecked());
        m_error->setError({});
    };
    for (auto* radio : {m_inMode, m_atMode, m_nowMode})
        connect(radio, &QRadioButton::toggled, this, update);
    update();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Reschedule"));
    connect(buttons, &QDialogButtonBox::accepted, this, &RescheduleDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &RescheduleDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(grid);
    layout->addStretch(1);
    layout->addWidget(buttons);
    resize(460, 220);
}

bool RescheduleDialog::validate()
{
    try {
        if (m_nowMode->isChecked()) {
            m_dueAtMs = -1;
            m_delayMs = 0;
        } else if (m_inMode->isChecked()) {
            m_dueAtMs = -1;
            m_delayMs = delayq::parseDuration(m_delay->text().trimmed().toStdString());
        } else {
            m_delayMs = 0;
            m_dueAtMs = delayq::parseTime(m_at->text().trimmed().toStdString());
        }
    } catch (const delayq::Error& e) {
        m_error->setError(QString::fromUtf8(e.what()));
        return false;
    }
    m_error->setError({});
    return true;
}

void RescheduleDialog::accept()
{
    if (validate())
        QDialog::accept();
}

} // namespace delayq::ui
