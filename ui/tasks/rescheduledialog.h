#pragma once

#include "client/tasktypes.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QRadioButton;

namespace delayq::ui {

class FieldError;

// Reschedule the selected tasks to an absolute time, a delay from now, or now. Names what it
// acts on as the Cancel confirmation does (the queue; each task's id, due time and payload's
// start), says when the tasks are due now and, as the fields are typed, when they will be.
class RescheduleDialog : public QDialog
{
    Q_OBJECT

public:
    explicit RescheduleDialog(const QList<TaskRow>& tasks, QWidget* parent = nullptr);

    // The queue and the tasks as listed (TaskActions::describeTasks), shown above the fields.
    void setTarget(const QString& queue, const QString& described);
    QString introText() const;
    QString tasksText() const;
    // The server's clock (offset from this machine's) and the zone of the shown times.
    void setClock(qint64 clockOffsetMs, bool utc);
    QString currentDueText() const;
    QString newDueText() const;

    bool validate();
    // After validate(): dueAtMs >= 0 is absolute, else delayMs from the server's now.
    qint64 dueAtMs() const { return m_dueAtMs; }
    qint64 delayMs() const { return m_delayMs; }

    QRadioButton* atMode() const { return m_atMode; }
    QRadioButton* inMode() const { return m_inMode; }
    QRadioButton* nowMode() const { return m_nowMode; }
    QLineEdit* atEdit() const { return m_at; }
    QLineEdit* delayEdit() const { return m_delay; }
    FieldError* timeError() const { return m_error; }

    void accept() override;

private:
    // Throws delayq::Error; fills m_dueAtMs and m_delayMs.
    void read();
    void updateTexts();

    QRadioButton* m_atMode;
    QRadioButton* m_inMode;
    QRadioButton* m_nowMode;
    QLineEdit* m_at;
    QLineEdit* m_delay;
    FieldError* m_error;
    QLabel* m_current;
    QLabel* m_intro;
    QLabel* m_tasks;
    qsizetype m_count = 0;
    QLabel* m_newDue;
    qint64 m_earliest = 0;
    qint64 m_latest = 0;
    qint64 m_clockOffsetMs = 0;
    bool m_utc = false;
    qint64 m_dueAtMs = -1;
    qint64 m_delayMs = 0;
};

} // namespace delayq::ui
