#pragma once

#include <QDialog>

class QLineEdit;
class QRadioButton;

namespace delayq::ui {

class FieldError;

// Reschedule the selected tasks to an absolute time, a delay from now, or now.
class RescheduleDialog : public QDialog
{
    Q_OBJECT

public:
    RescheduleDialog(int taskCount, QWidget* parent = nullptr);

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
    QRadioButton* m_atMode;
    QRadioButton* m_inMode;
    QRadioButton* m_nowMode;
    QLineEdit* m_at;
    QLineEdit* m_delay;
    FieldError* m_error;
    qint64 m_dueAtMs = -1;
    qint64 m_delayMs = 0;
};

} // namespace delayq::ui
