#include "tasks/rescheduledialog.h"

#include "widgets/confirmation.h"
#include "widgets/dialogbuttons.h"
#include "widgets/duetext.h"
#include "widgets/fielderror.h"
#include <delayq/error.h>
#include <delayq/timeparse.h>

#include <QDateTime>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace delayq::ui {

RescheduleDialog::RescheduleDialog(const QList<TaskRow>& tasks, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Reschedule"));
    setObjectName(QStringLiteral("rescheduleDialog"));
    for (const TaskRow& task : tasks) {
        m_earliest = m_earliest == 0 ? task.score : qMin(m_earliest, task.score);
        m_latest = qMax(m_latest, task.score);
    }
    m_current = new QLabel(this);
    m_current->setTextFormat(Qt::PlainText);
    m_count = tasks.size();
    m_intro = new QLabel(tr("Reschedule %1 to:").arg(Confirmation::tasks(tasks.size())), this);
    m_intro->setTextFormat(Qt::PlainText);
    m_intro->setWordWrap(true);
    // Ids and payloads are untrusted text: plain, and cut by describeTasks.
    m_tasks = new QLabel(this);
    m_tasks->setObjectName(QStringLiteral("rescheduleTasks"));
    m_tasks->setTextFormat(Qt::PlainText);
    m_tasks->setWordWrap(true);
    m_tasks->setVisible(false);

    m_inMode = new QRadioButton(tr("In"), this);
    // Empty, like Push's: Enter on an untouched dialog reschedules nothing (it asks for a
    // delay) instead of a value the operator never read.
    m_delay = new QLineEdit(this);
    m_delay->setObjectName(QStringLiteral("rescheduleDelay"));
    m_delay->setPlaceholderText(tr("30s, 5m, 1h30m (from the server's now)"));
    m_newDue = new QLabel(this);
    m_newDue->setTextFormat(Qt::PlainText);
    m_atMode = new QRadioButton(tr("At"), this);
    m_at = new QLineEdit(QString::fromStdString(
                             delayq::formatTime(QDateTime::currentMSecsSinceEpoch() + 3600 * 1000)),
                         this);
    m_at->setObjectName(QStringLiteral("rescheduleAt"));
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
    grid->addWidget(m_newDue, 3, 0, 1, 2);
    grid->addWidget(m_error, 4, 0, 1, 2);
    grid->setColumnStretch(1, 1);

    auto update = [this] {
        m_delay->setEnabled(m_inMode->isChecked());
        m_at->setEnabled(m_atMode->isChecked());
        m_error->setError({});
        updateTexts();
    };
    for (auto* radio : {m_inMode, m_atMode, m_nowMode})
        connect(radio, &QRadioButton::toggled, this, update);
    connect(m_delay, &QLineEdit::textChanged, this, &RescheduleDialog::updateTexts);
    connect(m_at, &QLineEdit::textChanged, this, &RescheduleDialog::updateTexts);
    update();

    auto* buttons = DialogButtons::okCancel(this, tr("Reschedule"));
    // What is typed right after Ctrl+R is the delay.
    m_delay->setFocus(Qt::OtherFocusReason);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addWidget(m_tasks);
    layout->addWidget(m_current);
    layout->addLayout(grid);
    layout->addStretch(1);
    layout->addWidget(buttons);
    resize(480, 260);
}

void RescheduleDialog::setTarget(const QString& queue, const QString& described)
{
    setWindowTitle(tr("Reschedule: %1").arg(queue));
    m_intro->setText(
        m_count == 1
            ? tr("Reschedule this task of queue %1:").arg(queue)
            : tr("Reschedule these %1 of queue %2:").arg(Confirmation::tasks(m_count), queue));
    m_tasks->setText(described);
    m_tasks->setVisible(!described.isEmpty());
}

QString RescheduleDialog::introText() const
{
    return m_intro->text();
}

QString RescheduleDialog::tasksText() const
{
    return m_tasks->text();
}

void RescheduleDialog::read()
{
    if (m_nowMode->isChecked()) {
        m_dueAtMs = -1;
        m_delayMs = 0;
    } else if (m_inMode->isChecked()) {
        m_dueAtMs = -1;
        m_delayMs = DueText::parseDelay(m_delay->text());
    } else {
        m_delayMs = 0;
        m_dueAtMs = delayq::parseTime(m_at->text().trimmed().toStdString());
    }
}

bool RescheduleDialog::validate()
{
    return m_error->check([this] { read(); });
}

void RescheduleDialog::setClock(qint64 clockOffsetMs, bool utc)
{
    m_clockOffsetMs = clockOffsetMs;
    m_utc = utc;
    updateTexts();
}

void RescheduleDialog::updateTexts()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch() + m_clockOffsetMs;
    if (m_latest == 0)
        m_current->clear();
    else if (m_earliest == m_latest)
        m_current->setText(tr("Now due %1.").arg(DueText::describe(m_earliest, now, m_utc)));
    else
        m_current->setText(tr("Now due between %1 and %2.")
                               .arg(DueText::describe(m_earliest, now, m_utc),
                                    DueText::describe(m_latest, now, m_utc)));
    try {
        read();
        const qint64 due = m_dueAtMs >= 0 ? m_dueAtMs : now + m_delayMs;
        m_newDue->setText(tr("New due time: %1").arg(DueText::describe(due, now, m_utc)));
        m_error->setError({});
    } catch (const delayq::Error&) {
        // The reason is given at Reschedule; while typing, only the preview waits.
        m_newDue->setText(tr("New due time: type a delay or a time."));
    }
}

QString RescheduleDialog::currentDueText() const
{
    return m_current->text();
}

QString RescheduleDialog::newDueText() const
{
    return m_newDue->text();
}

void RescheduleDialog::accept()
{
    if (validate())
        QDialog::accept();
}

} // namespace delayq::ui
